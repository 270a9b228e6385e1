package main

import (
	"fmt"
	"io"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/nodeplan/nodeplan/consolidation"
	"github.com/nodeplan/nodeplan/instancetypes"
	"github.com/nodeplan/nodeplan/kube"
	"github.com/nodeplan/nodeplan/packing"
	"github.com/nodeplan/nodeplan/planview"
)

// consolidationReport is the JSON of nodeplan consolidate -o json; see the
// command doc for the schema.
type consolidationReport struct {
	APIVersion string        `json:"apiVersion"`
	Kind       string        `json:"kind"`
	Now        string        `json:"now"`
	NowFrom    string        `json:"nowFrom"`
	Commands   []cmdReport   `json:"commands"`
	Kept       []keptReport  `json:"kept"`
	Summary    consolSummary `json:"summary"`
	Notes      []string      `json:"notes"`
	Warnings   []string      `json:"warnings"`
}

type cmdReport struct {
	Reason         string        `json:"reason"`
	Method         string        `json:"method"`
	Decision       string        `json:"decision"`
	Candidates     []string      `json:"candidates"`
	Replacements   []replacement `json:"replacements"`
	SavingsPerHour float64       `json:"savingsPerHour"`
	Placements     []placement   `json:"placements"`
	// UnknownPriceCandidates counts the candidates of unknown price, which
	// SavingsPerHour leaves out.
	UnknownPriceCandidates int `json:"unknownPriceCandidates"`

	savings instancetypes.Price
}

type replacement struct {
	Name          string   `json:"name"`
	NodePool      string   `json:"nodePool"`
	InstanceType  string   `json:"instanceType"`
	Zone          string   `json:"zone"`
	CapacityType  string   `json:"capacityType"`
	PricePerHour  float64  `json:"pricePerHour"`
	InstanceTypes []string `json:"instanceTypes"`

	price instancetypes.Price
}

type placement struct {
	Pod       string `json:"pod"`
	From      string `json:"from"`
	Node      string `json:"node,omitempty"`
	NodeClaim string `json:"nodeClaim,omitempty"`
}

type keptReport struct {
	Node    string `json:"node"`
	Why     string `json:"why"`
	Message string `json:"message"`
}

type consolSummary struct {
	Commands        int     `json:"commands"`
	DeletedNodes    int     `json:"deletedNodes"`
	NewNodes        int     `json:"newNodes"`
	KeptNodes       int     `json:"keptNodes"`
	SavingsPerHour  float64 `json:"savingsPerHour"`
	SavingsPerMonth float64 `json:"savingsPerMonth"`
	// DeletedUnknownPrice counts the deleted nodes of unknown price, which
	// the savings leave out.
	DeletedUnknownPrice int `json:"deletedUnknownPrice"`
	// Currency is the ISO 4217 code of every price of the report.
	Currency string `json:"currency"`

	savings instancetypes.Price
}

func consolidate(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	c, s, err := start("consolidate", args, stdin, stderr)
	if err != nil {
		return fail("consolidate", err, stdout, stderr)
	}
	cl, err := s.cluster.Consolidation(s.catalog, s.now)
	if err != nil {
		return fail("consolidate", err, stdout, stderr)
	}
	res, err := consolidation.Plan(cl, consolidation.Options{SpotToSpot: c.spotToSpot})
	if err != nil {
		return fail("consolidate", err, stdout, stderr)
	}
	r := newConsolidationReport(s, cl, res)
	if err := emit(c.output, &r, stdout); err != nil {
		return fail("consolidate", err, stdout, stderr)
	}
	return exitOK
}

// newConsolidationReport reports res, planned on cl from s; its warnings
// are s's and those of cl's nodes of unknown price.
func newConsolidationReport(s snapshot, cl consolidation.Cluster, res consolidation.Result) consolidationReport {
	r := consolidationReport{APIVersion: kube.ReportAPIVersion, Kind: "ConsolidationReport",
		Now: s.now.Format(time.RFC3339), NowFrom: s.nowFrom, Commands: []cmdReport{}, Kept: []keptReport{},
		Notes: append([]string{}, s.prices.notes...), Warnings: slices.Concat([]string{}, s.cluster.Warnings, s.cluster.BufferWarnings())}
	r.Summary.Currency = s.prices.currency
	from := podHomes(cl.Nodes)
	for _, cmd := range res.Commands {
		r.Commands = append(r.Commands, commandReport(cmd, from))
		r.Summary.DeletedNodes += len(cmd.Candidates)
		r.Summary.NewNodes += len(cmd.Replacements)
		r.Summary.DeletedUnknownPrice += cmd.Unpriced
		r.Summary.savings += cmd.Savings
	}
	for _, k := range res.Kept {
		r.Kept = append(r.Kept, keptReport{Node: k.Node, Why: k.Why.String(), Message: k.Message})
	}
	r.Summary.Commands, r.Summary.KeptNodes = len(res.Commands), len(res.Kept)
	r.Summary.SavingsPerHour = r.Summary.savings.Decimal()
	r.Summary.SavingsPerMonth = r.Summary.savings.MonthlyDecimal()
	r.Warnings = append(r.Warnings, kube.PriceWarnings(&packing.Problem{Nodes: cl.Nodes, NodePools: cl.NodePools, Catalog: cl.Catalog})...)
	return r
}

