package main

import (
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/nodeplan/nodeplan/drift"
	"github.com/nodeplan/nodeplan/instancetypes"
	"github.com/nodeplan/nodeplan/kube"
	"github.com/nodeplan/nodeplan/planview"
	"github.com/nodeplan/nodeplan/static"
)

// staticReport is the JSON of nodeplan static -o json; see the command
// doc for the schema.
type staticReport struct {
	APIVersion string              `json:"apiVersion"`
	Kind       string              `json:"kind"`
	Now        string              `json:"now"`
	NowFrom    string              `json:"nowFrom"`
	NodePools  []staticPool        `json:"nodePools"`
	Summary    staticSummary       `json:"summary"`
	Currency   string              `json:"currency"`
	Notes      []string            `json:"notes"`
	Warnings   []string            `json:"warnings"`
	total      instancetypes.Price // Summary.CreatePerHour, exact
}

type staticPool struct {
	NodePool          string `json:"nodePool"`
	Replicas          int64  `json:"replicas"`
	Active            int    `json:"active"`
	Deleting          int    `json:"deleting"`
	PendingDisruption int    `json:"pendingDisruption"`
	Create            int    `json:"create"`
	// Launch is the offering new NodeClaims are priced at; null when no
	// offering of the catalog fits the pool.
	Launch *staticLaunch `json:"launch"`
	// CreatePerHour prices the created NodeClaims and the drift
	// replacements; null when Launch is.
	CreatePerHour *float64            `json:"createPerHour"`
	Remove        []staticRemoval     `json:"remove"`
	Replace       []string            `json:"replace"`
	Explanations  []staticNote        `json:"explanations"`
	perHour       instancetypes.Price // CreatePerHour, exact
}

type staticLaunch struct {
	InstanceType string  `json:"instanceType"`
	Zone         string  `json:"zone"`
	CapacityType string  `json:"capacityType"`
	PricePerHour float64 `json:"pricePerHour"`
}

type staticRemoval struct {
	NodeClaim    string  `json:"nodeClaim"`
	Kind         string  `json:"kind"`
	Cost         float64 `json:"cost"`
	DoNotDisrupt bool    `json:"doNotDisrupt"`
}

type staticNote struct {
	Reason    string `json:"reason"`
	NodeClaim string `json:"nodeClaim,omitempty"`
	Message   string `json:"message"`
}

type staticSummary struct {
	Create  int `json:"create"`
	Remove  int `json:"remove"`
	Replace int `json:"replace"`
	// CreatePerHour leaves out the pools of unknown launch price;
	// UnknownPrice counts their NodeClaims.
	CreatePerHour float64 `json:"createPerHour"`
	UnknownPrice  int     `json:"unknownPrice"`
}

func staticCmd(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	c, s, err := start("static", args, stdin, stderr)
	if err != nil {
		return fail("static", err, stdout, stderr)
	}
	in, err := s.cluster.Static(s.catalog, s.now)
	if err != nil {
		return fail("static", err, stdout, stderr)
	}
	res, err := static.Decide(in)
	if err != nil {
		return fail("static", err, stdout, stderr)
	}
	r := newStaticReport(s, res)
	if err := emit(c.output, &r, stdout); err != nil {
		return fail("static", err, stdout, stderr)
	}
	return exitOK
}

func newStaticReport(s snapshot, res static.Result) staticReport {
	r := staticReport{APIVersion: kube.ReportAPIVersion, Kind: "StaticReport", Now: stamp(s.now), NowFrom: s.nowFrom,
		NodePools: []staticPool{}, Currency: s.prices.currency, Notes: append([]string{}, s.prices.notes...),
		Warnings: append([]string{}, s.cluster.Warnings...)}
	for _, d := range res.Pools {
		p := staticPoolOf(d)
		r.total += p.perHour
		if !d.Launch.Known() {
			r.Summary.UnknownPrice += d.Create + len(d.Replace)
		}
		r.Summary.Create += d.Create
		r.Summary.Remove += len(d.Remove)
		r.Summary.Replace += len(d.Replace)
		r.NodePools = append(r.NodePools, p)
	}
	r.Summary.CreatePerHour = r.total.Decimal()
	return r
}

