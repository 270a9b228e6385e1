package main

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/nodeplan/nodeplan/drift"
	"github.com/nodeplan/nodeplan/kube"
	"github.com/nodeplan/nodeplan/planview"
)

// driftReport is the JSON of nodeplan drift -o json; see the command doc
// for the schema.
type driftReport struct {
	APIVersion string          `json:"apiVersion"`
	Kind       string          `json:"kind"`
	Now        string          `json:"now"`
	NowFrom    string          `json:"nowFrom"`
	Findings   []findingReport `json:"findings"`
	Commands   []driftCommand  `json:"commands"`
	Blocked    []blockedReport `json:"blocked"`
	// Currency is the ISO 4217 code of every price of the report.
	Currency string   `json:"currency"`
	Notes    []string `json:"notes"`
	Warnings []string `json:"warnings"`
}

type findingReport struct {
	Node     string `json:"node"`
	NodePool string `json:"nodePool"`
	Reason   string `json:"reason"`
	Since    string `json:"since"`
	Forceful bool   `json:"forceful"`
	Deadline string `json:"deadline,omitempty"`
	Message  string `json:"message"`
}

type driftCommand struct {
	Node         string        `json:"node"`
	NodePool     string        `json:"nodePool"`
	Reason       string        `json:"reason"`
	Findings     []string      `json:"findings"`
	Forceful     bool          `json:"forceful"`
	Deadline     string        `json:"deadline,omitempty"`
	Replacements []replacement `json:"replacements"`
	Homes        []home        `json:"homes"`
	// Protected are the pods whose eviction is blocked now (do-not-disrupt,
	// a PodDisruptionBudget) on a node drift replaces anyway within its
	// NodePool's terminationGracePeriod: each is deleted by deleteAt.
	Protected []protectedPod `json:"protected"`
}

type protectedPod struct {
	Pod      string `json:"pod"`
	DeleteAt string `json:"deleteAt"`
	Why      string `json:"why"`
}

// home is where a pod goes: an existing node, a new NodeClaim, or
// unschedulable with why. From is the node it leaves, set by repair
// (drift, diff: "", left out).
type home struct {
	Pod           string `json:"pod"`
	From          string `json:"from,omitempty"`
	Node          string `json:"node,omitempty"`
	NodeClaim     string `json:"nodeClaim,omitempty"`
	Unschedulable string `json:"unschedulable,omitempty"`
}

type blockedReport struct {
	Node     string `json:"node"`
	NodePool string `json:"nodePool"`
	Reason   string `json:"reason"`
	Why      string `json:"why"`
}

func driftCmd(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	c, s, err := start("drift", args, stdin, stderr)
	if err != nil {
		return fail("drift", err, stdout, stderr)
	}
	cl, warnings, err := s.cluster.Drift(s.catalog)
	if err != nil {
		return fail("drift", err, stdout, stderr)
	}
	cl.Expiration.GracePeriod, cl.Now = c.expireGrace, s.now
	if err := cl.Validate(); err != nil {
		return fail("drift", err, stdout, stderr)
	}
	findings, err := drift.Evaluate(cl.Input)
	if err != nil {
		return fail("drift", err, stdout, stderr)
	}
	dynamic, staticBlocked := withoutStaticDrift(findings, &s.cluster)
	cmds, blocked, err := drift.Commands(dynamic, cl)
	if err != nil {
		return fail("drift", err, stdout, stderr)
	}
	blocked = append(blocked, staticBlocked...)
	r := newDriftReport(s, findings, cmds, blocked, append(append([]string{}, s.cluster.Warnings...), warnings...))
	if err := emit(c.output, &r, stdout); err != nil {
		return fail("drift", err, stdout, stderr)
	}
	return exitOK
}

func stamp(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format(time.RFC3339)
}

