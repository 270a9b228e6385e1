package static_test

import (
	"testing"

	"github.com/nodeplan/nodeplan/instancetypes"
	"github.com/nodeplan/nodeplan/static"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// catalog prices the new NodeClaims.
var catalog = instancetypes.KarpenterDiverse()

// outcome is one pool's decision, compactly.
type outcome struct {
	create  int
	remove  []string
	replace []string
	notes   []static.Why
}

func summarize(d static.Decision) outcome {
	o := outcome{create: d.Create}
	for _, r := range d.Remove {
		o.remove = append(o.remove, r.Claim)
	}
	for _, r := range d.Replace {
		o.replace = append(o.replace, r.Candidate)
	}
	for _, n := range d.Notes {
		o.notes = append(o.notes, n.Why)
	}
	return o
}

func decideOne(t *testing.T, p static.Pool, claims []static.Claim) outcome {
	t.Helper()
	res, err := static.Decide(static.Input{Pools: []static.Pool{p}, Claims: claims, Now: now, Catalog: catalog})
	require.NoError(t, err)
	require.Len(t, res.Pools, 1)
	return summarize(res.Pools[0])
}

func deleting(c static.Claim) static.Claim { c.Deleting = true; return c }

// Rows of Karpenter v1.14.1's controllers/static/provisioning/suite_test.go
// (K/ below is sigs.k8s.io/karpenter@v1.14.1/pkg/).
func TestScaleUp(t *testing.T) {
	notReady := pool("np", 2)
	notReady.NotReady = "Ready=False"
	gone := pool("np", 2)
	gone.Deleting = true
	tests := []struct {
		name   string
		pool   static.Pool
		claims []static.Claim
		want   outcome
	}{
		// K/controllers/static/provisioning/suite_test.go:160
		{"not ready", notReady, nil, outcome{notes: []static.Why{static.NotReady}}},
		// K/controllers/static/provisioning/suite_test.go:174
		{"being deleted", gone, nil, outcome{notes: []static.Why{static.PoolDeleting}}},
		// K/controllers/static/provisioning/suite_test.go:201 (scale-down then removes the excess)
		{"count exceeds replicas", pool("np", 1), nodes("np", 2), outcome{remove: []string{"np-0"}}},
		// K/controllers/static/provisioning/suite_test.go:250
		{"none yet", pool("np", 3), nil, outcome{create: 3}},
		// K/controllers/static/provisioning/suite_test.go:270
		{"adds the difference", pool("np", 3), nodes("np", 1), outcome{create: 2}},
		// K/controllers/static/provisioning/suite_test.go:305
		{"enough", pool("np", 3), nodes("np", 3), outcome{notes: []static.Why{static.Steady}}},
		// K/controllers/static/provisioning/suite_test.go:356
		{"limits.nodes reached", pool("np", 3, limit(1)), nodes("np", 1), outcome{notes: []static.Why{static.LimitReached}}},
		// K/controllers/static/provisioning/suite_test.go:441
		{"zero replicas", pool("np", 0), nil, outcome{notes: []static.Why{static.Steady}}},
		// K/controllers/static/provisioning/suite_test.go:512
		{"large count", pool("np", 1000), nil, outcome{create: 1000}},
		// K/controllers/static/provisioning/suite_test.go:527 (limit 10, replicas 5; here one reconcile)
		{"under a limit", pool("np", 5, limit(10)), nil, outcome{create: 5}},
		// K/controllers/state/statenodepool.go:134-157: deleting NodeClaims count against limits.nodes
		{"deleting count against the limit", pool("np", 3, limit(3)),
			[]static.Claim{node("a", "np"), deleting(node("b", "np"))},
			outcome{create: 1, notes: []static.Why{static.LimitReached}}},
		// K/controllers/static/provisioning/controller.go:94: pending disruption counts as present
		{"pending disruption counts", pool("np", 2),
			[]static.Claim{node("a", "np"), {Name: "b", NodePool: "np", Resolved: true, PendingDisruption: true}},
			outcome{notes: []static.Why{static.Steady}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, decideOne(t, tc.pool, tc.claims))
		})
	}
}

