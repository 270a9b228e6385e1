package sidebyside

import (
	"os"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/nodeplan/nodeplan/consolidation"
	"github.com/nodeplan/nodeplan/packing"
	"github.com/nodeplan/nodeplan/packing/verify"
)

// differentialSavingsTolerance absorbs the rounding of float prices to
// nodeplan's fixed-point Price, per cluster, in $/h.
const differentialSavingsTolerance = 1e-6

// consolidationSweep is the sweep of TestConsolidationSavingsDifferential:
// clusters generated from seed 2100 on with nodes nodes each (0: 5 to 60),
// Karpenter run runs times on each. 6 clusters of 12 nodes, 2 runs; with
// -short 3 of 10, 1 run; NODEPLAN_DIFF_LARGE=1 16 clusters of 5 to 60
// nodes, 2 runs (minutes: Karpenter's full loop takes up to a minute and
// a half on 60 nodes).
func consolidationSweep(short bool) (clusters, nodes, runs int) {
	switch {
	case os.Getenv("NODEPLAN_DIFF_LARGE") == "1":
		return 16, 0, 2
	case short:
		return 3, 10, 1
	}
	return 6, 12, 2
}

// TestConsolidationSavingsDifferential: on generated fragmented clusters,
// both sides run to the same end and are compared like for like.
//   - The loop: RunNodeplanLoop (Plan, every command completed, Plan
//     again) saves at least as much as every run of Karpenter's full loop
//     (each command completed before the next pass), both completed by
//     the same Fragmented.Complete, and both end with every pod bound
//     once, within allocatable.
//   - The instant: one consolidation.Plan saves at least as much as every
//     run of Karpenter's wave (commands left in flight, one budget).
//
// Karpenter runs several times per cluster since its methods shuffle and
// iterate maps. Every failing cluster is reported with its seed, both
// savings and both command lists.
func TestConsolidationSavingsDifferential(t *testing.T) {
	clusters, nodes, runs := consolidationSweep(testing.Short())
	failed := 0
	for i := range clusters {
		seed := uint64(2100 + i)
		f := GenerateFragmented(seed, nodes)
		loop, err := RunNodeplanLoop(f, consolidation.Options{}, 0)
		require.NoError(t, err, "seed %d", seed)
		require.Empty(t, boundViolation(loop.End), "seed %d: nodeplan's loop ends with %v", seed, loop.Moves)
		once, err := RunNodeplanConsolidation(f, consolidation.Options{})
		require.NoError(t, err, "seed %d", seed)
		for run := range runs {
			full, err := RunKarpenterConsolidation(f, DisruptionOptions{})
			require.NoError(t, err, "seed %d run %d", seed, run)
			require.Empty(t, boundViolation(full.End), "seed %d run %d: karpenter's loop ends with %v", seed, run, full.Moves)
			wave, err := RunKarpenterConsolidation(f, DisruptionOptions{Wave: true})
			require.NoError(t, err, "seed %d run %d", seed, run)
			t.Logf("seed %d (%d nodes, %d pods, budget %s) run %d: loop nodeplan %.4f/h in %d commands, karpenter %.4f/h in %d (ratio %.3f); "+
				"wave nodeplan %.4f/h in %d, karpenter %.4f/h in %d (ratio %.3f)",
				seed, len(f.Nodes), len(f.Workload.Pods), f.Budget, run, loop.Saved(), len(loop.Moves), full.Saved(), len(full.Moves),
				ratio(loop.Saved(), full.Saved()), once.Saved(), len(once.Moves), wave.Saved(), len(wave.Moves), ratio(once.Saved(), wave.Saved()))
			for _, c := range []struct {
				kind string
				n, k Consolidated
			}{{"loop", loop, full}, {"wave", once, wave}} {
				if c.n.Saved() >= c.k.Saved()-differentialSavingsTolerance {
					continue
				}
				failed++
				t.Errorf("seed %d (GenerateFragmented(%d, %d), budget %s) run %d, %s: nodeplan saves %.4f/h, karpenter %.4f/h (ratio %.3f)%s\nnodeplan:\n%s\nkarpenter:\n%s",
					seed, seed, nodes, f.Budget, run, c.kind, c.n.Saved(), c.k.Saved(), ratio(c.n.Saved(), c.k.Saved()), spreadNote(c.k.End),
					moveList(c.n.Moves), moveList(c.k.Moves))
			}
		}
	}
	if failed > 0 {
		t.Logf("%d of %d comparisons saved more under Karpenter", failed, 2*clusters*runs)
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

// spreadNote says when a Karpenter loop's end state breaks one of the
// generator's DoNotSchedule spreads (maxSkew 1 on hostname or zone),
// which nodeplan keeps: a likely source of its extra savings.
func spreadNote(end Fragmented) string {
	if len(end.Nodes) == 0 {
		return ""
	}
	if v := spreadViolation(end); v != "" {
		return "; karpenter's end state breaks a spread: " + v
	}
	return ""
}
