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
	f         sidebyside.Fragmented
	nodeplan  sidebyside.Consolidated
	karpenter []sidebyside.Consolidated // one per run, full loop
	wave      []sidebyside.Consolidated // one per run, DisruptionOptions.Wave
}

// runConsolidation consolidates clusters generated clusters
// (sidebyside.GenerateFragmented from seed 2100 on) with nodeplan once and
// with Karpenter's disruption loop runs times, full and as one wave, and
// prints the table.
func runConsolidation(w io.Writer, clusters, runs int) error {
	start := time.Now()
	var rows []consolidationRow
	for i := range clusters {
		f := sidebyside.GenerateFragmented(uint64(consolidationSeed+i), 0)
		r := consolidationRow{f: f}
		var err error
		if r.nodeplan, err = sidebyside.RunNodeplanConsolidation(f, consolidation.Options{}); err != nil {
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
		fmt.Fprintf(os.Stderr, "%s: nodeplan saves $%.2f/h, karpenter $%.2f/h (median of %d)\n", f.Name,
			r.nodeplan.Saved(), medianSaved(r.karpenter).Saved(), runs)
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
	fmt.Fprintln(w, "| cluster | nodes | pods | budget | $/h | nodeplan saved | cmds | ms | karpenter saved (median, max) | cmds | ms | ratio to max | wave saved (max) | ratio to wave |")
	fmt.Fprintln(w, "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
	for _, r := range rows {
		k := medianSaved(r.karpenter)
		best, wave := maxSaved(r.karpenter), maxSaved(r.wave)
		fmt.Fprintf(w, "| %s | %d | %d | %s | %.2f | %.2f | %d | %.1f | %.2f, %.2f | %d | %d | %s | %.2f | %s |\n",
			r.f.Name, len(r.f.Nodes), len(r.f.Workload.Pods), r.f.Budget, r.nodeplan.Before,
			r.nodeplan.Saved(), len(r.nodeplan.Moves), float64(r.nodeplan.Duration.Microseconds())/1000,
			k.Saved(), best, len(k.Moves), k.Duration.Milliseconds(), ratio(r.nodeplan.Saved(), best),
			wave, ratio(r.nodeplan.Saved(), wave))
	}
	fmt.Fprintf(w, "\nNotes: $/h saved is before − after. Karpenter ran %d times per cluster (its methods shuffle and "+
		"iterate maps); its cmds and ms are those of the median run, ms summing its passes (commands executed by the "+
		"harness not timed). The full loop executes each command before the next pass (budgets free up as nodes go); "+
		"a wave leaves commands in flight (candidates marked for deletion spend the budget), the burst Karpenter issues "+
		"before any completes. ratio is nodeplan's savings ÷ Karpenter's best run.\n", runs)
}