// eightNodes is K/controllers/static/deprovisioning/suite_test.go:651-740:
// two each of low (one pod), high (two pods), dnd (a do-not-disrupt pod)
// and ds (a daemonset pod), indexed 0..7 as [low high dnd ds low high dnd ds].
func eightNodes() []static.Claim {
	var out []static.Claim
	names := []string{"n0", "n1", "n2", "n3", "n4", "n5", "n6", "n7"}
	for i, n := range names {
		var c static.Claim
		switch i % 4 {
		case 0:
			c = node(n, "np", app("kube-system", "low-"+n))
		case 1:
			c = node(n, "np", app("kube-system", "high-"+n), app("default", "app-"+n))
		case 2:
			c = node(n, "np", dnd("dnd-"+n))
		case 3:
			c = node(n, "np", daemon("ds-"+n))
		}
		out = append(out, c)
	}
	return out
}

// Rows of K/controllers/static/deprovisioning/suite_test.go.
func TestScaleDown(t *testing.T) {
	gone := pool("np", 0)
	gone.Deleting = true
	withPods := nodes("np", 4)
	withPods[0].Node.Pods = append(withPods[0].Node.Pods, app("default", "p1"))
	withPods[2].Node.Pods = append(withPods[2].Node.Pods, app("default", "p2"))
	dsOnly := nodes("np", 4)
	dsOnly[0].Node.Pods = append(dsOnly[0].Node.Pods, daemon("d0"))
	dsOnly[1].Node.Pods = append(dsOnly[1].Node.Pods, app("default", "a1"))
	dsOnly[2].Node.Pods = append(dsOnly[2].Node.Pods, daemon("d2"))
	dsOnly[3].Node.Pods = append(dsOnly[3].Node.Pods, app("default", "a3"))
	fourDeleting := nodes("np", 4)
	for i := range 3 {
		fourDeleting[i].Deleting = true
	}
	tests := []struct {
		name   string
		pool   static.Pool
		claims []static.Claim
		want   outcome
	}{
		// :160
		{"being deleted", gone, nodes("np", 2), outcome{notes: []static.Why{static.PoolDeleting}}},
		// :197
		{"at or below replicas", pool("np", 3), nodes("np", 3), outcome{notes: []static.Why{static.Steady}}},
		// :235
		{"deleting NodeClaims not counted", pool("np", 1), fourDeleting, outcome{notes: []static.Why{static.Steady}}},
		// :284
		{"excess terminated", pool("np", 2), nodes("np", 4), outcome{remove: []string{"np-0", "np-1"}}},
		// :323
		{"zero replicas deletes all", pool("np", 0), nodes("np", 3), outcome{remove: []string{"np-0", "np-1", "np-2"}}},
		// :438
		{"unresolved first", pool("np", 2),
			[]static.Claim{node("a", "np"), node("b", "np"), unresolved("u1", "np"), unresolved("u2", "np")},
			outcome{remove: []string{"u1", "u2"}}},
		// :513
		{"daemonset-only nodes are empty", pool("np", 2), dsOnly, outcome{remove: []string{"np-0", "np-2"}}},
		// :579 (Karpenter removes np-0 or np-2; nodeplan the first by name)
		{"occupied when empty ones are not enough", pool("np", 1), withPods, outcome{remove: []string{"np-1", "np-3", "np-0"}}},
		// :763
		{"eight nodes to 6", pool("np", 6), eightNodes(), outcome{remove: []string{"n3", "n7"}}},
		// :764
		{"eight nodes to 4", pool("np", 4), eightNodes(), outcome{remove: []string{"n3", "n7", "n0", "n4"}}},
		// :765
		{"eight nodes to 2", pool("np", 2), eightNodes(), outcome{remove: []string{"n3", "n7", "n0", "n4", "n1", "n5"}}},
		// :766
		{"eight nodes to 0", pool("np", 0), eightNodes(),
			outcome{remove: []string{"n3", "n7", "n0", "n4", "n1", "n5", "n2", "n6"}}},
		// K/controllers/static/deprovisioning/controller.go:250-257: a daemonset pod with do-not-disrupt makes the node occupied
		{"daemonset do-not-disrupt is occupied", pool("np", 1),
			[]static.Claim{node("a", "np", packing_dsDND()), node("b", "np", app("default", "x"))},
			outcome{remove: []string{"b"}}},
		// K/controllers/static/deprovisioning/controller.go:256 and K/utils/pod/scheduling.go:210-240:
		// IsDoNotDisruptActive has no terminating exemption, so a terminating daemonset pod with
		// do-not-disrupt=true still keeps its node from being empty and puts it last
		{"terminating daemonset do-not-disrupt is occupied", pool("np", 1),
			[]static.Claim{node("a", "np", terminating(packing_dsDND())), node("b", "np", app("default", "x"))},
			outcome{remove: []string{"b"}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, decideOne(t, tc.pool, tc.claims))
		})
	}
}