// podHomes maps "namespace/name" to the node a pod runs on; pending pods
// are absent.
func podHomes(nodes []packing.Node) map[string]string {
	out := map[string]string{}
	for _, n := range nodes {
		for _, p := range n.Pods {
			out[p.Namespace+"/"+p.Name] = n.Name
		}
	}
	return out
}

func commandReport(cmd consolidation.Command, from map[string]string) cmdReport {
	r := cmdReport{Reason: cmd.Reason.String(), Method: cmd.Method.String(), Decision: cmd.Decision(),
		Candidates: append([]string{}, cmd.Candidates...), Replacements: []replacement{},
		SavingsPerHour: cmd.Savings.Decimal(), Placements: []placement{}, UnknownPriceCandidates: cmd.Unpriced, savings: cmd.Savings}
	for _, nc := range cmd.Replacements {
		r.Replacements = append(r.Replacements, newReplacement(nc))
	}
	for _, h := range cmd.Homes {
		pod := h.Pod.String()
		r.Placements = append(r.Placements, placement{Pod: pod, From: planview.Dash(from[pod]), Node: h.Node, NodeClaim: h.NodeClaim})
	}
	return r
}

// writeTable prints the commands, where their pods go, the kept nodes and
// the totals.
func (r *consolidationReport) writeTable(w io.Writer) error {
	writeNotes(w, r.Notes)
	fmt.Fprintf(w, "now %s (%s)\n\n", r.Now, r.NowFrom)
	cur := r.Summary.Currency
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "#\tREASON\tMETHOD\tDECISION\tCANDIDATES\tREPLACEMENTS\tSAVINGS %s/HOUR\n", cur)
	for i, c := range r.Commands {
		fmt.Fprintf(tw, "%d\t%s\t%s\t%s\t%s\t%s\t%s\n", i+1, c.Reason, c.Method, c.Decision,
			strings.Join(c.Candidates, ","), replacements(c.Replacements, cur), savings(c))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	r.writePlacements(w)
	r.writeKept(w)
	s := r.Summary
	fmt.Fprintf(w, "\n%s: delete %s, launch %d: saves %s, %s %s/month%s; %s kept\n",
		planview.Count(s.Commands, "command"), planview.Count(s.DeletedNodes, "node"), s.NewNodes, s.savings.Format(cur),
		s.savings.MonthlyAmount(), cur, unknownPrice(s.DeletedUnknownPrice), planview.Count(s.KeptNodes, "node"))
	return writeWarnings(w, r.Warnings)
}

// savings is a command's SAVINGS cell: the amount, and how many of its
// candidates are of unknown price ("0.192000 + 1 unknown"), or "unknown"
// when all are.
func savings(c cmdReport) string {
	switch {
	case c.UnknownPriceCandidates == 0:
		return c.savings.Amount()
	case c.UnknownPriceCandidates == len(c.Candidates) && len(c.Replacements) == 0:
		return "unknown"
	}
	return fmt.Sprintf("%s + %d unknown", c.savings.Amount(), c.UnknownPriceCandidates)
}

// unknownPrice says what the savings leave out: ", plus the unknown price
// of 2 nodes", or "".
func unknownPrice(n int) string {
	if n == 0 {
		return ""
	}
	return ", plus the unknown price of " + planview.Count(n, "node")
}

func newReplacement(nc packing.NodeClaim) replacement {
	return replacement{Name: nc.Name, NodePool: nc.NodePool, InstanceType: nc.InstanceType, Zone: nc.Offering.Zone,
		CapacityType: nc.Offering.CapacityType.String(), PricePerHour: nc.Offering.Price.Decimal(),
		InstanceTypes: append([]string{}, nc.InstanceTypes...), price: nc.Offering.Price}
}

// replacements lists new nodes with their offering and hourly price in
// currency.
func replacements(rs []replacement, currency string) string {
	if len(rs) == 0 {
		return "-"
	}
	var out []string
	for _, r := range rs {
		out = append(out, fmt.Sprintf("%s (%s %s %s %s)", r.Name, r.InstanceType, r.Zone, r.CapacityType, r.price.Format(currency)))
	}
	return strings.Join(out, ", ")
}

func (r *consolidationReport) writePlacements(w io.Writer) {
	sec := newSection(w, "#\tPOD\tFROM\tTO")
	for i, c := range r.Commands {
		for _, p := range c.Placements {
			sec.row("%d\t%s\t%s\t%s", i+1, p.Pod, p.From, p.Node+p.NodeClaim)
		}
	}
	sec.flush()
}

func (r *consolidationReport) writeKept(w io.Writer) {
	if len(r.Kept) == 0 {
		return
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "\nKEPT NODE\tWHY\tMESSAGE")
	for _, k := range r.Kept {
		fmt.Fprintf(tw, "%s\t%s\t%s\n", k.Node, k.Why, k.Message)
	}
	tw.Flush()
}

func writeWarnings(w io.Writer, warnings []string) error {
	if len(warnings) == 0 {
		return nil
	}
	_, err := fmt.Fprintf(w, "\nWarnings:\n  %s\n", strings.Join(warnings, "\n  "))
	return err
}
