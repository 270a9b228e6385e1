package planview_test

import (
	"testing"

	"github.com/nodeplan/nodeplan/instancetypes"
	"github.com/nodeplan/nodeplan/packing"
	"github.com/nodeplan/nodeplan/planview"
	"github.com/nodeplan/nodeplan/requirements"
	"github.com/nodeplan/nodeplan/resources"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestNew(t *testing.T) {
	catalog, err := instancetypes.New([]instancetypes.InstanceType{machine("m.large", 2, 8, 0.096), machine("m.xlarge", 4, 16, 0.192)})
	require.NoError(t, err)
	gib := resources.List{Memory: 1 << 30}
	p := packing.Problem{Catalog: catalog, NodePools: []packing.NodePool{{Name: "general"}},
		Nodes: []packing.Node{
			{Name: "idle", Allocatable: resources.List{CPU: 2000, Memory: 8 << 30, Pods: 10}, Initialized: true},
			{Name: "busy", NodePool: "general", InstanceType: "m.large", Zone: "zone-a", CapacityType: instancetypes.Spot,
				Labels: map[string]string{requirements.LabelArch: "arm64"}, Price: 40_000_000, Initialized: true,
				Allocatable: resources.List{CPU: 2000, Memory: 8 << 30, Pods: 10},
				Pods:        []packing.Pod{{Namespace: "shop", Name: "old", Requests: gib}}},
		},
		Pods: append(replicas("web", 3, "1500m"), packing.Pod{Namespace: "batch", Name: "giant",
			Requests: resources.List{CPU: 64000}}),
	}
	plan := packing.Plan{
		Bindings:      []packing.Binding{{Pod: 0, Node: "busy"}},
		NodeClaims:    []packing.NodeClaim{{Name: "general-1", NodePool: "general", InstanceTypes: []string{"m.large", "m.xlarge"}, InstanceType: "m.large", Offering: catalog.Types()[0].Offerings[0], Pods: []int{1, 2}, Requests: resources.List{CPU: 3000, Pods: 2}}},
		Unschedulable: []packing.Unschedulable{{Pod: 3, Reason: packing.Reason{Kind: packing.Insufficient, NodePool: "general", Message: "pod batch/giant is too big"}}},
		Order:         []int{0, 1, 2},
		Price:         96_000_000,
	}
	before := packing.Plan{Bindings: append([]packing.Binding(nil), plan.Bindings...)}
	v := planview.New(&p, &plan)

	require.Len(t, v.Nodes, 2, "the claim, then the existing nodes with pods; idle holds none")
	claim, busy := v.Nodes[0], v.Nodes[1]
	assert.Equal(t, planview.Node{Name: "general-1", NodePool: "general", InstanceType: "m.large", Zone: "zone-a",
		Price: 96_000_000, Arch: "amd64", InstanceTypes: []string{"m.large", "m.xlarge"},
		Requests: resources.List{CPU: 3000, Pods: 2}, Allocatable: catalog.Types()[0].Allocatable,
		Pods: []string{"shop/web-1", "shop/web-2"}}, claim)
	assert.Equal(t, planview.Node{Name: "busy", Existing: true, NodePool: "general", InstanceType: "m.large", Zone: "zone-a",
		CapacityType: instancetypes.Spot, Price: 40_000_000, Arch: "arm64",
		Requests:    resources.List{CPU: 1500, Memory: 2 << 30, Pods: 2},
		Allocatable: resources.List{CPU: 2000, Memory: 8 << 30, Pods: 10},
		Pods:        []string{"shop/old", "shop/web-0"}}, busy)
	assert.Equal(t, []planview.Unschedulable{{Pod: "batch/giant", Namespace: "batch", Reason: plan.Unschedulable[0].Reason}}, v.Unschedulable)
	require.Len(t, v.Groups, 1)
	assert.Equal(t, "Pod batch/giant", v.Groups[0].Label())
	assert.Equal(t, planview.Summary{NewNodes: 1, ExistingNodes: 1, ScheduledPods: 3, UnschedulablePods: 1,
		Price: 96_000_000, ExistingPrice: 40_000_000}, v.Summary)

	v.Nodes[0].InstanceTypes[0] = "changed"
	assert.Equal(t, "m.large", plan.NodeClaims[0].InstanceTypes[0], "the view does not share the plan's slices")
	assert.Equal(t, before.Bindings, plan.Bindings)
}

// TestNewMismatchedPlan: a plan that does not match its problem (pod
// indexes out of range, an unknown NodePool, no catalog) is shown without
// the pods it cannot name, and New never panics.
func TestNewMismatchedPlan(t *testing.T) {
	catalog, err := instancetypes.New([]instancetypes.InstanceType{machine("m.large", 2, 8, 0.096)})
	require.NoError(t, err)
	node := packing.Node{Name: "n", Allocatable: resources.List{CPU: 2000, Pods: 10}, Initialized: true}
	p := packing.Problem{Catalog: catalog, NodePools: []packing.NodePool{{Name: "general"}},
		Nodes: []packing.Node{node}, Pods: replicas("web", 1, "1")}
	tests := []struct {
		name  string
		p     packing.Problem
		plan  packing.Plan
		check func(t *testing.T, v planview.View)
	}{
		{"binding out of range", p, packing.Plan{Bindings: []packing.Binding{{Pod: 1, Node: "n"}, {Pod: 0, Node: "n"}, {Pod: -1, Node: "n"}}},
			func(t *testing.T, v planview.View) {
				require.Len(t, v.Nodes, 1)
				assert.Equal(t, []string{"shop/web-0"}, v.Nodes[0].Pods)
			}},
		{"claim pod out of range", p, packing.Plan{NodeClaims: []packing.NodeClaim{{Name: "c", NodePool: "general", InstanceType: "m.large", Pods: []int{0, 7, -3}}}},
			func(t *testing.T, v planview.View) {
				require.Len(t, v.Nodes, 1)
				assert.Equal(t, []string{"shop/web-0"}, v.Nodes[0].Pods)
			}},
		{"unschedulable pod out of range", p, packing.Plan{Unschedulable: []packing.Unschedulable{{Pod: 0}, {Pod: 1}, {Pod: -1}}},
			func(t *testing.T, v planview.View) {
				require.Len(t, v.Unschedulable, 1)
				assert.Equal(t, "shop/web-0", v.Unschedulable[0].Pod)
				assert.Equal(t, 1, v.Summary.UnschedulablePods)
			}},
		{"no catalog", packing.Problem{Pods: p.Pods}, packing.Plan{NodeClaims: []packing.NodeClaim{{Name: "c", NodePool: "general", InstanceType: "m.large", Pods: []int{0}}}},
			func(t *testing.T, v planview.View) {
				require.Len(t, v.Nodes, 1)
				assert.Zero(t, v.Nodes[0].Allocatable)
			}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var v planview.View
			require.NotPanics(t, func() { v = planview.New(&tc.p, &tc.plan) })
			tc.check(t, v)
		})
	}
}

// TestNewUnknownPrice: an existing node of unknown price is marked so,
// and the summary counts it apart from the known prices.
func TestNewUnknownPrice(t *testing.T) {
	alloc := resources.List{CPU: 2000, Memory: 8 << 30, Pods: 10}
	pods := []packing.Pod{{Namespace: "shop", Name: "old"}}
	p := packing.Problem{Nodes: []packing.Node{
		{Name: "known", Price: 40_000_000, Allocatable: alloc, Pods: pods},
		{Name: "lost", PriceUnknown: true, Allocatable: alloc, Pods: []packing.Pod{{Namespace: "shop", Name: "older"}}},
	}}
	v := planview.New(&p, &packing.Plan{})
	require.Len(t, v.Nodes, 2)
	assert.False(t, v.Nodes[0].PriceUnknown)
	assert.True(t, v.Nodes[1].PriceUnknown)
	assert.Equal(t, planview.Summary{ExistingNodes: 2, ExistingPrice: 40_000_000, Unpriced: 1}, v.Summary)
}
