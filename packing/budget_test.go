package packing_test

import (
	"context"
	"errors"
	"fmt"
	"math"
	"reflect"
	"slices"
	"sync/atomic"
	"testing"

	"github.com/leanovate/gopter"
	"github.com/leanovate/gopter/gen"
	"github.com/leanovate/gopter/prop"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nodeplan/nodeplan/internal/problemgen"
	"github.com/nodeplan/nodeplan/packing"
	"github.com/nodeplan/nodeplan/packing/verify"
	"github.com/nodeplan/nodeplan/requirements"
)

func owner(o string) podOpt { return func(s *podSpec) { s.p.Owner = o } }

// hostnameSpread is a deployment of n pods of cpu cores each, with a
// preferred hostname anti-affinity against its own pods, as the
// preference variant of Karpenter's diverse benchmark has.
func hostnameSpread(app string, n int, cpu string) []packing.Pod {
	return mkPods(app, n, owner("ReplicaSet/"+app), podLabels("app", app), req("cpu", cpu),
		antiAffinity(podTerm(requirements.LabelHostname, 100, "app", app)))
}

// budgetProblem is 200 pods of three deployments with a preferred
// hostname anti-affinity each, over fakeIts(16) (linear prices): one node
// a pod is dear for web's 1-core pods (half of each 2-core node idle) and
// cache's half-core pods, free for db's 3.5-core pods (a 4-core node each
// costs what packing them does).
func budgetProblem(t testing.TB) packing.Problem {
	pods := slices.Concat(hostnameSpread("web", 100, "1"), hostnameSpread("db", 20, "3.5"),
		hostnameSpread("cache", 80, "500m"))
	return packing.Problem{Pods: pods, NodePools: []packing.NodePool{pool("default")}, Catalog: buildCatalog(t, fakeIts(16))}
}

func budget(f float64) packing.Options {
	return packing.Options{Preferences: packing.BudgetPreferences, PreferenceBudget: f}
}

// honouredOwners are the owners of the terms a plan honours.
func honouredOwners(plan packing.Plan) []string {
	var out []string
	for _, c := range plan.Preferences {
		if c.Honoured {
			out = append(out, c.Term.Owner)
		}
	}
	return out
}

// TestBudgetPreferences: on 200 pods with a preferred hostname
// anti-affinity per deployment, Respect costs 1.6x Ignore; the budget
// policy lands within its fraction of Ignore, honouring the preferences
// that cost least (db's), equals Respect's plan with an unbounded budget
// and Ignore's price with none.
func TestBudgetPreferences(t *testing.T) {
	p := budgetProblem(t)
	solveWith := func(o packing.Options) packing.Plan {
		plan, err := packing.Solve(p, o)
		require.NoError(t, err)
		require.Empty(t, verify.Plan(p, plan))
		require.Empty(t, plan.Unschedulable)
		return plan
	}
	respect, ignore := solveWith(packing.Options{}), solveWith(packing.Options{Preferences: packing.IgnorePreferences})
	t.Logf("Respect %s (%d claims), Ignore %s (%d claims), Respect/Ignore %.3f",
		respect.Price, len(respect.NodeClaims), ignore.Price, len(ignore.NodeClaims), float64(respect.Price)/float64(ignore.Price))
	require.Greater(t, respect.Price, ignore.Price*23/20, "the problem must make preferences dear")
	tests := []struct {
		name     string
		f        float64
		honoured []string
		check    func(t *testing.T, plan packing.Plan)
	}{
		{name: "unbounded budget is Respect", f: 1e9, honoured: []string{"ReplicaSet/cache", "ReplicaSet/db", "ReplicaSet/web"},
			check: func(t *testing.T, plan packing.Plan) {
				plan.Preferences = nil
				assert.Equal(t, respect, plan)
			}},
		{name: "no budget costs what Ignore does", f: 0,
			check: func(t *testing.T, plan packing.Plan) { assert.Equal(t, ignore.Price, plan.Price) }},
		{name: "10 % keeps db's cheap anti-affinity", f: 0.1, honoured: []string{"ReplicaSet/db"},
			check: func(t *testing.T, plan packing.Plan) {
				assert.LessOrEqual(t, float64(plan.Price), 1.1*float64(ignore.Price))
			}},
		{name: "a budget as large as Respect's cost keeps every term", f: float64(respect.Price)/float64(ignore.Price) - 1 + 1e-9,
			honoured: []string{"ReplicaSet/cache", "ReplicaSet/db", "ReplicaSet/web"},
			check:    func(t *testing.T, plan packing.Plan) { assert.Equal(t, respect.Price, plan.Price) }},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			plan := solveWith(budget(tc.f))
			t.Logf("f=%v: %s (%d claims), %.3fx Ignore", tc.f, plan.Price, len(plan.NodeClaims), float64(plan.Price)/float64(ignore.Price))
			for _, c := range plan.Preferences {
				t.Logf("  %v: honoured %v, %d pods, cost %s", c.Term, c.Honoured, c.Pods, c.Cost)
			}
			require.Len(t, plan.Preferences, 3, "one term per deployment")
			assert.Equal(t, tc.honoured, honouredOwners(plan))
			for _, c := range plan.Preferences {
				assert.True(t, c.Measured, "%v", c.Term)
				assert.Equal(t, packing.PreferredPodAntiAffinity, c.Term.Kind)
				assert.Equal(t, map[string]int{"ReplicaSet/web": 100, "ReplicaSet/db": 20, "ReplicaSet/cache": 80}[c.Term.Owner], c.Pods)
			}
			tc.check(t, plan)
		})
	}
}

