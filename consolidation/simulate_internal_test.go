package consolidation

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/nodeplan/nodeplan/instancetypes"
	"github.com/nodeplan/nodeplan/internal/problemgen"
	"github.com/nodeplan/nodeplan/packing"
	"github.com/nodeplan/nodeplan/resources"
)

// TestSimulateChecksAddedNodes: Plan validates the input nodes once and
// its simulations do not check them again, but a node the state adds (an
// in-flight replacement) is checked by every simulation, with its pods:
// one that packing rejects makes the simulation fail, not the solver.
func TestSimulateChecksAddedNodes(t *testing.T) {
	a := packing.Node{Name: "a", NodePool: "default", Initialized: true,
		Allocatable: resources.List{CPU: 4000, Memory: 8 << 30, Pods: 110},
		Pods:        []packing.Pod{{Namespace: "default", Name: "p", Requests: resources.List{CPU: 100}}}}
	c := Cluster{Catalog: instancetypes.KarpenterDiverse(), NodePools: []packing.NodePool{{Name: "default"}},
		Nodes: []packing.Node{a, {Name: "b", NodePool: "default", Initialized: true}}}
	simulate := func(added packing.Node) error {
		s, err := newState(c, Options{})
		require.NoError(t, err)
		s.w.Launch(added)
		_, err = s.simulate(s.candidates()[:1])
		return err
	}
	replacement := a
	replacement.Name, replacement.Initialized = "consolidation-1", false
	require.NoError(t, simulate(replacement))
	replacement.Name = "b"
	require.ErrorIs(t, simulate(replacement), packing.ErrInvalidProblem, "named like an input node")
	replacement.Name = "consolidation-1"
	for seed := range uint64(6) {
		bad, what := problemgen.CorruptNode(replacement, seed)
		require.ErrorIs(t, simulate(bad), packing.ErrInvalidProblem, what)
	}
}
