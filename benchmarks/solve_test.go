package benchmarks

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/nodeplan/nodeplan/benchmarks/workload"
	"github.com/nodeplan/nodeplan/packing"
	"github.com/nodeplan/nodeplan/packing/verify"
)

func diverse(t testing.TB, n int) packing.Problem {
	p, err := Problem(workload.KarpenterDiverse(n, 42), nil)
	require.NoError(t, err)
	return p
}

func TestKarpenterDiverseSchedulesEveryPod(t *testing.T) {
	for _, n := range []int{100, 1000} {
		t.Run(fmt.Sprintf("pods=%d", n), func(t *testing.T) {
			p := diverse(t, n)
			plan, err := packing.Solve(p, packing.Options{})
			require.NoError(t, err)
			require.Zero(t, len(plan.Unschedulable), "first: %v", first(plan.Unschedulable))
			require.Empty(t, verify.Plan(p, plan))
			t.Logf("pods=%d nodes=%d price=%s", n, len(plan.NodeClaims), plan.Price)
		})
	}
}

// BenchmarkSolve is the provisioning benchmark of record (RESULTS.md):
// Karpenter's own diverse workload at four sizes, and 100,000 unconstrained
// pods on the embedded AWS catalog.
func BenchmarkSolve(b *testing.B) {
	for _, n := range []int{100, 1000, 5000, 20000} {
		b.Run(fmt.Sprintf("workload=karpenter-diverse/pods=%d", n), func(b *testing.B) {
			benchSolve(b, diverse(b, n), packing.Options{})
		})
	}
	b.Run("workload=generic-aws/pods=100000", func(b *testing.B) {
		benchSolve(b, genericAWS(b, 100000), packing.Options{})
	})
}

func benchSolve(b *testing.B, p packing.Problem, o packing.Options) {
	b.ReportAllocs()
	var plan packing.Plan
	for b.Loop() {
		var err error
		if plan, err = packing.Solve(p, o); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(len(p.Pods))*float64(b.N)/b.Elapsed().Seconds(), "pods/s")
	b.ReportMetric(float64(len(plan.NodeClaims)), "nodes")
	b.ReportMetric(plan.Price.Dollars(), "$/h")
	b.ReportMetric(float64(len(plan.Unschedulable)), "unschedulable")
}

func first(u []packing.Unschedulable) any {
	if len(u) == 0 {
		return nil
	}
	return u[0]
}

func BenchmarkStrategy(b *testing.B) {
	for _, n := range []int{1000, 5000, 20000} {
		p := diverse(b, n)
		for _, s := range []packing.Strategy{packing.Plain, packing.CostAware} {
			b.Run(fmt.Sprintf("workload=karpenter-diverse/pods=%d/strategy=%s", n, s), func(b *testing.B) {
				benchSolve(b, p, packing.Options{Strategy: s})
			})
		}
	}
}

// BenchmarkVerify is the independent checker (verify.Plan) on Solve's
// plan of Karpenter's diverse workload: what guide.Solve pays for each
// plan it takes.
func BenchmarkVerify(b *testing.B) {
	for _, n := range []int{1000, 5000} {
		b.Run(fmt.Sprintf("workload=karpenter-diverse/pods=%d", n), func(b *testing.B) {
			p := diverse(b, n)
			plan, err := packing.Solve(p, packing.Options{})
			if err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			var violations int
			for b.Loop() {
				violations = len(verify.Plan(p, plan))
			}
			b.ReportMetric(float64(len(p.Pods))*float64(b.N)/b.Elapsed().Seconds(), "pods/s")
			b.ReportMetric(float64(violations), "violations")
		})
	}
}