func staticPoolOf(d static.Decision) staticPool {
	p := staticPool{NodePool: d.NodePool, Replicas: d.Replicas, Active: d.Active, Deleting: d.Deleting,
		PendingDisruption: d.PendingDisruption, Create: d.Create, Remove: []staticRemoval{}, Replace: []string{}, Explanations: []staticNote{}}
	if l := d.Launch; l.Known() {
		p.Launch = &staticLaunch{InstanceType: l.InstanceType, Zone: l.Offering.Zone, CapacityType: l.Offering.CapacityType.String(),
			PricePerHour: l.Offering.Price.Decimal()}
		p.perHour = l.Offering.Price * instancetypes.Price(d.Create+len(d.Replace))
		v := p.perHour.Decimal()
		p.CreatePerHour = &v
	}
	for _, rm := range d.Remove {
		p.Remove = append(p.Remove, staticRemoval{NodeClaim: rm.Claim, Kind: rm.Kind.String(), Cost: rm.Cost, DoNotDisrupt: rm.DoNotDisrupt})
	}
	for _, rp := range d.Replace {
		p.Replace = append(p.Replace, rp.Candidate)
	}
	for _, n := range d.Notes {
		p.Explanations = append(p.Explanations, staticNote{Reason: n.Why.String(), NodeClaim: n.Claim, Message: n.Message})
	}
	return p
}

// writeTable prints one row per static pool, the NodeClaims to delete or
// replace, the explanations, the summary and the warnings.
func (r *staticReport) writeTable(w io.Writer) error {
	writeNotes(w, r.Notes)
	fmt.Fprintf(w, "now %s (%s)\n\n", r.Now, r.NowFrom)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "NODEPOOL\tREPLICAS\tACTIVE\tDELETING\tPENDING\tCREATE\tREMOVE\tREPLACE\tLAUNCH\t%s/HOUR\n", r.Currency)
	for _, p := range r.NodePools {
		launch, cost := "unknown", "unknown"
		if p.Launch != nil {
			launch = fmt.Sprintf("%s %s %s", p.Launch.InstanceType, p.Launch.Zone, p.Launch.CapacityType)
			cost = p.perHour.Amount()
		}
		fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%s\t%s\n", p.NodePool, p.Replicas, p.Active, p.Deleting, p.PendingDisruption,
			p.Create, len(p.Remove), len(p.Replace), launch, cost)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	sec := newSection(w, "NODEPOOL\tACTION\tNODECLAIM\tDETAIL")
	for _, p := range r.NodePools {
		for _, rm := range p.Remove {
			detail := rm.Kind
			if rm.Kind == static.Occupied.String() {
				detail = fmt.Sprintf("%s, cost %.3f, do-not-disrupt %v", rm.Kind, rm.Cost, rm.DoNotDisrupt)
			}
			sec.row("%s\tdelete\t%s\t%s", p.NodePool, rm.NodeClaim, detail)
		}
		for _, c := range p.Replace {
			sec.row("%s\treplace\t%s\tDrifted: a new NodeClaim first, then delete it", p.NodePool, c)
		}
	}
	sec.flush()
	sec = newSection(w, "NODEPOOL\tWHY\tMESSAGE")
	for _, p := range r.NodePools {
		for _, n := range p.Explanations {
			sec.row("%s\t%s\t%s", p.NodePool, n.Reason, n.Message)
		}
	}
	sec.flush()
	fmt.Fprintf(w, "\n%s to create, %d to delete, %d to replace; new NodeClaims %s",
		planview.Count(r.Summary.Create, "NodeClaim"), r.Summary.Remove, r.Summary.Replace,
		r.total.Format(r.Currency))
	if r.Summary.UnknownPrice > 0 {
		fmt.Fprintf(w, " plus %d of unknown price", r.Summary.UnknownPrice)
	}
	fmt.Fprintln(w)
	return writeWarnings(w, r.Warnings)
}

// withoutStaticDrift returns the findings drift.Commands acts on, and the
// drift findings of static NodePools' nodes as blocked: Karpenter's Drift
// skips static pools (K/controllers/disruption/drift.go:59) and leaves
// their drifted nodes to StaticDrift, which nodeplan static shows.
// Expiration and interruption apply to static nodes as to any.
func withoutStaticDrift(fs []drift.Finding, c *kube.Cluster) ([]drift.Finding, []drift.Blocked) {
	static := map[string]bool{}
	for i := range c.NodePools {
		if c.NodePools[i].Static() {
			static[c.NodePools[i].Metadata.Name] = true
		}
	}
	var kept []drift.Finding
	var blocked []drift.Blocked
	seen := map[string]bool{}
	for _, f := range fs {
		switch {
		case !static[f.NodePool] || !f.Reason.Drift():
			kept = append(kept, f)
		case !seen[f.Node]:
			seen[f.Node] = true
			blocked = append(blocked, drift.Blocked{Node: f.Node, NodePool: f.NodePool, Reason: f.Reason,
				Message: fmt.Sprintf("NodePool %s is static (spec.replicas): Karpenter's Drift skips it, and StaticDrift replaces "+
					"its NodeClaims whose Drifted condition is True (see nodeplan static)", f.NodePool)})
		}
	}
	return kept, blocked
}
