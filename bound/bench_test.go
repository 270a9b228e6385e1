package bound_test

import (
	"fmt"
	"testing"

	"github.com/nodeplan/nodeplan/benchmarks"
	"github.com/nodeplan/nodeplan/benchmarks/workload"
	"github.com/nodeplan/nodeplan/bound"
	"github.com/nodeplan/nodeplan/instancetypes"
	"github.com/nodeplan/nodeplan/packing"
)

// diverseAWS is Karpenter's diverse benchmark workload of n pods (seed
// 42) on the embedded AWS catalog (1,367 types in us-east-1).
func diverseAWS(tb testing.TB, n int) packing.Problem {
	tb.Helper()
	cat, err := instancetypes.AWS(instancetypes.Options{})
	if err != nil {
		tb.Fatal(err)
	}
	p, err := benchmarks.Problem(workload.KarpenterDiverse(n, 42), cat)
	if err != nil {
		tb.Fatal(err)
	}
	return p
}

// BenchmarkOf bounds Karpenter's diverse workload on the embedded AWS
// catalog; it reports the bound ($/h) and the column generation's rounds.
func BenchmarkOf(b *testing.B) {
	for _, n := range []int{1000, 5000} {
		b.Run(fmt.Sprintf("pods=%d/catalog=aws", n), func(b *testing.B) {
			p := diverseAWS(b, n)
			b.ReportAllocs()
			var bd bound.Bound
			for b.Loop() {
				var err error
				if bd, err = bound.Of(p, bound.Options{}); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(bd.Dollars, "$/h")
			b.ReportMetric(float64(bd.Iterations), "iterations")
		})
	}
}
