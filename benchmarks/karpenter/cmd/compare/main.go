// Command compare runs every benchmark workload through Karpenter v1.14.1's
// scheduler, nodeplan and the Cluster Autoscaler model, in one process on
// the same inputs, and prints one Markdown table: pods/s (median of -runs
// solves), nodes and $/h (of the last solve), $/h over the certified lower
// bound, and speed and cost ratios against Karpenter.
//
// Usage, from the repository root:
//
//	go run ./benchmarks/karpenter/cmd/compare [-large] [-runs N] [-write]
//
// -write replaces the section of benchmarks/RESULTS.md between
// <!-- compare:begin --> and <!-- compare:end --> (creating the file or the
// section when absent) with the table, the command and the machine. -large
// adds the 4,000- and 5,000-pod sizes, which take several minutes.
//
// -consolidation instead consolidates -clusters generated fragmented
// clusters (sidebyside.GenerateFragmented) both ways: to the end (nodeplan's
// RunNodeplanLoop against -runs runs of Karpenter's full loop) and at one
// instant (one consolidation.Plan against -runs Karpenter waves), and
// prints their savings, commands and times (it does not write RESULTS.md).
package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/nodeplan/nodeplan/benchmarks/karpenter/sidebyside"
	"github.com/nodeplan/nodeplan/benchmarks/workload"
	"github.com/nodeplan/nodeplan/guide"
	"github.com/nodeplan/nodeplan/packing"
)

const (
	beginMarker = "<!-- compare:begin -->"
	endMarker   = "<!-- compare:end -->"
	seed        = 42
)

// solver is one prepared solve; prepare is not timed, Solve times itself.
type solver interface {
	Solve() (sidebyside.Result, error)
}

// impl is one implementation under comparison.
type impl struct {
	name    string
	prepare func(w workload.Workload) (solver, error)
}

var impls = []impl{
	{"karpenter", func(w workload.Workload) (solver, error) { return sidebyside.Prepare(w, sidebyside.KarpenterOptions{}) }},
	{"nodeplan", func(w workload.Workload) (solver, error) { return sidebyside.PrepareNodeplan(w, packing.Options{}) }},
	{"nodeplan greedy", func(w workload.Workload) (solver, error) {
		return sidebyside.PrepareNodeplan(w, packing.Options{Restarts: -1})
	}},
	{"nodeplan guided", func(w workload.Workload) (solver, error) { return sidebyside.PrepareGuided(w, guide.Options{}) }},
	{"cluster-autoscaler least-waste", func(w workload.Workload) (solver, error) {
		return sidebyside.PrepareClusterAutoscaler(w, sidebyside.CAOptions{Expander: sidebyside.ExpanderLeastWaste})
	}},
	{"cluster-autoscaler price", func(w workload.Workload) (solver, error) {
		return sidebyside.PrepareClusterAutoscaler(w, sidebyside.CAOptions{Expander: sidebyside.ExpanderPrice})
	}},
}

// benchCase is one workload at one size.
type benchCase struct {
	name string
	make func() workload.Workload
}

func cases(large bool) []benchCase {
	diverse := func(n int) benchCase {
		return benchCase{"karpenter-diverse", func() workload.Workload { return workload.KarpenterDiverse(n, seed) }}
	}
	prefs := func(n int) benchCase {
		return benchCase{"karpenter-diverse-preferences", func() workload.Workload { return workload.KarpenterDiversePreferences(n, seed) }}
	}
	zone := func(n int) benchCase {
		return benchCase{"zone-spread", func() workload.Workload { return workload.ZoneSpread(n, seed) }}
	}
	basic := func(n int) benchCase {
		return benchCase{"basic-scale-out", func() workload.Workload { return workload.BasicScaleOut(n) }}
	}
	mixed := func(n int) benchCase {
		return benchCase{"mixed", func() workload.Workload { return workload.Mixed(n, seed) }}
	}
	out := []benchCase{diverse(100), diverse(1000), prefs(500), zone(1000), basic(workload.BasicScaleOutPods), mixed(1000)}
	if large {
		out = append(out, diverse(5000), prefs(4000), zone(5000), basic(5000), mixed(5000))
	}
	return out
}

