package workload

import (
	"fmt"
	"testing"
)

func BenchmarkGenerate(b *testing.B) {
	gens := []struct {
		name string
		gen  func(int, int64) Workload
	}{{"karpenter-diverse", KarpenterDiverse}, {"preferences", KarpenterDiversePreferences}, {"zone-spread", ZoneSpread}}
	for _, g := range gens {
		for _, n := range []int{100, 5000} {
			b.Run(fmt.Sprintf("workload=%s/pods=%d", g.name, n), func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					g.gen(n, 42)
				}
			})
		}
	}
}
