package main

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/nodeplan/nodeplan/instancetypes"
	"github.com/nodeplan/nodeplan/kube"
	"github.com/nodeplan/nodeplan/kube/shadow"
	"github.com/nodeplan/nodeplan/planview"
)

// shadowEvent is one JSON line of nodeplan shadow -o json; see the
// command doc for the schema.
type shadowEvent struct {
	APIVersion        string         `json:"apiVersion"`
	Kind              string         `json:"kind"`
	Seq               int            `json:"seq"`
	Type              string         `json:"type"`
	Start             string         `json:"start"`
	End               string         `json:"end"`
	Currency          string         `json:"currency"`
	Karpenter         shadowKarp     `json:"karpenter"`
	Nodeplan          shadowNodeplan `json:"nodeplan"`
	DifferencePerHour *float64       `json:"differencePerHour"`
	Error             string         `json:"error,omitempty"`
}

type shadowKarp struct {
	Launched []shadowClaim `json:"launched"`
	Removed  []shadowClaim `json:"removed"`
	Kept     []string      `json:"kept"`
	Reason   string        `json:"reason,omitempty"`
	// ChangePerHour sums the priced claims: launched minus removed.
	ChangePerHour float64 `json:"changePerHour"`
	Unpriced      int     `json:"unpriced"`
}

type shadowClaim struct {
	Name         string   `json:"name"`
	Node         string   `json:"node,omitempty"`
	NodePool     string   `json:"nodePool,omitempty"`
	InstanceType string   `json:"instanceType,omitempty"`
	Zone         string   `json:"zone,omitempty"`
	CapacityType string   `json:"capacityType,omitempty"`
	PricePerHour *float64 `json:"pricePerHour"`
	Unpriced     string   `json:"unpriced,omitempty"`
	Deleted      bool     `json:"deleted,omitempty"`
}

type shadowNodeplan struct {
	Pending       int            `json:"pending"`
	Placed        int            `json:"placed"`
	Unschedulable int            `json:"unschedulable"`
	Nodes         int            `json:"nodes"`
	PricePerHour  float64        `json:"pricePerHour"`
	Consolidation shadowCommands `json:"consolidation"`
	Drift         shadowCommands `json:"drift"`
}

type shadowCommands struct {
	Commands      int     `json:"commands"`
	Deleted       int     `json:"deletedNodes"`
	Launched      int     `json:"newNodes"`
	Unpriced      int     `json:"deletedUnknownPrice"`
	ChangePerHour float64 `json:"changePerHour"`
}

// shadowSummary is the last JSON line.
type shadowSummary struct {
	APIVersion string           `json:"apiVersion"`
	Kind       string           `json:"kind"`
	Events     map[string]int   `json:"events"`
	Errors     int              `json:"errors"`
	Pods       int              `json:"pods"`
	Placed     int              `json:"placed"`
	Karpenter  shadowSideReport `json:"karpenter"`
	Nodeplan   shadowSideReport `json:"nodeplan"`
	// DifferencePerHour sums the events whose difference is known;
	// UnknownDifferences counts the others.
	DifferencePerHour  float64  `json:"differencePerHour"`
	UnknownDifferences int      `json:"unknownDifferences"`
	Currency           string   `json:"currency"`
	Notes              []string `json:"notes"`
}

type shadowSideReport struct {
	Launched      int     `json:"launched"`
	Removed       int     `json:"removed"`
	Unpriced      int     `json:"unpriced"`
	ChangePerHour float64 `json:"changePerHour"`
}

