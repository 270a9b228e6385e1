package drift

import (
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nodeplan/nodeplan/instancetypes"
	"github.com/nodeplan/nodeplan/packing"
	"github.com/nodeplan/nodeplan/resources"
)

// TestPlaceChecksAddedNodes: the simulation validates the cluster's nodes
// once (Cluster.Validate) and its solves do not check them again, but a
// node it adds (an in-flight replacement) is checked by every solve, with
// its pods: one carrying what packing rejects makes the solve fail, not
// the solver.
func TestPlaceChecksAddedNodes(t *testing.T) {
	node := func(name string, pods ...packing.Pod) packing.Node {
		return packing.Node{Name: name, NodePool: "default", Initialized: true,
			Allocatable: resources.List{CPU: 4000, Memory: 8 << 30, Pods: 110}, Pods: pods}
	}
	pod := packing.Pod{Namespace: "default", Name: "p", Requests: resources.List{CPU: 100}}
	cl := Cluster{Input: Input{Catalog: instancetypes.KarpenterDiverse(),
		NodePools: []Template{{NodePool: packing.NodePool{Name: "default"}}},
		Nodes:     []NodeClaimState{{Node: node("a", pod)}, {Node: node("b")}}}}
	require.NoError(t, cl.Validate())
	long := strings.Repeat("a", 64)
	tests := []struct {
		name  string
		added packing.Node
		err   bool
	}{
		{"valid replacement", node("a-replacement-1"), false},
		{"invalid label", func() packing.Node {
			n := node("a-replacement-1")
			n.Labels = map[string]string{"rack": long}
			return n
		}(), true},
		{"invalid pod", func() packing.Node {
			bad := pod
			bad.Name = "q"
			bad.Requests = resources.List{CPU: -1}
			return node("a-replacement-1", bad)
		}(), true},
		{"name of a cluster node", node("b"), true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := newSim(cl, cl.Catalog)
			s.add(tc.added)
			names := []string{"a"}
			_, err := s.place(names, s.reschedulable(names))
			assert.Equal(t, tc.err, errors.Is(err, packing.ErrInvalidProblem), "%v", err)
		})
	}
}