// TestBudgetPreferenceCosts: each term's cost is the price difference of
// the plans with it honoured and relaxed, the others as decided: under an
// unbounded budget (every term honoured), Respect's price less the price
// of the plan with that one term relaxed, which is the plan of the budget
// policy with that term's pods dropping it by hand.
func TestBudgetPreferenceCosts(t *testing.T) {
	p := budgetProblem(t)
	plan, err := packing.Solve(p, budget(1e9))
	require.NoError(t, err)
	for _, c := range plan.Preferences {
		q := p
		q.Pods = slices.Clone(p.Pods)
		for i := range q.Pods {
			if q.Pods[i].Owner == c.Term.Owner {
				q.Pods[i].AntiAffinity = nil
			}
		}
		without, err := packing.Solve(q, packing.Options{})
		require.NoError(t, err)
		assert.Equal(t, plan.Price-without.Price, c.Cost, "%v", c.Term)
	}
}

// TestBudgetPreferenceTerms: terms are grouped per owner and term, of
// every kind, in a fixed order, and counted per pod.
func TestBudgetPreferenceTerms(t *testing.T) {
	zone := requirements.LabelZone
	pods := slices.Concat(
		mkPods("a", 3, owner("ReplicaSet/a"), podLabels("app", "a"), prefer(10, in(zone, zone2)), prefer(5, in(zone, zone3)),
			affinity(podTerm(zone, 50, "app", "a")), spread(anyway(spreadBy(zone, 1, "app", "a")))),
		mkPods("b", 2, owner("ReplicaSet/b"), podLabels("app", "b"), prefer(10, in(zone, zone2))),
		[]packing.Pod{mkPod("bare", prefer(10, in(zone, zone2)), prefer(10, in(zone, zone2)))},
	)
	p := packing.Problem{Pods: pods, NodePools: []packing.NodePool{pool("default")}, Catalog: buildCatalog(t, defaultTypes())}
	plan, err := packing.Solve(p, budget(0))
	require.NoError(t, err)
	var got []string
	for _, c := range plan.Preferences {
		got = append(got, fmt.Sprintf("%v (%d pods, honoured %v, cost %s)", c.Term, c.Pods, c.Honoured, c.Cost))
	}
	assert.Equal(t, []string{
		"default (no owner): PreferredNodeAffinity weight 10: topology.kubernetes.io/zone In [test-zone-2] (1 pods, honoured true, cost 0.000000/h)",
		"ReplicaSet default/a: PreferredNodeAffinity weight 10: topology.kubernetes.io/zone In [test-zone-2] (3 pods, honoured true, cost 0.000000/h)",
		"ReplicaSet default/a: PreferredNodeAffinity weight 5: topology.kubernetes.io/zone In [test-zone-3] (3 pods, honoured true, cost 0.000000/h)",
		"ReplicaSet default/b: PreferredNodeAffinity weight 10: topology.kubernetes.io/zone In [test-zone-2] (2 pods, honoured true, cost 0.000000/h)",
		"ReplicaSet default/a: PreferredPodAffinity weight 50: topologyKey topology.kubernetes.io/zone, selector app In [a], namespace default (3 pods, honoured true, cost 0.000000/h)",
		"ReplicaSet default/a: ScheduleAnywaySpread weight 0: maxSkew 1, topologyKey topology.kubernetes.io/zone, selector app In [a], namespace default (3 pods, honoured false, cost 0.414748365/h)",
	}, got)
}