// Rows of K/controllers/disruption/staticdrift_test.go.
func TestStaticDrift(t *testing.T) {
	blocked := nodes("np", 2, drifted)
	blocked[0].Node.Annotations = map[string]string{"karpenter.sh/do-not-disrupt": "true"}
	notDrifted := nodes("np", 2)
	tests := []struct {
		name   string
		pool   static.Pool
		claims []static.Claim
		want   outcome
	}{
		// :84
		{"budget count", pool("np", 5, budget("2")), nodes("np", 5, drifted),
			outcome{replace: []string{"np-0", "np-1"}, notes: []static.Why{static.BudgetExhausted}}},
		// :143
		{"budget percentage", pool("np", 5, budget("20%")), nodes("np", 5, drifted),
			outcome{replace: []string{"np-0"}, notes: []static.Why{static.BudgetExhausted}}},
		// :367
		{"no room under limits.nodes", pool("np", 5, limit(5)), nodes("np", 5, drifted),
			outcome{notes: []static.Why{static.LimitReached}}},
		// :405 (the 3 missing replicas then take the room left: 1)
		{"room under limits.nodes", pool("np", 5, limit(5)), nodes("np", 2, drifted),
			outcome{create: 1, replace: []string{"np-0", "np-1"}, notes: []static.Why{static.LimitReached}}},
		// :463
		{"partial room", pool("np", 5, limit(7)), nodes("np", 5, drifted),
			outcome{replace: []string{"np-0", "np-1"}, notes: []static.Why{static.LimitReached}}},
		// :521
		{"one at a time", pool("np", 5, limit(6)), nodes("np", 5, drifted),
			outcome{replace: []string{"np-0"}, notes: []static.Why{static.LimitReached}}},
		// :578
		{"overscaled waits", pool("np", 1), nodes("np", 2, drifted),
			outcome{remove: []string{"np-0"}, notes: []static.Why{static.Overscaled}}},
		// :826
		{"zero replicas", pool("np", 0), nodes("np", 1, drifted),
			outcome{remove: []string{"np-0"}, notes: []static.Why{static.Overscaled}}},
		// :838
		{"no limits", pool("np", 5), nodes("np", 5, drifted),
			outcome{replace: []string{"np-0", "np-1", "np-2", "np-3", "np-4"}}},
		// :876, :892
		{"not drifted", pool("np", 2), notDrifted, outcome{notes: []static.Why{static.Steady}}},
		// :908
		{"do-not-disrupt node", pool("np", 2), blocked,
			outcome{replace: []string{"np-1"}, notes: []static.Why{static.Blocked}}},
		// K/controllers/disruption/helpers.go BuildDisruptionBudgetMapping: a deleting node spends the budget
		{"deleting node spends the budget", pool("np", 3, budget("1")),
			append(nodes("np", 2, drifted), deleting(node("x", "np"))),
			outcome{create: 1, notes: []static.Why{static.BudgetExhausted}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, decideOne(t, tc.pool, tc.claims))
		})
	}
}

// K/controllers/disruption/staticdrift_test.go:203: budgets of several
// pools apply each to its own: 1 + 2 + 2 commands.
func TestStaticDriftPools(t *testing.T) {
	in := static.Input{Now: now, Catalog: catalog, Pools: []static.Pool{pool("np1", 4, budget("1")), pool("np2", 3, budget("2")), pool("np3", 2, budget("100%"))}}
	for _, p := range []string{"np1", "np2", "np3"} {
		in.Claims = append(in.Claims, nodes(p, 2, drifted)...)
	}
	res, err := static.Decide(in)
	require.NoError(t, err)
	var got []string
	for _, d := range res.Pools {
		for _, r := range d.Replace {
			got = append(got, r.Candidate)
		}
	}
	assert.Equal(t, []string{"np1-0", "np2-0", "np2-1", "np3-0", "np3-1"}, got)
}
