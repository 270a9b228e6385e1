package planview

import (
	"cmp"
	"errors"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/nodeplan/nodeplan/instancetypes"
)

// Options say how a View is written. The zero Options write the default
// table with prices in instancetypes.DefaultCurrency and no notes.
type Options struct {
	// Currency is the ISO 4217 code of every price of the plan; ""
	// is instancetypes.DefaultCurrency.
	Currency string
	// Notes are header lines written before the table, in order, such as
	// "prices: embedded AWS on-demand, us-east-1 (USD)".
	Notes []string
	// Wide adds the ARCH and INSTANCE TYPES (candidates, cheapest first)
	// columns and lists the pods of every unschedulable group, as kubectl's
	// -o wide.
	Wide bool
	// NoHeaders makes WriteTable write the node rows alone, as kubectl's
	// --no-headers: no notes, header row, totals or unschedulable pods;
	// write those with WriteSummary (nodeplan sends them to stderr).
	NoHeaders bool
}

// currency is the ISO 4217 code of the prices: Currency or
// instancetypes.DefaultCurrency.
func (o Options) currency() string { return cmp.Or(o.Currency, instancetypes.DefaultCurrency) }

// ErrInvalidOptions is wrapped by the error WriteTable and WriteSummary
// return, before writing anything, for Options they cannot honour.
var ErrInvalidOptions = errors.New("planview: invalid options")

// Validate returns an error wrapping ErrInvalidOptions when Currency is
// neither empty nor an ISO 4217 code in form
// (instancetypes.ValidCurrency): it is written after every price.
func (o Options) Validate() error {
	if o.Currency != "" && !instancetypes.ValidCurrency(o.Currency) {
		return fmt.Errorf("%w: Currency: %q is not an ISO 4217 code (three upper-case letters)", ErrInvalidOptions, o.Currency)
	}
	return nil
}

// barWidth is the number of cells of a utilisation bar.
const barWidth = 10

// candidatesShown is how many candidate types a wide row names.
const candidatesShown = 5

// WriteTable writes v for people, after eks-node-viewer and kubectl: the
// notes, one row per node (name, new or existing, NodePool, instance type,
// zone, capacity type, hourly price, pod count, CPU and memory bars of
// requests over allocatable), the totals and the unschedulable pods by
// group. With o.NoHeaders only the rows. It returns o's validation error
// (Options.Validate) without writing, else the first write error.
func (v *View) WriteTable(w io.Writer, o Options) error {
	if err := o.Validate(); err != nil {
		return err
	}
	ew := &errWriter{w: w}
	if !o.NoHeaders && len(o.Notes) > 0 {
		ew.notes(o.Notes)
		ew.printf("\n")
	}
	v.writeNodes(ew, o)
	if !o.NoHeaders {
		ew.printf("\n")
		v.writeTotals(ew, o)
	}
	return ew.err
}

// WriteSummary writes what WriteTable writes besides the node rows: the
// notes, the totals and the unschedulable pods by group. It returns o's
// validation error (Options.Validate) without writing, else the first
// write error.
func (v *View) WriteSummary(w io.Writer, o Options) error {
	if err := o.Validate(); err != nil {
		return err
	}
	ew := &errWriter{w: w}
	ew.notes(o.Notes)
	v.writeTotals(ew, o)
	return ew.err
}

// errWriter keeps the first write error and writes nothing after it.
type errWriter struct {
	w   io.Writer
	err error
}

func (e *errWriter) Write(p []byte) (int, error) {
	if e.err != nil {
		return 0, e.err
	}
	var n int
	n, e.err = e.w.Write(p)
	return n, e.err
}

func (e *errWriter) printf(format string, args ...any) { fmt.Fprintf(e, format, args...) }

func (e *errWriter) notes(notes []string) {
	for _, n := range notes {
		e.printf("%s\n", n)
	}
}

func (v *View) writeNodes(w *errWriter, o Options) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	if !o.NoHeaders {
		header := "NODE\tSTATUS\tNODEPOOL\tINSTANCE TYPE\tZONE\tCAPACITY\t" + o.currency() + "/HOUR\tPODS\tCPU\tMEMORY"
		if o.Wide {
			header += "\tARCH\tINSTANCE TYPES"
		}
		fmt.Fprintln(tw, header)
	}
	for i := range v.Nodes {
		fmt.Fprintln(tw, row(&v.Nodes[i], o.Wide))
	}
	tw.Flush() // its error is w's, kept there
}

