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
