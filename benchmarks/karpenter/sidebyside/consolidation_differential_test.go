package sidebyside

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/nodeplan/nodeplan/consolidation"
	"github.com/nodeplan/nodeplan/packing"
	"github.com/nodeplan/nodeplan/packing/verify"
)

// differentialSavingsTolerance absorbs the rounding of float prices to
// nodeplan's fixed-point Price, per cluster, in $/h.
const differentialSavingsTolerance = 1e-6

// TestConsolidationSavingsDifferential: on generated fragmented clusters,
// nodeplan's consolidation.Plan saves at least as much as every run of
// Karpenter's disruption loop (several runs per cluster, since Karpenter's
// methods shuffle and iterate maps). 12 clusters × 2 runs; 4 × 2 of 20
// nodes with -short. Every failing cluster is reported with its seed,
// both savings and both command lists.
func TestConsolidationSavingsDifferential(t *testing.T) {
	clusters, runs, nodes := 12, 2, 0
	if testing.Short() {
		clusters, runs, nodes = 4, 2, 20
	}
	failed := 0
	for i := range clusters {
		seed := uint64(2100 + i)
		f := GenerateFragmented(seed, nodes)
		n, err := RunNodeplanConsolidation(f, consolidation.Options{})
		require.NoError(t, err)
		for run := range runs {
			k, err := RunKarpenterConsolidation(f, DisruptionOptions{})
			require.NoError(t, err, "seed %d run %d", seed, run)
			t.Logf("seed %d (%d nodes, %d pods, budget %s) run %d: nodeplan saves %.4f/h in %d commands, karpenter %.4f/h in %d (ratio %.3f)",
				seed, len(f.Nodes), len(f.Workload.Pods), f.Budget, run, n.Saved(), len(n.Moves), k.Saved(), len(k.Moves), ratio(n.Saved(), k.Saved()))
			if n.Saved() >= k.Saved()-differentialSavingsTolerance {
				continue
			}
			failed++
			t.Errorf("seed %d (GenerateFragmented(%d, %d)) run %d: nodeplan saves %.4f/h, karpenter %.4f/h (ratio %.3f)\nnodeplan:\n%s\nkarpenter:\n%s",
				seed, seed, nodes, run, n.Saved(), k.Saved(), ratio(n.Saved(), k.Saved()), moveList(n.Moves), moveList(k.Moves))
		}
	}
	if failed > 0 {
		t.Logf("%d of %d runs saved more under Karpenter", failed, clusters*runs)
	}
}

// TestConsolidationCommandsVerify: on generated fragmented clusters (whose
// snapshot itself verify.Plan accepts), consolidation.Plan's commands pass
// consolidation.VerifyCommands. 200 clusters; 50 with -short.
func TestConsolidationCommandsVerify(t *testing.T) {
	clusters := uint64(200)
	if testing.Short() {
		clusters = 50
	}
	for seed := range clusters {
		f := GenerateFragmented(seed, 0)
		c, err := f.NodeplanCluster()
		require.NoError(t, err)
		base := packing.Problem{NodePools: c.NodePools, Catalog: c.Catalog, Nodes: c.Nodes}
		require.Empty(t, verify.Plan(base, packing.Plan{}), "seed %d: the snapshot itself", seed)
		r, err := consolidation.Plan(c, consolidation.Options{})
		require.NoError(t, err)
		if v := consolidation.VerifyCommands(c, r.Commands); len(v) > 0 {
			t.Errorf("seed %d (GenerateFragmented(%d, 0)): VerifyCommands: %v\ncommands: %v", seed, seed, v, r.Commands)
		}
	}
}