// row is one line of the table.
type row struct {
	workload string
	pods     int
	impl     string
	podsPerS float64
	last     sidebyside.Result
	bound    float64
	// boundTime is how long sidebyside.LowerBound took, conversion
	// included, once.
	boundTime time.Duration
}

func main() {
	large := flag.Bool("large", false, "add the 4,000- and 5,000-pod sizes")
	runs := flag.Int("runs", 3, "solves per implementation and workload; pods/s is over the median")
	write := flag.Bool("write", false, "rewrite the compare section of benchmarks/RESULTS.md")
	consolidate := flag.Bool("consolidation", false, "compare consolidation on generated fragmented clusters instead")
	clusters := flag.Int("clusters", 12, "generated clusters for -consolidation")
	flag.Parse()
	if *consolidate {
		if err := runConsolidation(os.Stdout, max(*clusters, 1), max(*runs, 1)); err != nil {
			fmt.Fprintln(os.Stderr, "compare:", err)
			os.Exit(1)
		}
		return
	}
	if err := run(*large, max(*runs, 1), *write); err != nil {
		fmt.Fprintln(os.Stderr, "compare:", err)
		os.Exit(1)
	}
}

func run(large bool, runs int, write bool) error {
	start := time.Now()
	var rows []row
	for _, c := range cases(large) {
		rs, err := measure(c, runs)
		if err != nil {
			return fmt.Errorf("%s: %w", c.name, err)
		}
		rows = append(rows, rs...)
	}
	var table bytes.Buffer
	printTable(&table, rows)
	os.Stdout.Write(table.Bytes())
	elapsed := time.Since(start)
	fmt.Printf("\n%s; took %s\n", machine(), elapsed.Round(time.Second))
	if !write {
		return nil
	}
	path, err := resultsPath()
	if err != nil {
		return err
	}
	return writeSection(path, section(table.String(), elapsed))
}

// measure solves one case with every implementation, runs times each.
func measure(c benchCase, runs int) ([]row, error) {
	w := c.make()
	start := time.Now()
	b, err := sidebyside.LowerBound(w)
	if err != nil {
		return nil, err
	}
	boundTime := time.Since(start)
	var rows []row
	for _, im := range impls {
		var times []time.Duration
		var last sidebyside.Result
		for range runs {
			s, err := im.prepare(w)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", im.name, err)
			}
			if last, err = s.Solve(); err != nil {
				return nil, fmt.Errorf("%s: %w", im.name, err)
			}
			times = append(times, last.Duration)
		}
		rows = append(rows, row{workload: c.name, pods: len(w.Pods), impl: im.name,
			podsPerS: float64(len(w.Pods)) / median(times).Seconds(), last: last, bound: b.PricePerHour, boundTime: boundTime})
		fmt.Fprintf(os.Stderr, "%s/%d %s: %.0f pods/s, %d nodes, $%.2f/h\n", c.name, len(w.Pods), im.name,
			rows[len(rows)-1].podsPerS, last.NodeClaims, last.PricePerHour)
	}
	return rows, nil
}

func median(ds []time.Duration) time.Duration {
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[len(s)/2]
}

func printTable(w io.Writer, rows []row) {
	fmt.Fprintln(w, "| workload | pods | impl | pods/s | scheduled | nodes | $/h | $/h ÷ bound | speed ÷ karpenter | cost ÷ karpenter |")
	fmt.Fprintln(w, "|---|---:|---|---:|---:|---:|---:|---:|---:|---:|")
	var ref row
	for _, r := range rows {
		if r.impl == "karpenter" {
			ref = r
		}
		fmt.Fprintf(w, "| %s | %d | %s | %s | %d | %d | %.2f | %s | %s | %s |\n", r.workload, r.pods, r.impl,
			rate(r.podsPerS), r.last.Scheduled, r.last.NodeClaims, r.last.PricePerHour,
			ratio(r.last.PricePerHour, r.bound), ratio(r.podsPerS, ref.podsPerS), ratio(r.last.PricePerHour, ref.last.PricePerHour))
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Lower bounds ($/h, sidebyside.LowerBound, and the time it took once):")
	for _, r := range rows {
		if r.impl == "karpenter" {
			fmt.Fprintf(w, "%s/%d %.2f (%s); ", r.workload, r.pods, r.bound, r.boundTime.Round(time.Millisecond))
		}
	}
	fmt.Fprintln(w)
}

func rate(v float64) string {
	if v >= 100 {
		return fmt.Sprintf("%.0f", v)
	}
	return fmt.Sprintf("%.1f", v)
}

func ratio(a, b float64) string {
	if b == 0 {
		return "–"
	}
	v := a / b
	if v >= 10 {
		return fmt.Sprintf("%.0f", v)
	}
	return fmt.Sprintf("%.3f", v)
}

func machine() string {
	cpu := "unknown cpu"
	if data, err := os.ReadFile("/proc/cpuinfo"); err == nil {
		for _, line := range strings.Split(string(data), "\n") {
			if name, ok := strings.CutPrefix(line, "model name"); ok {
				cpu = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(name), ":"))
				break
			}
		}
	}
	return fmt.Sprintf("nproc %d, GOMAXPROCS %d, %s, %s/%s, %s", runtime.NumCPU(), runtime.GOMAXPROCS(0),
		runtime.Version(), runtime.GOOS, runtime.GOARCH, cpu)
}