func newShadowEvent(e *shadow.Event, currency string) shadowEvent {
	change, unpriced := e.Karpenter.Change()
	out := shadowEvent{APIVersion: kube.ReportAPIVersion, Kind: "ShadowEvent", Seq: e.Seq, Type: e.Type.String(),
		Start: stamp(e.Start), End: stamp(e.End), Currency: currency,
		Karpenter: shadowKarp{Launched: shadowClaims(e.Karpenter.Launched), Removed: shadowClaims(e.Karpenter.Removed),
			Kept: append([]string{}, e.Karpenter.Kept...), Reason: e.Karpenter.Reason, ChangePerHour: change.Decimal(), Unpriced: unpriced},
		Nodeplan: shadowNodeplan{Pending: e.Nodeplan.Pending, Placed: e.Nodeplan.Placed, Unschedulable: e.Nodeplan.Unschedulable,
			Nodes: e.Nodeplan.Nodes, PricePerHour: e.Nodeplan.Price.Decimal(),
			Consolidation: newShadowCommands(e.Nodeplan.Consolidation), Drift: newShadowCommands(e.Nodeplan.Drift)}}
	if d, ok := e.Difference(); ok {
		v := d.Decimal()
		out.DifferencePerHour = &v
	}
	if e.Err != nil {
		out.Error = e.Err.Error()
	}
	return out
}

func shadowClaims(cs []shadow.Claim) []shadowClaim {
	out := []shadowClaim{}
	for _, c := range cs {
		sc := shadowClaim{Name: c.Name, Node: c.Node, NodePool: c.NodePool, InstanceType: c.Offering.InstanceType,
			Zone: c.Offering.Zone, CapacityType: c.Offering.CapacityType, Unpriced: c.Why, Deleted: c.Deleted}
		if c.Priced {
			v := c.Price.Decimal()
			sc.PricePerHour = &v
		}
		out = append(out, sc)
	}
	return out
}

func newShadowCommands(c shadow.Commands) shadowCommands {
	return shadowCommands{Commands: c.Commands, Deleted: c.Deleted, Launched: c.Launched, Unpriced: c.Unpriced, ChangePerHour: c.Change.Decimal()}
}

func newShadowSummary(t *shadow.Totals, p pricing) shadowSummary {
	side := func(s shadow.Side) shadowSideReport {
		return shadowSideReport{Launched: s.Launched, Removed: s.Removed, Unpriced: s.Unpriced, ChangePerHour: s.Change.Decimal()}
	}
	return shadowSummary{APIVersion: kube.ReportAPIVersion, Kind: "ShadowSummary",
		Events: map[string]int{shadow.Provisioning.String(): t.Events[shadow.Provisioning], shadow.Disruption.String(): t.Events[shadow.Disruption]},
		Errors: t.Errors, Pods: t.Pods, Placed: t.Placed, Karpenter: side(t.Karpenter), Nodeplan: side(t.Nodeplan),
		DifferencePerHour: t.Difference.Decimal(), UnknownDifferences: t.Unknown, Currency: p.currency,
		Notes: append([]string{}, p.notes...)}
}

// shadowRow is the format of a table row.
const shadowRow = "%-4s %-20s %-12s %-7s %-9s %-9s %-24s %-18s %-12s %s\n"

// header prints the price notes and the column header (tables only).
func (s *shadowWriter) header() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.started = true
	if s.json {
		return nil
	}
	writeNotes(s.w, s.prices.notes)
	cur := s.prices.currency
	_, err := fmt.Fprintf(s.w, shadowRow, "#", "START", "EVENT", "PODS", "KARPENTER", "NODEPLAN",
		"KARPENTER "+cur+"/HOUR", "NODEPLAN "+cur+"/HOUR", "DIFFERENCE", "NOTES")
	return err
}

// event prints one event.
func (s *shadowWriter) event(e *shadow.Event) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.json {
		return writeLine(s, newShadowEvent(e, s.prices.currency))
	}
	k, unpriced := e.Karpenter.Change()
	c := e.Compared()
	pods, nodeplanNodes, nodeplanPrice := "-", nodeCount(c.Launched, c.Deleted), withUnpriced(c.Change, c.Unpriced)
	if e.Type == shadow.Provisioning {
		pods, nodeplanNodes, nodeplanPrice = fmt.Sprintf("%d/%d", e.Nodeplan.Pending, e.Nodeplan.Placed), nodeCount(e.Nodeplan.Nodes, 0), e.Nodeplan.Price.Amount()
	}
	diff := "unknown"
	if d, ok := e.Difference(); ok {
		diff = d.Amount()
	}
	np := nodeplanPrice
	if e.Err != nil {
		pods, nodeplanNodes, np = "-", "-", "-"
	}
	row := fmt.Sprintf(shadowRow, fmt.Sprint(e.Seq), e.Start.UTC().Format(time.RFC3339), e.Type,
		pods, nodeCount(shadow.Nodes(e.Karpenter.Launched), shadow.Nodes(e.Karpenter.Removed)), nodeplanNodes,
		withUnpriced(k, unpriced), np, diff, strings.Join(shadowNotes(e), "; "))
	_, err := fmt.Fprintln(s.w, strings.TrimRight(row, " \n"))
	return err
}

