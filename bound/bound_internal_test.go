package bound

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nodeplan/nodeplan/instancetypes"
	"github.com/nodeplan/nodeplan/packing"
	"github.com/nodeplan/nodeplan/requirements"
	"github.com/nodeplan/nodeplan/resources"
)

func onlyType(name string) requirements.Set {
	return requirements.NewSet(requirements.MustNew(requirements.LabelInstanceType, requirements.In, name))
}

// TestOf checks the configuration LP's value on problems small enough to
// solve by hand; each row's comment derives it.
func TestOf(t *testing.T) {
	small := kind{name: "small", cpu: 2000, mem: 4, pods: 10, priceA: 0.10}
	big := kind{name: "big", cpu: 4000, mem: 8, pods: 10, priceA: 0.15}
	frag := kind{name: "big", cpu: 4000, mem: 8, pods: 10, priceA: 0.18}
	tests := []struct {
		name        string
		p           packing.Problem
		lp          float64
		pods, unpl  int
		single, aff float64
	}{
		{
			// big holds all four at 0.15, 0.0375 a pod; small 0.05 a pod.
			name: "cheapest per pod", lp: 0.15, pods: 4, single: 0.10,
			p: packing.Problem{Pods: pods(4, 1000, 100), NodePools: []packing.NodePool{pool("default")}, Catalog: catalog(t, small, big)},
		},
		{
			// 1.5 cores a pod: small holds one (0.10), big two (0.09 a
			// pod): 3 × 0.09, where summed demand alone gives 4.5/4 × 0.18.
			name: "fragmentation", lp: 0.27, pods: 3, single: 0.10,
			p: packing.Problem{Pods: pods(3, 1500, 100), NodePools: []packing.NodePool{pool("default")}, Catalog: catalog(t, small, frag)},
		},
		{
			// One pod of the group per node: three of the cheapest.
			name: "hostname anti-affinity", lp: 0.30, pods: 3, single: 0.10, aff: 0.30,
			p: packing.Problem{Pods: []packing.Pod{anti(pod("a", 500, 100), "x"), anti(pod("b", 500, 100), "x"), anti(pod("c", 500, 100), "x")},
				NodePools: []packing.NodePool{pool("default")}, Catalog: catalog(t, small, frag)},
		},
		{
			// Both pods must go to zone b, where small costs 0.30.
			name: "zone", lp: 0.30, pods: 2, single: 0.30,
			p: packing.Problem{Pods: []packing.Pod{inZone(pod("a", 1000, 100), zoneB), inZone(pod("b", 1000, 100), zoneB)},
				NodePools: []packing.NodePool{pool("default")}, Catalog: catalog(t, kind{name: "small", cpu: 2000, mem: 4, pods: 10, priceA: 0.10, priceB: 0.30})},
		},
		{
			// A 1-core daemonset leaves 3 cores: six pods need two nodes.
			name: "daemonset", lp: 0.40, pods: 6, single: 0.20,
			p: packing.Problem{Pods: pods(6, 1000, 100), NodePools: []packing.NodePool{pool("default")},
				Catalog:    catalog(t, kind{name: "node", cpu: 4000, mem: 8, pods: 10, priceA: 0.20}),
				DaemonSets: []packing.DaemonSet{{Name: "ds", Requests: resources.List{CPU: 1000}}}},
		},
		{
			// The cheap pool's cpu limit allows one 4-core node: four pods
			// there (0.10), four on the dear pool (0.30).
			name: "limit", lp: 0.40, pods: 8, single: 0.10,
			p: packing.Problem{Pods: pods(8, 1000, 100),
				NodePools: []packing.NodePool{
					{Name: "cheap", Weight: 10, Requirements: onlyType("cheap"), Limits: map[resources.Name]int64{resources.CPU: 4000}},
					{Name: "dear", Requirements: onlyType("dear")}},
				Catalog: catalog(t, kind{name: "cheap", cpu: 4000, mem: 8, pods: 10, priceA: 0.10}, kind{name: "dear", cpu: 4000, mem: 8, pods: 10, priceA: 0.30})},
		},
		{
			// The existing node takes two pods for free; two more fill half
			// of a 0.20 node.
			name: "existing node", lp: 0.10, pods: 4,
			p: packing.Problem{Pods: pods(4, 1000, 100), NodePools: []packing.NodePool{pool("default")},
				Catalog: catalog(t, kind{name: "node", cpu: 4000, mem: 8, pods: 10, priceA: 0.20}),
				Nodes: []packing.Node{{Name: "n1", NodePool: "default", InstanceType: "node", Zone: zoneA, Initialized: true,
					Allocatable: resources.List{CPU: 2000, Memory: 8 * gib, Pods: 10}}}},
		},
		{
			// No type has 10 cores: that pod is left out; the other needs a node.
			name: "unplaceable", lp: 0.10, pods: 1, unpl: 1, single: 0.10,
			p: packing.Problem{Pods: []packing.Pod{pod("a", 1000, 100), pod("huge", 10000, 100)},
				NodePools: []packing.NodePool{pool("default")}, Catalog: catalog(t, small)},
		},
		{
			name: "no pods", p: packing.Problem{NodePools: []packing.NodePool{pool("default")}, Catalog: catalog(t, small)},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b, err := Of(tc.p, Options{})
			require.NoError(t, err)
			assert.InDelta(t, tc.lp, b.LP, 1e-6, "LP")
			assert.LessOrEqual(t, b.LP, tc.lp, "a certified value never exceeds the LP optimum")
			assert.True(t, b.Optimal, "converged")
			assert.Equal(t, tc.pods, b.Pods, "pods")
			assert.Equal(t, tc.unpl, b.Unplaceable, "unplaceable")
			assert.InDelta(t, tc.single, b.SinglePod, 1e-9, "single pod")
			assert.InDelta(t, tc.aff, b.AntiAffinity, 1e-9, "anti-affinity")
			assert.Equal(t, max(b.LP, b.SinglePod, b.AntiAffinity), b.Dollars)
			plan, err := packing.Solve(tc.p, packing.Options{})
			require.NoError(t, err)
			assert.LessOrEqual(t, b.Dollars, plan.Price.Dollars()*(1+1e-9), "bound above Solve's plan")
		})
	}
}