// TestBudgetPreferenceTermsLong: two preferred terms of one owner whose
// lists agree in their first five values are two terms, written in full.
func TestBudgetPreferenceTermsLong(t *testing.T) {
	vals := []string{"v1", "v2", "v3", "v4", "v5"}
	pods := mkPods("c", 2, owner("ReplicaSet/c"), podLabels("app", "c"),
		prefer(10, in("example.com/x", append(vals[:5:5], "v6")...)), prefer(10, in("example.com/x", append(vals[:5:5], "v7")...)),
		spread(anyway(spreadBy(requirements.LabelZone, 1, "app", "c"))), spread(anyway(packing.TopologySpread{TopologyKey: requirements.LabelHostname,
			MaxSkew: 1, Selector: requirements.NewSet(requirements.MustNew("app", requirements.In, "c", "d", "e", "f", "g", "h"))})))
	p := packing.Problem{Pods: pods, NodePools: []packing.NodePool{pool("default")}, Catalog: buildCatalog(t, defaultTypes())}
	plan, err := packing.Solve(p, budget(0))
	require.NoError(t, err)
	var got []string
	for _, c := range plan.Preferences {
		got = append(got, c.Term.Term)
	}
	assert.Equal(t, []string{"example.com/x In [v1 v2 v3 v4 v5 v6]", "example.com/x In [v1 v2 v3 v4 v5 v7]",
		"maxSkew 1, topologyKey kubernetes.io/hostname, selector app In [c d e f g h], namespace default",
		"maxSkew 1, topologyKey topology.kubernetes.io/zone, selector app In [c], namespace default"}, got)
}

// TestPreferencesOnlyUnderBudget: Respect and Ignore measure nothing.
func TestPreferencesOnlyUnderBudget(t *testing.T) {
	p := budgetProblem(t)
	p.Pods = p.Pods[:30]
	for _, o := range []packing.Options{{}, {Preferences: packing.IgnorePreferences}} {
		plan, err := packing.Solve(p, o)
		require.NoError(t, err)
		assert.Nil(t, plan.Preferences, "%v", o.Preferences)
	}
}

// TestBudgetPreferencesWithout: without preferred terms the budget policy
// is Respect and Ignore, which agree, and reports no term.
func TestBudgetPreferencesWithout(t *testing.T) {
	p := packing.Problem{Pods: mkPods("p", 12, req("cpu", "1")), NodePools: []packing.NodePool{pool("default")},
		Catalog: buildCatalog(t, fakeIts(8))}
	respect, err := packing.Solve(p, packing.Options{})
	require.NoError(t, err)
	plan, err := packing.Solve(p, budget(0.1))
	require.NoError(t, err)
	assert.Equal(t, respect, plan)
}

// TestBudgetPreferencesCap: with more terms than the solve cap allows
// measuring (70 deployments of two pods, each keeping its pods off the
// nodes of every deployment's), the search still lands
// within the budget and accounts for every pod, some terms unmeasured.
func TestBudgetPreferencesCap(t *testing.T) {
	var pods []packing.Pod
	for i := range 70 {
		app := fmt.Sprintf("app%02d", i)
		pods = append(pods, mkPods(app, 2, owner("ReplicaSet/"+app), podLabels("tier", "front"), req("cpu", "1"),
			antiAffinity(podTerm(requirements.LabelHostname, 100, "tier", "front")))...)
	}
	p := packing.Problem{Pods: pods, NodePools: []packing.NodePool{pool("default")}, Catalog: buildCatalog(t, fakeIts(16))}
	ignore, err := packing.Solve(p, packing.Options{Preferences: packing.IgnorePreferences})
	require.NoError(t, err)
	plan, err := packing.Solve(p, budget(0.05))
	require.NoError(t, err)
	require.Empty(t, verify.Plan(p, plan))
	assert.LessOrEqual(t, float64(plan.Price), 1.05*float64(ignore.Price))
	require.Len(t, plan.Preferences, 70)
	measured := 0
	for _, c := range plan.Preferences {
		if c.Measured {
			measured++
		} else {
			assert.Zero(t, c.Cost)
		}
	}
	t.Logf("Ignore %s, budget 5 %%: %s, %d of 70 terms honoured, %d measured", ignore.Price, plan.Price,
		len(honouredOwners(plan)), measured)
	assert.Less(t, measured, 70)
}

