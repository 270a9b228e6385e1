package repair_test

import (
	"fmt"
	"testing"

	"github.com/nodeplan/nodeplan/internal/problemgen"
	"github.com/nodeplan/nodeplan/repair"
)

func BenchmarkDecide(b *testing.B) {
	for _, n := range []int{100, 10000} {
		in := randomInput(1, n)
		b.Run(fmt.Sprintf("nodes=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := repair.Decide(in); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkPlan(b *testing.B) {
	for _, seed := range []uint64{1, 2} {
		cl, res, _ := generatedRepair(seed, problemgen.Size{Nodes: 300, BoundPods: 8})
		b.Run(fmt.Sprintf("seed=%d/nodes=%d/replace=%d", seed, len(cl.Nodes), len(res.Replace)), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := repair.Plan(res, cl); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