// TestForPlan bounds a plan a binding limit leaves pods of: only the
// pods it placed count.
func TestForPlan(t *testing.T) {
	p := packing.Problem{Pods: pods(8, 1000, 100),
		NodePools: []packing.NodePool{{Name: "cheap", Limits: map[resources.Name]int64{packing.LimitNodes: 1}}},
		Catalog:   catalog(t, kind{name: "cheap", cpu: 4000, mem: 8, pods: 10, priceA: 0.10})}
	plan, err := packing.Solve(p, packing.Options{})
	require.NoError(t, err)
	require.Len(t, plan.Unschedulable, 4)
	b, err := ForPlan(p, plan, Options{})
	require.NoError(t, err)
	assert.Equal(t, 4, b.Pods)
	assert.InDelta(t, 0.10, b.Dollars, 1e-6)
	assert.LessOrEqual(t, b.Dollars, plan.Price.Dollars())
	assert.InDelta(t, 0, b.Gap(plan.Price), 1e-6)
	assert.Equal(t, instancetypes.Price(99_999_999), Bound{Dollars: 0.0999999999}.Price(), "rounded down")

	bad := plan
	bad.Bindings = []packing.Binding{{Pod: 99, Node: "x"}}
	_, err = ForPlan(p, bad, Options{})
	assert.ErrorIs(t, err, ErrInvalidPlan)

	twice := plan
	twice.Bindings = []packing.Binding{{Pod: plan.NodeClaims[0].Pods[0], Node: "x"}}
	_, err = ForPlan(p, twice, Options{})
	assert.ErrorIs(t, err, ErrInvalidPlan, "a pod bound and in a claim")
	assert.ErrorContains(t, err, p.Pods[plan.NodeClaims[0].Pods[0]].Name)
	twice.Bindings = []packing.Binding{{Pod: 0, Node: "x"}, {Pod: 0, Node: "y"}}
	twice.NodeClaims = nil
	_, err = ForPlan(p, twice, Options{})
	assert.ErrorIs(t, err, ErrInvalidPlan, "a pod bound twice")
}

func TestGap(t *testing.T) {
	b := Bound{Dollars: 2}
	assert.InDelta(t, 0.05, b.Gap(instancetypes.MustPriceFromDollars(2.1)), 1e-12)
	assert.Equal(t, 0.0, Bound{}.Gap(0))
	assert.True(t, math.IsInf(Bound{}.Gap(1), 1))
}

