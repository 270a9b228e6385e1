package benchmarks

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nodeplan/nodeplan/benchmarks/workload"
	"github.com/nodeplan/nodeplan/packing"
	"github.com/nodeplan/nodeplan/packing/verify"
)

func preferences(t testing.TB, n int) packing.Problem {
	p, err := Problem(workload.KarpenterDiversePreferences(n, 42), nil)
	require.NoError(t, err)
	return p
}

// preferencePolicies are the policies the preference workload is solved
// under: Karpenter's two and the budget policy at 0, 10 % and unbounded.
var preferencePolicies = []struct {
	name string
	o    packing.Options
}{
	{"respect", packing.Options{}},
	{"ignore", packing.Options{Preferences: packing.IgnorePreferences}},
	{"within=0", packing.Options{Preferences: packing.BudgetPreferences}},
	{"within=0.1", packing.Options{Preferences: packing.BudgetPreferences, PreferenceBudget: 0.1}},
	{"within=1e9", packing.Options{Preferences: packing.BudgetPreferences, PreferenceBudget: 1e9}},
}

// TestPreferencePolicies: on the preference variant of Karpenter's
// benchmark (200 pods; Karpenter runs 4,000), whose preferred hostname
// anti-affinity takes a node per pod under Respect, the budget policy
// lands within its fraction of Ignore's price, equals Ignore's price with
// no budget and Respect's plan with an unbounded one.
func TestPreferencePolicies(t *testing.T) {
	p := preferences(t, 200)
	plans := map[string]packing.Plan{}
	for _, pc := range preferencePolicies {
		plan, err := packing.Solve(p, pc.o)
		require.NoError(t, err, pc.name)
		require.Empty(t, verify.Plan(p, plan), pc.name)
		require.Empty(t, plan.Unschedulable, pc.name)
		plans[pc.name] = plan
		t.Logf("%-10s %3d nodes %s", pc.name, len(plan.NodeClaims), plan.Price)
		for _, c := range plan.Preferences {
			t.Logf("    %v: %d pods, honoured %v, adds %s", c.Term, c.Pods, c.Honoured, c.Cost)
		}
	}
	ignore, respect := plans["ignore"].Price, plans["respect"]
	assert.Greater(t, float64(respect.Price), 1.4*float64(ignore), "Respect takes a node per pod")
	assert.Equal(t, ignore, plans["within=0"].Price)
	assert.LessOrEqual(t, float64(plans["within=0.1"].Price), 1.1*float64(ignore))
	unbounded := plans["within=1e9"]
	unbounded.Preferences = nil
	assert.Equal(t, respect, unbounded)
}

// BenchmarkPreferences solves the preference workload at Karpenter's size
// under each policy; the budget policy's extra solves show in its time.
func BenchmarkPreferences(b *testing.B) {
	p := preferences(b, 4000)
	for _, pc := range preferencePolicies {
		b.Run(fmt.Sprintf("workload=karpenter-diverse-preferences/pods=4000/preferences=%s", pc.name), func(b *testing.B) {
			benchSolve(b, p, pc.o)
		})
	}
}
