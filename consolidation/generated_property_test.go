package consolidation_test

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"reflect"
	"strconv"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/nodeplan/nodeplan/consolidation"
	"github.com/nodeplan/nodeplan/internal/problemgen"
	"github.com/nodeplan/nodeplan/packing"
	"github.com/nodeplan/nodeplan/packing/verify"
)

// generatedCount is how many generated clusters
// TestPropertyGeneratedClusters plans: 1,000, or a tenth of
// NODEPLAN_PROPERTY_COUNT (the packing properties' count) when that is
// more.
func generatedCount(t *testing.T) int {
	const def = 1000
	s := os.Getenv("NODEPLAN_PROPERTY_COUNT")
	if s == "" {
		return def
	}
	n, err := strconv.Atoi(s)
	require.NoError(t, err, "NODEPLAN_PROPERTY_COUNT")
	return max(n/10, def)
}

// generatedOptions draws consolidation options across their valid range,
// with solver options from problemgen.GenerateOptions.
func generatedOptions(seed uint64) consolidation.Options {
	rng := rand.New(rand.NewPCG(seed, 17))
	pick := func(vs ...int) int { return vs[rng.IntN(len(vs))] }
	solver := problemgen.GenerateOptions(seed)
	if solver.Preferences == packing.BudgetPreferences { // provisioning's policy, refused here
		solver.Preferences, solver.PreferenceBudget = packing.RespectPreferences, 0
	}
	return consolidation.Options{
		MinPriceImprovement: []float64{0, 0, 0.1, 0.5, 1}[rng.IntN(5)],
		MinScore:            []float64{0, 0, 0.5, 3}[rng.IntN(4)],
		SpotToSpot:          rng.IntN(2) == 0,
		MaxCandidates:       pick(0, 0, 1, 3),
		MaxSingle:           pick(0, 0, 1, 2),
		Repack:              rng.IntN(2) == 0,
		MaxIterations:       pick(0, 1, 8),
		Solver:              solver,
	}
}

// generatedCluster is the cluster of a generated problem: its nodes,
// pools, catalog and daemonsets, its pods pending, with the budgets,
// do-not-disrupt marks and PodDisruptionBudgets of problemgen.Disruptive.
func generatedCluster(p packing.Problem, seed uint64) consolidation.Cluster {
	q, pdbs := problemgen.Disruptive(p, seed)
	return consolidation.Cluster{Nodes: q.Nodes, NodePools: q.NodePools, Catalog: q.Catalog, DaemonSets: q.DaemonSets,
		Pending: q.Pods, PDBs: pdbs, Now: now}
}

// TestPropertyGeneratedClusters: on the clusters of problemgen.Generate
// (unusual shapes included: GPU daemonsets tolerating everything, pools
// excluding themselves, hostname and beta-label constraints, bounds) and
// options across their valid range, Plan returns no error, the same
// result twice, and commands VerifyCommands accepts whenever the
// snapshot itself passes verify.Plan; with one solver option made
// invalid it returns an error wrapping ErrInvalidOptions.
func TestPropertyGeneratedClusters(t *testing.T) {
	for seed := range uint64(generatedCount(t)) {
		seed += 7 << 40
		p := problemgen.Generate(seed, problemgen.Size{})
		c := generatedCluster(p, seed)
		if msg := checkGenerated(c, generatedOptions(seed)); msg != "" {
			t.Fatalf("seed %d (problemgen.Generate(%d, problemgen.Size{}), generatedCluster and generatedOptions(%d)): %s\n%s",
				seed, seed, seed, msg, problemgen.Dump(p))
		}
		o := generatedOptions(seed)
		o.Solver, _ = problemgen.CorruptOptions(o.Solver, seed)
		if _, err := consolidation.Plan(c, o); !errors.Is(err, consolidation.ErrInvalidOptions) {
			t.Fatalf("seed %d: Plan with invalid solver options %+v returned %v", seed, o.Solver, err)
		}
	}
}

// checkGenerated plans c with o and says what is wrong.
func checkGenerated(c consolidation.Cluster, o consolidation.Options) (msg string) {
	defer func() {
		if r := recover(); r != nil {
			msg = fmt.Sprintf("panic: %v", r)
		}
	}()
	r, err := consolidation.Plan(c, o)
	if err != nil {
		return fmt.Sprintf("Plan(%+v): %v", o, err)
	}
	if again, _ := consolidation.Plan(c, o); !reflect.DeepEqual(r, again) {
		return "Plan is not deterministic"
	}
	base := packing.Problem{NodePools: c.NodePools, Catalog: c.Catalog, Nodes: c.Nodes, DaemonSets: c.DaemonSets}
	if len(verify.Plan(base, packing.Plan{})) > 0 {
		return "" // the snapshot is already invalid (an overcommitted node): only "no error" holds
	}
	if v := consolidation.VerifyCommands(c, r.Commands); len(v) > 0 {
		return fmt.Sprintf("options %+v: VerifyCommands: %v\ncommands %v", o, v, r.Commands)
	}
	return ""
}
