package sidebyside

import (
	"math/rand"

	"github.com/nodeplan/nodeplan/benchmarks/workload"
)

// ReferenceSizes are the sizes of the reference figures for karpenter-diverse
// (shared/workloads/karpenter-diverse.md), in the order they were drawn.
var ReferenceSizes = []int{100, 1000, 5000}

// go1Source adapts the Go 1 math/rand generator, the one Karpenter's
// benchmark seeds with 42, to workload.Source.
type go1Source struct{ r *rand.Rand }

func (s go1Source) IntN(n int) int { return s.r.Intn(n) }

// ReferenceDiverse returns karpenter-diverse workloads with the exact pods of
// the reference figures: one math/rand generator seeded 42, shared by the
// sizes in the order given, each workload drawing where the previous one
// stopped, as Karpenter's benchmark does with its package-level generator.
// ReferenceDiverse(ReferenceSizes...) reproduces the reference workloads
// (their cpu requests total 70.65, 678.55 and 3,312.15 cores). The
// complexity is O(sum of sizes).
func ReferenceDiverse(sizes ...int) []workload.Workload {
	src := go1Source{r: rand.New(rand.NewSource(42))}
	out := make([]workload.Workload, 0, len(sizes))
	for _, n := range sizes {
		w := workload.KarpenterDiverseFrom(n, src)
		w.Name = "karpenter-diverse-reference"
		out = append(out, w)
	}
	return out
}