func TestOptionsValidate(t *testing.T) {
	_, err := Of(packing.Problem{}, Options{MaxIterations: -1, MaxClasses: -2})
	assert.ErrorIs(t, err, ErrInvalidOptions)
	assert.ErrorContains(t, err, "MaxIterations")
	assert.ErrorContains(t, err, "MaxClasses")
	_, err = Of(packing.Problem{Pods: []packing.Pod{{Name: ""}}, NodePools: []packing.NodePool{pool("default")}}, Options{})
	assert.ErrorIs(t, err, packing.ErrInvalidProblem)
}

// TestOfLimits checks classes whose only fitting types break a pool's
// limit: they are unplaceable, not held by the seed's cap alone; and a
// type whose capacity equals what the limit leaves is kept.
func TestOfLimits(t *testing.T) {
	small := kind{name: "small", cpu: 2000, mem: 4, pods: 10, priceA: 0.10}
	big := kind{name: "big", cpu: 4000, mem: 8, pods: 10, priceA: 0.15}
	tests := []struct {
		name       string
		p          packing.Problem
		lp         float64
		pods, unpl int
	}{
		{
			// big breaks the 2-core limit: the 3-core pod fits nothing.
			name: "only type beyond limit", lp: 0.10, pods: 1, unpl: 1,
			p: packing.Problem{Pods: []packing.Pod{pod("a", 1000, 100), pod("b", 3000, 100)},
				NodePools: []packing.NodePool{{Name: "default", Limits: map[resources.Name]int64{resources.CPU: 2000}}},
				Catalog:   catalog(t, small, big)},
		},
		{
			// 15 cores left by the limit, where 15000/22000·22000 rounds below 15000.
			name: "type at the limit", lp: 0.20, pods: 1,
			p: packing.Problem{Pods: []packing.Pod{pod("a", 14000, 100)},
				NodePools: []packing.NodePool{{Name: "default", Limits: map[resources.Name]int64{resources.CPU: 15000}}},
				Catalog: catalog(t, kind{name: "at", cpu: 15000, mem: 8, pods: 10, priceA: 0.20},
					kind{name: "over", cpu: 22000, mem: 8, pods: 10, priceA: 0.30})},
		},
		{
			// Only the existing node holds a 3-core pod, and only one.
			name: "existing node outnumbered", lp: 0, pods: 1, unpl: 2,
			p: packing.Problem{Pods: pods(3, 3000, 100), NodePools: []packing.NodePool{pool("default")},
				Catalog: catalog(t, small),
				Nodes: []packing.Node{{Name: "n1", NodePool: "default", InstanceType: "small", Zone: zoneA, Initialized: true,
					Allocatable: resources.List{CPU: 4000, Memory: 8 * gib, Pods: 10}}}},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b, err := Of(tc.p, Options{})
			require.NoError(t, err)
			assert.InDelta(t, tc.lp, b.LP, 1e-6, "LP")
			assert.True(t, b.Optimal, "converged")
			assert.Equal(t, tc.pods, b.Pods, "pods")
			assert.Equal(t, tc.unpl, b.Unplaceable, "unplaceable")
			plan, err := packing.Solve(tc.p, packing.Options{})
			require.NoError(t, err)
			assert.Len(t, plan.Unschedulable, tc.unpl)
			assert.LessOrEqual(t, b.Dollars, plan.Price.Dollars()*(1+1e-9), "bound above Solve's plan")
		})
	}
}

// TestExactZeroDimension: a room with none of a dimension the classes do
// not request (GPU beside general pods) is solved exactly within a small
// budget; the per-dimension bound must not turn 0 × +Inf into NaN.
func TestExactZeroDimension(t *testing.T) {
	m := model{names: []resources.Name{resources.CPU, resources.Memory, resources.Pods, "nvidia.com/gpu"}}
	y := []float64{}
	for k := range 6 {
		m.count = append(m.count, 40)
		m.req = append(m.req, []int64{int64(300 + 170*k), int64(400+90*k) << 20, 1, 0})
		m.group = append(m.group, -1)
		y = append(y, 0.01*float64(3+k)+0.001*float64(k*k))
	}
	r := room{alloc: []int64{16000, 64 * gib, 110, 0}, classes: []int32{0, 1, 2, 3, 4, 5}}
	admits := []bool{true, true, true, true, true, true}
	work := 1 << 20
	p := newPricer(&m, y, 2000, &work)
	_, pat, val, l := p.lagrangeUB(&r, admits)
	_, _, exact := p.exact(&r, admits, pat, val, l)
	assert.True(t, exact, "solved within the budget")
	assert.False(t, math.IsNaN(p.upper(&r, admits)))
}
