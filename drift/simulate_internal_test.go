package drift

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/nodeplan/nodeplan/instancetypes"
	"github.com/nodeplan/nodeplan/internal/problemgen"
	"github.com/nodeplan/nodeplan/packing"
	"github.com/nodeplan/nodeplan/resources"
)

// TestPlaceChecksAddedNodes: Commands validates the cluster's nodes once
// and the simulation's solves do not check them again, but a node the
// simulation adds (an in-flight replacement) is checked by every solve,
// with its pods: one that packing rejects makes the solve fail, not the
// solver.
func TestPlaceChecksAddedNodes(t *testing.T) {
	node := packing.Node{Name: "a", NodePool: "default", Initialized: true,
		Allocatable: resources.List{CPU: 4000, Memory: 8 << 30, Pods: 110}}
	pod := packing.Pod{Namespace: "default", Name: "p", Requests: resources.List{CPU: 100}}
	cl := Cluster{Input: Input{Catalog: instancetypes.KarpenterDiverse(),
		NodePools: []Template{{NodePool: packing.NodePool{Name: "default"}}}}}
	for _, name := range []string{"a", "b"} {
		node.Name = name
		cl.Nodes = append(cl.Nodes, NodeClaimState{Node: node})
	}
	cl.Nodes[0].Node.Pods = []packing.Pod{pod}
	require.NoError(t, cl.Validate())
	place := func(added packing.Node) error {
		s := newSim(cl, cl.Catalog)
		s.Launch(added)
		_, err := s.place([]string{"a"}, s.reschedulable([]string{"a"}))
		return err
	}
	added := cl.Nodes[0].Node
	added.Name = "a-replacement-1"
	require.NoError(t, place(added))
	for seed := range uint64(6) {
		bad, what := problemgen.CorruptNode(added, seed)
		require.ErrorIs(t, place(bad), packing.ErrInvalidProblem, what)
	}
	added.Name = "b"
	require.ErrorIs(t, place(added), packing.ErrInvalidProblem, "named like a cluster node")
}

// TestInFlightPoolCatalog: a replacement in flight takes its allocatable
// from its NodePool's catalog (one adjusted by a NodeOverlay's capacity,
// say), not the problem's.
func TestInFlightPoolCatalog(t *testing.T) {
	cat := instancetypes.KarpenterDiverse()
	it, ok := cat.Get("fake-it-4")
	require.True(t, ok)
	adjusted := *it
	adjusted.Capacity = adjusted.Capacity.With("example.com/dev", 3)
	own, err := cat.WithTypes(adjusted)
	require.NoError(t, err)
	cl := Cluster{Input: Input{Catalog: cat, NodePools: []Template{{NodePool: packing.NodePool{Name: "default", Catalog: own}}}}}
	s := newSim(cl, cl.Catalog)
	n := s.inFlight(packing.NodeClaim{Name: "r", NodePool: "default", InstanceType: "fake-it-4"}, nil)
	require.Equal(t, int64(3), n.Allocatable.Get("example.com/dev"))
}
