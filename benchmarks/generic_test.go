package benchmarks

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/nodeplan/nodeplan/instancetypes"
	"github.com/nodeplan/nodeplan/packing"
	"github.com/nodeplan/nodeplan/packing/verify"
	"github.com/nodeplan/nodeplan/resources"
)

// genericAWS is n unconstrained pods of typical web and worker shapes on the
// embedded AWS catalog with one NodePool allowing spot and on-demand.
func genericAWS(t testing.TB, n int) packing.Problem {
	catalog, err := instancetypes.AWS(instancetypes.Options{})
	require.NoError(t, err)
	shapes := []resources.List{
		{CPU: 250, Memory: 512 << 20}, {CPU: 500, Memory: 1 << 30}, {CPU: 1000, Memory: 2 << 30},
		{CPU: 2000, Memory: 4 << 30}, {CPU: 1000, Memory: 8 << 30}, {CPU: 4000, Memory: 8 << 30},
	}
	rng := rand.New(rand.NewPCG(7, 11))
	p := packing.Problem{Catalog: catalog, NodePools: []packing.NodePool{{Name: "default"}}}
	for i := range n {
		p.Pods = append(p.Pods, packing.Pod{Namespace: "default", Name: fmt.Sprintf("pod-%d", i),
			Requests: shapes[rng.IntN(len(shapes))]})
	}
	return p
}

func TestGenericAWS(t *testing.T) {
	p := genericAWS(t, 2000)
	plan, err := packing.Solve(p, packing.Options{})
	require.NoError(t, err)
	require.Empty(t, plan.Unschedulable)
	require.Empty(t, verify.Plan(p, plan))
	t.Logf("nodes=%d price=%s", len(plan.NodeClaims), plan.Price)
}

// BenchmarkStrategyGeneric solves the generic AWS workload of 20,000 pods
// with each strategy: Plain and CostAware alone, and Best (the default:
// both, merged, refilled, and the second greedy order past 1,024 pods).
func BenchmarkStrategyGeneric(b *testing.B) {
	p := genericAWS(b, 20000)
	for _, s := range []packing.Strategy{packing.Plain, packing.CostAware, packing.Best} {
		b.Run(fmt.Sprintf("workload=generic-aws/pods=20000/strategy=%s", s), func(b *testing.B) {
			benchSolve(b, p, packing.Options{Strategy: s})
		})
	}
}
