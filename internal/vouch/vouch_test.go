package vouch_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/nodeplan/nodeplan/internal/vouch"
)

func TestNodes(t *testing.T) {
	type node struct{ name string }
	v := vouch.Of([]node{{"a"}, {"b"}}, func(n *node) string { return n.name })
	assert.True(t, v.Has("a"))
	assert.True(t, v.Has("b"))
	assert.False(t, v.Has("c"))
	assert.False(t, vouch.Nodes{}.Has("a"), "the zero Nodes vouches for none")
	assert.Zero(t, testing.AllocsPerRun(100, func() { _ = v.Has("b") }))
}

func TestIndexAndMemo(t *testing.T) {
	type node struct{ name string }
	v := vouch.Of([]node{{"a"}, {"b"}}, func(n *node) string { return n.name })
	assert.Equal(t, 2, v.Len())
	i, ok := v.Index("b")
	assert.True(t, ok)
	assert.Equal(t, 1, i)
	_, ok = v.Index("c")
	assert.False(t, ok)
	_, ok = vouch.Nodes{}.Index("a")
	assert.False(t, ok, "the zero Nodes vouches for none")

	m := v.Memo()
	assert.Nil(t, m.Load(0), "nothing stored yet")
	m.Store(1, "first")
	m.Store(1, "second")
	assert.Equal(t, "second", m.Load(1), "a store replaces the node's value")
	assert.Nil(t, m.Load(0), "node 0 has its own slot")
	var none *vouch.Memo
	none.Store(0, "x")
	assert.Nil(t, none.Load(0), "a nil memo stores nothing")
	assert.Zero(t, testing.AllocsPerRun(100, func() { _, _ = v.Index("b") }))
}

func TestGiveTake(t *testing.T) {
	type node struct{ name string }
	m := vouch.Of([]node{{"a"}}, func(n *node) string { return n.name }).Memo()
	assert.Nil(t, m.Take(), "nothing given yet")
	for i := range 6 {
		m.Give(i)
	}
	var got []any
	for v := m.Take(); v != nil; v = m.Take() {
		got = append(got, v)
	}
	assert.Equal(t, []any{3, 2, 1, 0}, got, "the last given first, at most four kept")
	var none *vouch.Memo
	none.Give(1)
	assert.Nil(t, none.Take(), "a nil Memo keeps nothing")
}
