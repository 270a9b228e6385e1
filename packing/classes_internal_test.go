package packing

import (
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nodeplan/nodeplan/instancetypes"
	"github.com/nodeplan/nodeplan/resources"
)

// TestNodeRoomsKeepsRunOrder: nodeRooms lists the nodes by name without
// reordering the run's nodes (initialized first, over which r.free is
// built).
func TestNodeRoomsKeepsRunOrder(t *testing.T) {
	cat, err := instancetypes.Synthetic(10, 7)
	require.NoError(t, err)
	alloc := resources.List{CPU: 4000, Memory: 8 << 30, Pods: 10}
	p := Problem{Catalog: cat, NodePools: []NodePool{{Name: "default"}},
		Nodes: []Node{{Name: "a", NodePool: "default", Allocatable: alloc},
			{Name: "b", NodePool: "default", Initialized: true, Allocatable: alloc}},
		Pods: []Pod{{Namespace: "default", Name: "p", Requests: resources.List{CPU: 100}}}}
	r := newRun(compile(&p, Options{}), passSpec{}, nil, nil)
	before := slices.Clone(r.nodes)
	require.Equal(t, "b", before[0].n.Name, "the run orders initialized nodes first; the test shows nothing")
	rooms, nodes := nodeRooms(r)
	assert.Equal(t, before, r.nodes, "run's nodes reordered")
	assert.Equal(t, []string{"a", "b"}, []string{rooms[0].Name, rooms[1].Name})
	assert.Equal(t, "a", nodes[0].n.Name)
}