func newDriftReport(s snapshot, fs []drift.Finding, cmds []drift.Command, blocked []drift.Blocked, warnings []string) driftReport {
	r := driftReport{APIVersion: kube.ReportAPIVersion, Kind: "DriftReport", Now: stamp(s.now), NowFrom: s.nowFrom,
		Findings: []findingReport{}, Commands: []driftCommand{}, Blocked: []blockedReport{}, Currency: s.prices.currency,
		Notes: append([]string{}, s.prices.notes...), Warnings: warnings}
	for _, f := range fs {
		r.Findings = append(r.Findings, findingReport{Node: f.Node, NodePool: f.NodePool, Reason: f.Reason.String(),
			Since: stamp(f.Since), Forceful: f.Forceful, Deadline: stamp(f.Deadline), Message: f.Message})
	}
	for _, c := range cmds {
		r.Commands = append(r.Commands, driftCommandReport(c))
	}
	for _, b := range blocked {
		r.Blocked = append(r.Blocked, blockedReport{Node: b.Node, NodePool: b.NodePool, Reason: b.Reason.String(), Why: b.Message})
	}
	return r
}

func driftCommandReport(c drift.Command) driftCommand {
	out := driftCommand{Node: c.Node, NodePool: c.NodePool, Reason: c.Reason.String(), Forceful: c.Forceful,
		Deadline: stamp(c.Deadline), Findings: []string{}, Replacements: []replacement{}, Homes: []home{}, Protected: []protectedPod{}}
	for _, f := range c.Findings {
		out.Findings = append(out.Findings, f.Reason.String())
	}
	for _, nc := range c.Replacements {
		out.Replacements = append(out.Replacements, newReplacement(nc))
	}
	for _, h := range c.Homes {
		out.Homes = append(out.Homes, home{Pod: h.Pod.String(), Node: h.Node, NodeClaim: h.NodeClaim, Unschedulable: h.Unschedulable})
	}
	for _, d := range c.PodDeadlines {
		if d.Protected != "" {
			out.Protected = append(out.Protected, protectedPod{Pod: d.Pod.String(), DeleteAt: stamp(d.DeleteAt), Why: d.Protected})
		}
	}
	return out
}

// writeTable prints the findings, the commands with their pods' homes, the
// blocked nodes and the warnings.
func (r *driftReport) writeTable(w io.Writer) error {
	writeNotes(w, r.Notes)
	fmt.Fprintf(w, "now %s (%s)\n\n", r.Now, r.NowFrom)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "NODE\tNODEPOOL\tFINDING\tSINCE\tFORCEFUL\tMESSAGE")
	for _, f := range r.Findings {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%v\t%s\n", f.Node, f.NodePool, f.Reason, f.Since, f.Forceful, f.Message)
	}
	fmt.Fprintln(tw, "\n#\tNODE\tREASON\tFORCEFUL\tDEADLINE\tREPLACEMENTS")
	for i, c := range r.Commands {
		fmt.Fprintf(tw, "%d\t%s\t%s\t%v\t%s\t%s\n", i+1, c.Node, c.Reason, c.Forceful, planview.Dash(c.Deadline), replacements(c.Replacements, r.Currency))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	r.writeHomes(w)
	r.writeProtected(w)
	if len(r.Blocked) > 0 {
		tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, "\nBLOCKED NODE\tFINDING\tWHY")
		for _, b := range r.Blocked {
			fmt.Fprintf(tw, "%s\t%s\t%s\n", b.Node, b.Reason, b.Why)
		}
		tw.Flush()
	}
	fmt.Fprintf(w, "\n%s, %s, %d blocked\n", planview.Count(len(r.Findings), "finding"), planview.Count(len(r.Commands), "command"), len(r.Blocked))
	return writeWarnings(w, r.Warnings)
}

func (r *driftReport) writeHomes(w io.Writer) {
	sec := newSection(w, "#\tPOD\tFROM\tTO")
	for i, c := range r.Commands {
		for _, h := range c.Homes {
			to := h.Node + h.NodeClaim
			if h.Unschedulable != "" {
				to = "unschedulable: " + h.Unschedulable
			}
			sec.row("%d\t%s\t%s\t%s", i+1, h.Pod, c.Node, strings.TrimSpace(to))
		}
	}
	sec.flush()
}

// writeProtected lists the protected pods that commands delete at their
// deadline, when there are any.
func (r *driftReport) writeProtected(w io.Writer) {
	sec := newSection(w, "#\tPROTECTED POD\tDELETED BY\tWHY")
	for i, c := range r.Commands {
		for _, p := range c.Protected {
			sec.row("%d\t%s\t%s\t%s", i+1, p.Pod, p.DeleteAt, p.Why)
		}
	}
	sec.flush()
}
