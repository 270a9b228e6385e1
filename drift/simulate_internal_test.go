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
