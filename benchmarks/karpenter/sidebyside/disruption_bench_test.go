package sidebyside

import (
	"fmt"
	"testing"

	"github.com/nodeplan/nodeplan/consolidation"
)

// consolidationBenchSeeds are the clusters of
// BenchmarkConsolidationSideBySide: GenerateFragmented(seed, 0), 5 to 60
// nodes each.
var consolidationBenchSeeds = []uint64{2100, 2101, 2102, 2103, 2104, 2105, 2106, 2107}

// BenchmarkConsolidationSideBySide consolidates each generated cluster
// with nodeplan's consolidation.Plan and with Karpenter's disruption loop
// (RunKarpenterConsolidation) in one iteration and reports, averaged over
// the iterations, each side's $/h saved, commands and decision time in
// milliseconds, and nodeplan's savings ÷ Karpenter's. Karpenter's loop
// takes seconds on the larger clusters: run it with -benchtime 1x, e.g.
//
//	go test -run X -bench ConsolidationSideBySide -benchtime 1x ./sidebyside/
//
// Select one cluster with -bench 'ConsolidationSideBySide/seed=2101$'.
func BenchmarkConsolidationSideBySide(b *testing.B) {
	for _, seed := range consolidationBenchSeeds {
		f := GenerateFragmented(seed, 0)
		b.Run(fmt.Sprintf("seed=%d", seed), func(b *testing.B) {
			b.ReportAllocs()
			var n, k Consolidated
			for b.Loop() {
				nr, err := RunNodeplanConsolidation(f, consolidation.Options{})
				if err != nil {
					b.Fatal(err)
				}
				kr, err := RunKarpenterConsolidation(f, DisruptionOptions{})
				if err != nil {
					b.Fatal(err)
				}
				n, k = accumulate(n, nr), accumulate(k, kr)
			}
			runs := float64(b.N)
			b.ReportMetric(float64(len(f.Nodes)), "nodes")
			b.ReportMetric(n.Saved()/runs, "nodeplan-$/h-saved")
			b.ReportMetric(k.Saved()/runs, "karpenter-$/h-saved")
			b.ReportMetric(ratio(n.Saved(), k.Saved()), "saved-ratio")
			b.ReportMetric(float64(len(n.Moves))/runs, "nodeplan-commands")
			b.ReportMetric(float64(len(k.Moves))/runs, "karpenter-commands")
			b.ReportMetric(float64(n.Duration.Milliseconds())/runs, "nodeplan-ms")
			b.ReportMetric(float64(k.Duration.Milliseconds())/runs, "karpenter-ms")
		})
	}
}

// accumulate adds r's prices, commands and time to sum.
func accumulate(sum, r Consolidated) Consolidated {
	sum.Before += r.Before
	sum.After += r.After
	sum.Moves = append(sum.Moves, r.Moves...)
	sum.Duration += r.Duration
	return sum
}
