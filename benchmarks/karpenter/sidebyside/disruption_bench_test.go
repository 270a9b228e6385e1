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
// both ways in one iteration: to the end (nodeplan's RunNodeplanLoop,
// Karpenter's full loop, each command completed before the next pass) and
// at one instant (one consolidation.Plan, Karpenter's wave with commands
// left in flight). It reports, averaged over the iterations, each side's
// $/h saved, commands and decision time in milliseconds in both, and
// nodeplan's savings ÷ Karpenter's (loop-ratio, wave-ratio). Karpenter's
// loop takes seconds on the larger clusters: run it with -benchtime 1x,
// e.g.
//
//	go test -run X -bench ConsolidationSideBySide -benchtime 1x ./sidebyside/
//
// Select one cluster with -bench 'ConsolidationSideBySide/seed=2101$'.
func BenchmarkConsolidationSideBySide(b *testing.B) {
	for _, seed := range consolidationBenchSeeds {
		f := GenerateFragmented(seed, 0)
		b.Run(fmt.Sprintf("seed=%d", seed), func(b *testing.B) {
			b.ReportAllocs()
			var loop, full, once, wave Consolidated
			for b.Loop() {
				runs := []struct {
					sum *Consolidated
					run func() (Consolidated, error)
				}{
					{&loop, func() (Consolidated, error) { return RunNodeplanLoop(f, consolidation.Options{}, 0) }},
					{&full, func() (Consolidated, error) { return RunKarpenterConsolidation(f, DisruptionOptions{}) }},
					{&once, func() (Consolidated, error) { return RunNodeplanConsolidation(f, consolidation.Options{}) }},
					{&wave, func() (Consolidated, error) { return RunKarpenterConsolidation(f, DisruptionOptions{Wave: true}) }},
				}
				for _, r := range runs {
					got, err := r.run()
					if err != nil {
						b.Fatal(err)
					}
					*r.sum = accumulate(*r.sum, got)
				}
			}
			n := float64(b.N)
			b.ReportMetric(float64(len(f.Nodes)), "nodes")
			for _, m := range []struct {
				kind string
				n, k Consolidated
			}{{"loop", loop, full}, {"wave", once, wave}} {
				b.ReportMetric(m.n.Saved()/n, m.kind+"-nodeplan-$/h-saved")
				b.ReportMetric(m.k.Saved()/n, m.kind+"-karpenter-$/h-saved")
				b.ReportMetric(ratio(m.n.Saved(), m.k.Saved()), m.kind+"-ratio")
				b.ReportMetric(float64(len(m.n.Moves))/n, m.kind+"-nodeplan-commands")
				b.ReportMetric(float64(len(m.k.Moves))/n, m.kind+"-karpenter-commands")
				b.ReportMetric(float64(m.n.Duration.Microseconds())/1000/n, m.kind+"-nodeplan-ms")
				b.ReportMetric(float64(m.k.Duration.Microseconds())/1000/n, m.kind+"-karpenter-ms")
			}
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