// TestPreferenceOptionsInvalid: a policy out of range and a budget that is
// negative, NaN, infinite or set under another policy are named errors.
func TestPreferenceOptionsInvalid(t *testing.T) {
	tests := []struct {
		name string
		o    packing.Options
		want string
	}{
		{"policy out of range", packing.Options{Preferences: 3}, "Preferences: 3 is not"},
		{"negative budget", budget(-0.1), "PreferenceBudget: -0.1 is not a non-negative fraction"},
		{"NaN budget", budget(math.NaN()), "PreferenceBudget: NaN"},
		{"infinite budget", budget(math.Inf(1)), "PreferenceBudget: +Inf"},
		{"budget under Respect", packing.Options{PreferenceBudget: 0.1}, "PreferenceBudget: 0.1 is set but Preferences is Respect"},
		{"budget under Ignore", packing.Options{Preferences: packing.IgnorePreferences, PreferenceBudget: 0.1}, "Preferences is Ignore"},
	}
	p := budgetProblem(t)
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			plan, err := packing.Solve(p, tc.o)
			require.ErrorIs(t, err, packing.ErrInvalidOptions)
			assert.ErrorContains(t, err, tc.want)
			assert.Equal(t, packing.Plan{}, plan)
		})
	}
	for _, f := range []float64{0, 0.1, 1e300, math.MaxFloat64} {
		assert.NoError(t, budget(f).Validate(), "%v", f)
	}
}

func TestPreferencePolicyString(t *testing.T) {
	assert.Equal(t, []string{"Respect", "Ignore", "Budget", "PreferencePolicy(3)"}, []string{packing.RespectPreferences.String(),
		packing.IgnorePreferences.String(), packing.BudgetPreferences.String(), packing.PreferencePolicy(3).String()})
	assert.Equal(t, "ScheduleAnywaySpread", packing.ScheduleAnywaySpread.String())
	assert.Equal(t, "PreferenceKind(9)", packing.PreferenceKind(9).String())
	for owner, want := range map[string]string{"ReplicaSet/web-5d8f": "ReplicaSet shop/web-5d8f", "": "shop (no owner)", "odd": "odd in shop"} {
		assert.Equal(t, want, packing.PreferenceTerm{Namespace: "shop", Owner: owner}.Label())
	}
}

// TestPropertyBudgetPreferences: over generated problems and budgets, the
// budget policy's plan passes verify.Plan (every pod out exactly once),
// leaves no more pods out than Ignore and costs at most (1 + f) times
// Ignore's price; with every term honoured it is Respect's price; and two
// solves agree.
func TestPropertyBudgetPreferences(t *testing.T) {
	params := gopter.DefaultTestParametersWithSeed(20261204)
	params.MinSuccessfulTests = propertyCount(t) / 100
	params.Workers = 2
	size := problemgen.Size{Pods: 30, Types: 20, Nodes: 4, BoundPods: 4}
	props := gopter.NewProperties(params)
	props.Property("the budget policy stays within its budget", prop.ForAll(func(s problemgen.Seeded, f float64) string {
		if err := checkBudget(s.Problem, f); err != nil {
			return fmt.Sprintf("seed %d, f %v: %v\n%s", s.Seed, f, err, problemgen.Dump(s.Problem))
		}
		return ""
	}, problemgen.GenSeeded(size), gen.OneConstOf(0.0, 0.01, 0.1, 0.5, 1e9)))
	props.TestingRun(t)
}

func checkBudget(p packing.Problem, f float64) error {
	o := searched
	o.Preferences, o.PreferenceBudget = packing.BudgetPreferences, f
	plan, err := verified(p, o)
	if err != nil {
		return err
	}
	ignoring, respecting := searched, searched
	ignoring.Preferences = packing.IgnorePreferences
	ignore, errI := solve(p, ignoring)
	respect, errR := solve(p, respecting)
	again, errA := solve(p, o)
	if err := errors.Join(errI, errR, errA); err != nil {
		return err
	}
	limit := float64(ignore.Price) * (1 + f)
	switch {
	case len(plan.Unschedulable) > len(ignore.Unschedulable):
		return fmt.Errorf("%d pods out, Ignore %d", len(plan.Unschedulable), len(ignore.Unschedulable))
	case float64(plan.Price) > limit:
		return fmt.Errorf("price %s above (1+f) × Ignore's %s", plan.Price, ignore.Price)
	case !reflect.DeepEqual(plan, again):
		return errors.New("two solves differ")
	case allHonoured(plan) && plan.Price != respect.Price:
		return fmt.Errorf("every term honoured at %s, Respect costs %s", plan.Price, respect.Price)
	}
	return nil
}

