package consolidation

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

// TestSimulateChecksAddedNodes: Plan validates the input nodes once and
// its simulations do not check them again, but a node the state adds (an
// in-flight replacement) is checked by every simulation, with its pods:
// one carrying what packing rejects makes the simulation fail, not the
// solver.
func TestSimulateChecksAddedNodes(t *testing.T) {
	node := func(name string, pods ...packing.Pod) packing.Node {
		return packing.Node{Name: name, NodePool: "default", Initialized: true,
			Allocatable: resources.List{CPU: 4000, Memory: 8 << 30, Pods: 110}, Pods: pods}
	}
	pod := packing.Pod{Namespace: "default", Name: "p", Requests: resources.List{CPU: 100}}
	c := Cluster{Catalog: instancetypes.KarpenterDiverse(), NodePools: []packing.NodePool{{Name: "default"}},
		Nodes: []packing.Node{node("a", pod), node("b")}}
	long := strings.Repeat("a", 64)
	tests := []struct {
		name  string
		added packing.Node
		err   bool
	}{
		{"valid replacement", node("consolidation-1"), false},
		{"invalid label", func() packing.Node {
			n := node("consolidation-1")
			n.Labels = map[string]string{"rack": long}
			return n
		}(), true},
		{"invalid pod", func() packing.Node {
			bad := pod
			bad.Name = "q"
			bad.Requests = resources.List{CPU: -1}
			return node("consolidation-1", bad)
		}(), true},
		{"name of an input node", node("b"), true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s, err := newState(c, Options{})
			require.NoError(t, err)
			s.c.Nodes = append(s.c.Nodes, tc.added)
			cands := s.candidates()
			require.NotEmpty(t, cands)
			_, err = s.simulate(cands[:1])
			assert.Equal(t, tc.err, errors.Is(err, packing.ErrInvalidProblem), "%v", err)
		})
	}
}
