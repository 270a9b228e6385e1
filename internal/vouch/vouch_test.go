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
