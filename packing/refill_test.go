package packing_test

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nodeplan/nodeplan/instancetypes"
	"github.com/nodeplan/nodeplan/packing"
	"github.com/nodeplan/nodeplan/packing/verify"
	"github.com/nodeplan/nodeplan/requirements"
)

// scaleOut is Karpenter's basic scale-out (its performance suite) with n
// pods of each size on the embedded on-demand AWS catalog, amd64.
func scaleOut(t *testing.T, n int) packing.Problem {
	t.Helper()
	cat, err := instancetypes.AWS(instancetypes.Options{CapacityTypes: []instancetypes.CapacityType{instancetypes.OnDemand}})
	require.NoError(t, err)
	pods := mkPods("small", n, req("cpu", "900m", "memory", "3100Mi"))
	pods = append(pods, mkPods("large", n, req("cpu", "3500m", "memory", "28Gi"))...)
	arch := poolReq(requirements.Expression{Key: requirements.LabelArch, Operator: requirements.In, Values: []string{"amd64"}})
	return packing.Problem{Catalog: cat, NodePools: []packing.NodePool{pool("default", arch)}, Pods: pods}
}

// TestRefillUsesLeftoverRoom: the cost-aware pass puts the large pods on
// nodes whose room left holds small pods, which had nodes of their own
// until refill moved them there and removed those nodes. Before refill
// no node held both sizes, and the plan cost $131.80/h (94 nodes).
func TestRefillUsesLeftoverRoom(t *testing.T) {
	p := scaleOut(t, 500)
	plan, err := packing.Solve(p, packing.Options{})
	require.NoError(t, err)
	require.Empty(t, plan.Unschedulable)
	require.Empty(t, verify.Plan(p, plan))
	mixed := 0
	for _, c := range plan.NodeClaims {
		var small, large bool
		for _, i := range c.Pods {
			small = small || p.Pods[i].Requests.CPU == 900
			large = large || p.Pods[i].Requests.CPU == 3500
		}
		if small && large {
			mixed++
		}
	}
	assert.Positive(t, mixed, "no node holds both sizes")
	assert.Less(t, plan.Price.Dollars(), 131.80)
	t.Logf("%d nodes, %d holding both sizes, %s", len(plan.NodeClaims), mixed, plan.Price)
}

// TestRefillOrder: every pod appears once in Plan.Order, refilled pods
// included.
func TestRefillOrder(t *testing.T) {
	p := scaleOut(t, 200)
	plan, err := packing.Solve(p, packing.Options{})
	require.NoError(t, err)
	seen := map[int]bool{}
	for _, i := range plan.Order {
		require.False(t, seen[i], "pod %d twice in Order", i)
		seen[i] = true
	}
	assert.Len(t, seen, len(p.Pods)-len(plan.Unschedulable), fmt.Sprint(plan.Order))
}