func row(n *Node, wide bool) string {
	status := "new"
	if n.Existing {
		status = "existing"
	}
	cells := []string{n.Name, status, Dash(n.NodePool), Dash(n.InstanceType), Dash(n.Zone), n.CapacityType.String(),
		amount(n), fmt.Sprint(len(n.Pods)), bar(n.Requests.CPU, n.Allocatable.CPU), bar(n.Requests.Memory, n.Allocatable.Memory)}
	if wide {
		cells = append(cells, Dash(n.Arch), candidates(n.InstanceTypes))
	}
	return strings.Join(cells, "\t")
}

// amount is n's hourly price without a currency, or "unknown".
func amount(n *Node) string {
	if n.PriceUnknown {
		return "unknown"
	}
	return n.Price.Amount()
}

// candidates names the first candidatesShown types and counts the rest,
// without spaces so that a row splits into the same fields every time.
func candidates(types []string) string {
	if len(types) <= candidatesShown {
		return Dash(strings.Join(types, ","))
	}
	return fmt.Sprintf("%s,+%d", strings.Join(types[:candidatesShown], ","), len(types)-candidatesShown)
}

func (v *View) writeTotals(w *errWriter, o Options) {
	s, cur := v.Summary, o.currency()
	w.printf("%s, %s scheduled, %d unschedulable: %s, %s %s/month", Count(s.NewNodes, "new node"),
		Count(s.ScheduledPods, "pod"), s.UnschedulablePods, s.Price.Format(cur), s.Price.MonthlyAmount(), cur)
	w.printf("%s\n", existing(s, cur))
	v.writeGroups(w, o.Wide)
}

// existing says what the existing nodes cost, those of unknown price
// apart: " (plus 2 existing nodes at 0.384000 USD/hour and 1 of unknown
// price)"; "" without existing nodes.
func existing(s Summary, cur string) string {
	known := s.ExistingNodes - s.Unpriced
	switch {
	case s.ExistingNodes == 0:
		return ""
	case s.Unpriced == 0:
		return fmt.Sprintf(" (plus %s at %s)", Count(known, "existing node"), s.ExistingPrice.Format(cur))
	case known == 0:
		return fmt.Sprintf(" (plus %s of unknown price)", Count(s.Unpriced, "existing node"))
	}
	return fmt.Sprintf(" (plus %s at %s and %d of unknown price)", Count(known, "existing node"), s.ExistingPrice.Format(cur), s.Unpriced)
}

// writeGroups writes one line per unschedulable group, "Deployment
// shop/web ×12 — Insufficient: <message>", and with wide its pods.
func (v *View) writeGroups(w *errWriter, wide bool) {
	if len(v.Groups) == 0 {
		return
	}
	w.printf("\nUnschedulable pods:\n")
	for _, g := range v.Groups {
		times := ""
		if g.Owner != "" {
			times = fmt.Sprintf(" ×%d", len(g.Pods))
		}
		w.printf("  %s%s — %s: %s\n", g.Label(), times, g.Kind, g.Message)
		if wide && g.Owner != "" {
			w.printf("      pods: %s\n", strings.Join(names(g.Pods), ", "))
		}
	}
}

// names are the pods' names without their namespace.
func names(pods []string) []string {
	out := make([]string, len(pods))
	for i, p := range pods {
		_, out[i], _ = strings.Cut(p, "/")
	}
	return out
}

// Dash returns s, or "-" for an empty cell, as kubectl writes one. The
// nodeplan command's other tables use it too.
func Dash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// Count writes n and noun, in the plural unless n is 1: "1 node", "3
// nodes", "0 pods" (a plural that adds "s"). The nodeplan command's other
// summaries use it too.
func Count(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// bar draws used/capacity as barWidth cells and a percentage, both
// rounded half up.
func bar(used, capacity int64) string {
	if capacity <= 0 {
		return strings.Repeat("░", barWidth) + "    -"
	}
	used = max(0, used)
	full := min(barWidth, int((2*barWidth*used+capacity)/(2*capacity)))
	pct := (200*used + capacity) / (2 * capacity)
	return fmt.Sprintf("%s%s %3d%%", strings.Repeat("█", full), strings.Repeat("░", barWidth-full), pct)
}
