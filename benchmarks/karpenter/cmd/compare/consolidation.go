package main

import (
	"fmt"
	"io"
	"os"
	"slices"
	"time"

	"github.com/nodeplan/nodeplan/benchmarks/karpenter/sidebyside"
	"github.com/nodeplan/nodeplan/consolidation"
)

// consolidationSeed is the first seed of the -consolidation clusters.
const consolidationSeed = 2100

// consolidationRow is one generated cluster consolidated by both sides.
type consolidationRow struct {
	f    sidebyside.Fragmented
	loop sidebyside.Consolidated // sidebyside.RunNodeplanLoop
	once sidebyside.Consolidated // one consolidation.Plan
	// loopRepack and onceRepack are the same with Options.Repack.
	loopRepack, onceRepack sidebyside.Consolidated
	karpenter              []sidebyside.Consolidated // one per run, full loop
	wave                   []sidebyside.Consolidated // one per run, DisruptionOptions.Wave
}

// runConsolidation consolidates clusters generated clusters
// (sidebyside.GenerateFragmented from seed 2100 on) with nodeplan once as
// a loop and once as one Plan (each without and with Options.Repack), and with Karpenter's disruption loop runs
// times, full and as one wave, and prints the two tables.
func runConsolidation(w io.Writer, clusters, runs int) error {
	start := time.Now()
	var rows []consolidationRow
	for i := range clusters {
		f := sidebyside.GenerateFragmented(uint64(consolidationSeed+i), 0)
		r := consolidationRow{f: f}
		var err error
		if r.loop, err = sidebyside.RunNodeplanLoop(f, consolidation.Options{}, 0); err != nil {
			return err
		}
		if r.once, err = sidebyside.RunNodeplanConsolidation(f, consolidation.Options{}); err != nil {
			return err
		}
		repack := consolidation.Options{Repack: true}
		if r.loopRepack, err = sidebyside.RunNodeplanLoop(f, repack, 0); err != nil {
			return err
		}
		if r.onceRepack, err = sidebyside.RunNodeplanConsolidation(f, repack); err != nil {
			return err
		}
		for range runs {
			k, err := sidebyside.RunKarpenterConsolidation(f, sidebyside.DisruptionOptions{})
			if err != nil {
				return err
			}
			wv, err := sidebyside.RunKarpenterConsolidation(f, sidebyside.DisruptionOptions{Wave: true})
			if err != nil {
				return err
			}
			r.karpenter, r.wave = append(r.karpenter, k), append(r.wave, wv)
		}
		fmt.Fprintf(os.Stderr, "%s: loop nodeplan $%.2f/h, karpenter $%.2f/h; wave nodeplan $%.2f/h, karpenter $%.2f/h (medians of %d)\n",
			f.Name, r.loop.Saved(), medianSaved(r.karpenter).Saved(), r.once.Saved(), medianSaved(r.wave).Saved(), runs)
		rows = append(rows, r)
	}
	printConsolidation(w, rows, runs)
	fmt.Fprintf(w, "\n%s; took %s\n", machine(), time.Since(start).Round(time.Second))
	return nil
}

// medianSaved is the run of median savings (the lower one of an even count).
func medianSaved(rs []sidebyside.Consolidated) sidebyside.Consolidated {
	s := slices.Clone(rs)
	slices.SortFunc(s, func(a, b sidebyside.Consolidated) int {
		switch {
		case a.Saved() < b.Saved():
			return -1
		case a.Saved() > b.Saved():
			return 1
		}
		return 0
	})
	return s[(len(s)-1)/2]
}

// maxSaved is the largest savings over rs.
func maxSaved(rs []sidebyside.Consolidated) float64 {
	best := 0.0
	for _, r := range rs {
		best = max(best, r.Saved())
	}
	return best
}

func printConsolidation(w io.Writer, rows []consolidationRow, runs int) {
	for _, kind := range []string{"loop", "wave"} {
		fmt.Fprintf(w, "\n%s\n\n", map[string]string{
			"loop": "To the end: nodeplan's loop (Plan, commands completed, Plan again) against Karpenter's full loop",
			"wave": "At one instant: one nodeplan Plan against Karpenter's wave (commands left in flight)"}[kind])
		fmt.Fprintln(w, "| cluster | nodes | pods | budget | $/h | nodeplan saved | cmds | ms | karpenter saved (median, max) | cmds | ms | ratio to max | with Repack saved | ms | ratio to max |")
		fmt.Fprintln(w, "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
		for _, r := range rows {
			n, nr, ks := r.loop, r.loopRepack, r.karpenter
			if kind == "wave" {
				n, nr, ks = r.once, r.onceRepack, r.wave
			}
			k, best := medianSaved(ks), maxSaved(ks)
			fmt.Fprintf(w, "| %s | %d | %d | %s | %.2f | %.2f | %d | %.1f | %.2f, %.2f | %d | %d | %s | %.2f | %.1f | %s |\n",
				r.f.Name, len(r.f.Nodes), len(r.f.Workload.Pods), r.f.Budget, n.Before,
				n.Saved(), len(n.Moves), float64(n.Duration.Microseconds())/1000,
				k.Saved(), best, len(k.Moves), k.Duration.Milliseconds(), ratio(n.Saved(), best),
				nr.Saved(), float64(nr.Duration.Microseconds())/1000, ratio(nr.Saved(), best))
		}
	}
	fmt.Fprintf(w, "\nNotes: $/h saved is before − after. Karpenter ran %d times per cluster each way (its methods shuffle and "+
		"iterate maps); its cmds and ms are those of the median run, ms summing its passes (setup and completion not "+
		"timed); nodeplan's ms sum its Plans. Both loops complete each command with the same code "+
		"(sidebyside.Fragmented.Complete) before planning again, so budgets free up as nodes go; a wave leaves "+
		"commands in flight (candidates marked for deletion spend the budget), the burst Karpenter issues before any "+
		"completes, which one Plan is. ratio is nodeplan's savings ÷ Karpenter's best run. \"with Repack\" is nodeplan "+
		"with consolidation.Options.Repack, its m→n search after Karpenter's methods (off by default).\n", runs)
}