func section(table string, elapsed time.Duration) string {
	var b strings.Builder
	fmt.Fprintln(&b, beginMarker)
	fmt.Fprintf(&b, "Command: `go run ./benchmarks/karpenter/cmd/compare %s` (from the repository root), %s.\n\n",
		strings.Join(os.Args[1:], " "), time.Now().UTC().Format("2006-01-02"))
	fmt.Fprintf(&b, "Machine: %s. The run took %s.\n\n", machine(), elapsed.Round(time.Second))
	b.WriteString(table)
	b.WriteString(notes)
	fmt.Fprintln(&b, endMarker)
	return b.String()
}

const notes = `
Notes: pods/s is pods ÷ the median solve time (conversion and scheduler set-up not timed); nodes and
$/h are from the last solve (Karpenter's vary from run to run: it breaks zone ties in map order).
Karpenter's $/h prices each NodeClaim at the cheapest available offering, among its instance-type
options, compatible with its requirements. "nodeplan" is packing.Solve's default (Strategy Best with
its seeded restarts and merging); "nodeplan greedy" is the same with Restarts -1 (its two greedy passes,
merged): the speed the restarts trade for price on small problems. "nodeplan guided" is guide.Solve:
packing.Solve, its bound (bound.ForPlan), more solves with each NodePool narrowed to the instance
types the bound's LP launches (all of them, with the first plan's, and each pool's k most used for k = 1
to 4), the cheapest kept when cheaper, leaving out the same pods, and clean under verify.Plan; its time
covers all of them. The Cluster Autoscaler rows are nodeplan's model of CA (sidebyside.RunClusterAutoscaler:
its binpacking estimator per node group and the least-waste or price expander; see its doc for what is
and is not modelled, notably zone-level constraints taken as satisfied); their pods/s is the model's
speed, not CA's. The bound is package bound's certified configuration LP (pods grouped into classes,
columns = node configurations per NodePool, type and offering, solved by column generation and certified
by a scaled dual solution checked against every configuration), with the single-pod and anti-affinity
group bounds (sidebyside.LowerBound = bound.Of); it covers every pod some node can hold.
`

// resultsPath is benchmarks/RESULTS.md under the nearest directory, from
// the working directory up, that holds go.work.
func resultsPath() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.work")); err == nil {
			return filepath.Join(dir, "benchmarks", "RESULTS.md"), nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("no go.work above the working directory; run from the repository")
		}
		dir = parent
	}
}

// writeSection replaces the marked section of path with sec, appending it
// when the file has none and creating the file when absent.
func writeSection(path, sec string) error {
	old, err := os.ReadFile(path)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return err
	}
	text := string(old)
	if text == "" {
		text = "# Benchmark results\n\n"
	}
	begin, end := strings.Index(text, beginMarker), strings.Index(text, endMarker)
	switch {
	case begin >= 0 && end > begin:
		text = text[:begin] + sec + strings.TrimPrefix(text[end+len(endMarker):], "\n")
	default:
		if !strings.HasSuffix(text, "\n") {
			text += "\n"
		}
		text += "\n" + sec
	}
	return os.WriteFile(path, []byte(text), 0o644)
}
