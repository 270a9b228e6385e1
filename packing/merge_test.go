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

// premiumTypes is a family m-1 … m-8 (n cores, 2n GiB) at $n/h, except
// that m-8 costs $9: two m-2 make one m-4 at the same price, two m-4 one m-8
// at a dollar more. Every type launches on demand in zones 1 and 2.
func premiumTypes() []typeSpec {
	var specs []typeSpec
	for _, n := range []int64{1, 2, 4, 8} {
		price := instancetypes.MustPriceFromDollars(float64(n + n/8))
		specs = append(specs, typeSpec{name: fmt.Sprintf("m-%d", n), cpu: n, memGi: 2 * n, pods: 110,
			offerings: []instancetypes.Offering{
				{Zone: zone1, CapacityType: instancetypes.OnDemand, Price: price, Available: true},
				{Zone: zone2, CapacityType: instancetypes.OnDemand, Price: price, Available: true},
			}})
	}
	return specs
}

// mergeProblem is n pods of 800m on premiumTypes under one on-demand pool.
func mergeProblem(t *testing.T, n int, opts ...podOpt) packing.Problem {
	np := pool("default", poolReq(in(requirements.LabelCapacityType, "on-demand")))
	return packing.Problem{Catalog: buildCatalog(t, premiumTypes()), NodePools: []packing.NodePool{np},
		Pods: mkPods("p", n, append([]podOpt{req("cpu", "800m")}, opts...)...)}
}

// TestMergeBehaviours: what Best's merge joins and what it leaves apart.
// The greedy cost-aware pass pairs the 800m pods on m-2 (growing a full m-2
// to m-4 costs more than a new m-1); Plain puts them all on one m-8 at $9.
func TestMergeBehaviours(t *testing.T) {
	tests := []struct {
		name      string
		problem   func(t *testing.T) packing.Problem
		nodes     int
		dollars   float64
		costAware int // nodes of the cost-aware pass alone
	}{
		{name: "two m-2 become one m-4 at the same price", problem: func(t *testing.T) packing.Problem {
			return mergeProblem(t, 8)
		}, nodes: 2, dollars: 8, costAware: 4},
		{name: "hostname anti-affinity keeps every node", problem: func(t *testing.T) packing.Problem {
			return mergeProblem(t, 4, podLabels("app", "a"), antiAffinity(podTerm(requirements.LabelHostname, 0, "app", "a")))
		}, nodes: 4, dollars: 4, costAware: 4},
		{name: "a hostname spread keeps every node", problem: func(t *testing.T) packing.Problem {
			return mergeProblem(t, 4, podLabels("app", "a"), spread(spreadBy(requirements.LabelHostname, 1, "app", "a")))
		}, nodes: 4, dollars: 4, costAware: 4},
		{name: "a shared host port keeps every node", problem: func(t *testing.T) packing.Problem {
			return mergeProblem(t, 4, hostPort(80, ""))
		}, nodes: 4, dollars: 4, costAware: 4},
		{name: "claims pinned to different zones stay apart", problem: func(t *testing.T) packing.Problem {
			return mergeProblem(t, 4, podLabels("app", "a"), spread(spreadBy(requirements.LabelZone, 1, "app", "a")))
		}, nodes: 2, dollars: 4, costAware: 2},
		{name: "slack limits allow merging", problem: func(t *testing.T) packing.Problem {
			p := mergeProblem(t, 8)
			poolLimits("cpu", "100")(&p.NodePools[0])
			return p
		}, nodes: 2, dollars: 8, costAware: 4},
		{name: "limits that could bind stop merging", problem: func(t *testing.T) packing.Problem {
			p := mergeProblem(t, 8)
			poolLimits("cpu", "12")(&p.NodePools[0])
			return p
		}, nodes: 4, dollars: 8, costAware: 4},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := tc.problem(t)
			plan, err := packing.Solve(p, packing.Options{})
			require.NoError(t, err)
			require.Empty(t, plan.Unschedulable)
			require.Empty(t, verify.Plan(p, plan))
			assert.Len(t, plan.NodeClaims, tc.nodes, "nodes")
			assert.InDelta(t, tc.dollars, plan.Price.Dollars(), 1e-9, "$/h")
			greedy, err := packing.Solve(p, packing.Options{Strategy: packing.CostAware})
			require.NoError(t, err)
			assert.Len(t, greedy.NodeClaims, tc.costAware, "nodes of the cost-aware pass alone")
		})
	}
}