// nodeCount is "+2" or "+1 -1".
func nodeCount(launched, removed int) string {
	if removed == 0 {
		return fmt.Sprintf("+%d", launched)
	}
	return fmt.Sprintf("+%d -%d", launched, removed)
}

// withUnpriced is "0.192000", or "0.096000 + 1 unresolved".
func withUnpriced(p instancetypes.Price, unpriced int) string {
	if unpriced == 0 {
		return p.Amount()
	}
	return fmt.Sprintf("%s + %d unpriced", p.Amount(), unpriced)
}

// shadowNotes are the NOTES of an event's row.
func shadowNotes(e *shadow.Event) []string {
	var out []string
	if e.Karpenter.Reason != "" {
		out = append(out, e.Karpenter.Reason)
	}
	for _, c := range e.Karpenter.Removed {
		out = append(out, "removed "+c.Name)
	}
	for _, c := range e.Karpenter.Launched {
		switch {
		case c.Failed():
			out = append(out, c.Name+" failed to launch")
		case !c.Priced:
			out = append(out, c.Name+" unpriced: "+c.Why)
		}
	}
	if len(e.Karpenter.Kept) > 0 {
		out = append(out, "marked, not deleted: "+strings.Join(e.Karpenter.Kept, ","))
	}
	if e.Type == shadow.Disruption && e.Err == nil {
		dr := e.Nodeplan.Drift
		out = append(out, fmt.Sprintf("nodeplan consolidation: %s; drift: %s, nodes %s, %s/hour",
			planview.Count(e.Nodeplan.Consolidation.Commands, "command"), planview.Count(dr.Commands, "command"),
			nodeCount(dr.Launched, dr.Deleted), withUnpriced(dr.Change, dr.Unpriced)))
	}
	if n := e.Nodeplan.Unschedulable; n > 0 {
		out = append(out, fmt.Sprintf("nodeplan leaves %s unschedulable", planview.Count(n, "pod")))
	}
	if e.Err != nil {
		out = append(out, "nodeplan: "+e.Err.Error())
	}
	return out
}

// summary prints the totals.
func (s *shadowWriter) summary(t *shadow.Totals) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.json {
		return writeLine(s, newShadowSummary(t, s.prices))
	}
	cur := s.prices.currency
	unknown := ""
	if t.Unknown > 0 {
		unknown = fmt.Sprintf(", %s of unknown difference left out", planview.Count(t.Unknown, "event"))
	}
	_, err := fmt.Fprintf(s.w, "\nsummary: %s, %s (%s)\n"+
		"  pods: %d pending (each once), %d placed by nodeplan\n"+
		"  Karpenter: launched %d, removed %d nodes: %s %s/hour\n"+
		"  nodeplan:  launched %d, removed %d nodes: %s %s/hour\n"+
		"  difference (Karpenter - nodeplan): %s %s/hour%s\n",
		planview.Count(t.Events[shadow.Provisioning], "provisioning event"), planview.Count(t.Events[shadow.Disruption], "disruption event"),
		planview.Count(t.Errors, "error"), t.Pods, t.Placed,
		t.Karpenter.Launched, t.Karpenter.Removed, withUnpriced(t.Karpenter.Change, t.Karpenter.Unpriced), cur,
		t.Nodeplan.Launched, t.Nodeplan.Removed, withUnpriced(t.Nodeplan.Change, t.Nodeplan.Unpriced), cur,
		t.Difference.Amount(), cur, unknown)
	return err
}

// writeLine writes v as one line of JSON.
func writeLine(s *shadowWriter, v any) error {
	data, err := json.Marshal(v)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(s.w, "%s\n", data)
	return err
}