func allHonoured(plan packing.Plan) bool {
	return !slices.ContainsFunc(plan.Preferences, func(c packing.PreferenceCost) bool { return !c.Honoured })
}

// TestConformancePreferencePolicies: the Ignore rows of Karpenter's
// provisioning suite ("Ignore Preferences",
// K/controllers/provisioning/suite_test.go:2562-2770) and their Respect
// counterparts, which its comments state ("If we were respecting
// preferences, we would add these pods on separate nodes", :2652, :2686);
// the budget policy with no budget is Ignore's plan here, and with an
// unbounded one Respect's.
func TestConformancePreferencePolicies(t *testing.T) {
	host := requirements.LabelHostname
	lab := podLabels("app", "foo")
	spreadPods := mkPods("p", 5, lab, spread(anyway(spreadBy(host, 1, "app", "foo"))))
	antiPods := mkPods("p", 5, lab, antiAffinity(podTerm(host, 1, "app", "foo")))
	ignore := packing.Options{Preferences: packing.IgnorePreferences}
	runRows(t, []row{
		{name: "Ignore: ScheduleAnyway hostname spread pods share a node (:2630-2662)", opts: ignore, pods: spreadPods, claims: 1},
		{name: "Respect: ScheduleAnyway hostname spread pods get a node each", pods: spreadPods, claims: 5},
		{name: "Budget 0: the spread is relaxed", opts: budget(0), pods: spreadPods, claims: 1},
		{name: "Budget unbounded: the spread is honoured", opts: budget(1e9), pods: spreadPods, claims: 5},
		{name: "Ignore: preferred hostname anti-affinity pods share a node (:2663-2696)", opts: ignore, pods: antiPods, claims: 1},
		{name: "Respect: preferred hostname anti-affinity pods get a node each", pods: antiPods, claims: 5},
		{name: "Budget 0: the anti-affinity is relaxed", opts: budget(0), pods: antiPods, claims: 1},
		{name: "Budget unbounded: the anti-affinity is honoured", opts: budget(1e9), pods: antiPods, claims: 5},
		{name: "Ignore: preferred node affinity is ignored (:2566-2629)", opts: ignore,
			pods: []packing.Pod{mkPod("p", prefer(100, in(requirements.LabelArch, "arm64")))}, claims: 1,
			check: wantType("p", "small-instance-type")},
		{name: "Budget 0: a preferred node affinity that costs more is relaxed", opts: budget(0),
			pods: []packing.Pod{mkPod("p", prefer(100, in(requirements.LabelArch, "arm64")))}, claims: 1,
			check: wantType("p", "small-instance-type")},
		{name: "Budget unbounded: the preferred node affinity is followed", opts: budget(1e9),
			pods: []packing.Pod{mkPod("p", prefer(100, in(requirements.LabelArch, "arm64")))}, claims: 1,
			check: wantType("p", "arm-instance-type")},
	})
}

// countdown is a context that is done after its Err has been asked n
// times: it cancels a solve partway. Best's two goroutines share it.
type countdown struct {
	context.Context
	n *atomic.Int64
}

func (c countdown) Err() error {
	if c.n.Add(-1) < 0 {
		return context.Canceled
	}
	return nil
}

// TestBudgetPreferencesCancelled: a context done partway through the
// budget search's solves gives its error and the zero Plan.
func TestBudgetPreferencesCancelled(t *testing.T) {
	p := budgetProblem(t)
	for _, n := range []int64{0, 1, 5, 20, 60} {
		var left atomic.Int64
		left.Store(n)
		plan, err := packing.SolveContext(countdown{context.Background(), &left}, p, budget(0.1))
		require.ErrorIs(t, err, context.Canceled, "after %d checks", n)
		assert.Equal(t, packing.Plan{}, plan)
	}
}
