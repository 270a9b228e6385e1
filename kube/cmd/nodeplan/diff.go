package main

import (
	"cmp"
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

// diffReport is the JSON of nodeplan diff -o json; see the command doc
// for the schema.
type diffReport struct {
	APIVersion string     `json:"apiVersion"`
	Kind       string     `json:"kind"`
	Now        string     `json:"now"`
	NowFrom    string     `json:"nowFrom"`
	NodePools  []poolDiff `json:"nodePools"`
	// Nodes are the nodes added, then those removed.
	Nodes               []nodeChange              `json:"nodes"`
	Moves               []placement               `json:"moves"`
	Placed              []placedGroup             `json:"placed"`
	Unschedulable       []kube.UnschedulablePod   `json:"unschedulable"`
	UnschedulableGroups []kube.UnschedulableGroup `json:"unschedulableGroups"`
	Summary             diffSummary               `json:"summary"`
	Notes               []string                  `json:"notes"`
	Warnings            []string                  `json:"warnings"`
	// Headroom is provision's headroom[]: each CapacityBuffer and where
	// the provisioning step holds its virtual pods; absent without any.
	Headroom []kube.BufferHeadroom `json:"headroom,omitempty"`

	prov *provisioned // its view prints the provisioning summary
}

// diffTotals count the nodes of a NodePool, or of the cluster, now and
// after, and sum their hourly prices, those of unknown price apart.
type diffTotals struct {
	NodesNow          int     `json:"nodesNow"`
	NodesAdded        int     `json:"nodesAdded"`
	NodesRemoved      int     `json:"nodesRemoved"`
	NodesAfter        int     `json:"nodesAfter"`
	PricePerHourNow   float64 `json:"pricePerHourNow"`
	PricePerHourAfter float64 `json:"pricePerHourAfter"`
	DifferencePerHour float64 `json:"differencePerHour"`
	UnknownPriceNow   int     `json:"unknownPriceNow"`
	UnknownPriceAfter int     `json:"unknownPriceAfter"`

	now, after instancetypes.Price
}

// poolDiff is the row of a NodePool; NodePool is "" for the nodes outside
// NodePools.
type poolDiff struct {
	NodePool string `json:"nodePool"`
	diffTotals
}

type diffSummary struct {
	diffTotals
	DifferencePerMonth float64 `json:"differencePerMonth"`
	MovedPods          int     `json:"movedPods"`
	PlacedPods         int     `json:"placedPods"`
	UnschedulablePods  int     `json:"unschedulablePods"`
	// Currency is the ISO 4217 code of every price of the report.
	Currency string `json:"currency"`
}

// nodeChange is a node the plan adds or removes.
type nodeChange struct {
	Node         string `json:"node"`
	Change       string `json:"change"` // "added" or "removed"
	NodePool     string `json:"nodePool"`
	InstanceType string `json:"instanceType"`
	Zone         string `json:"zone"`
	CapacityType string `json:"capacityType"`
	// PricePerHour is nil (JSON null) for a node of unknown price.
	PricePerHour *float64 `json:"pricePerHour"`

	node *packing.Node
}

// placedGroup is the pending pods of one owner that the plan places.
type placedGroup struct {
	Namespace string `json:"namespace"`
	// Owner is "Kind/name"; absent for a pod without one, a group alone.
	Owner string `json:"owner,omitempty"`
	Count int    `json:"count"`
	// OnExisting and OnNew count the pods placed on nodes that exist now
	// and on new ones.
	OnExisting int    `json:"onExisting"`
	OnNew      int    `json:"onNew"`
	Pods       []home `json:"pods"`
}

func diff(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	c, err := parseFlags("diff", args, "table", "wide", "json")
	if err != nil {
		return fail("diff", err, stdout, stderr)
	}
	c.cluster.progress = stderr
	res, err := plan(c, stdin)
	if err != nil {
		return fail("diff", err, stdout, stderr)
	}
	r, err := newDiff(c, &res)
	if err == nil {
		err = emit(c.output, &r, stdout)
	}
	if err != nil {
		return fail("diff", err, stdout, stderr)
	}
	if len(r.Unschedulable) > 0 {
		return exitUnschedulable
	}
	return exitOK
}

// newDiff compares the cluster of res now with the cluster once res's
// plan is carried out and consolidated.
func newDiff(c config, res *provisioned) (diffReport, error) {
	s := &res.snap
	now, err := s.cluster.Consolidation(s.catalog, s.now)
	if err != nil {
		return diffReport{}, err
	}
	cl, out, err := consolidateApplied(c, res)
	if err != nil {
		return diffReport{}, err
	}
	r := diffReport{APIVersion: kube.ReportAPIVersion, Kind: "DiffReport", Now: s.now.Format(time.RFC3339), NowFrom: s.nowFrom,
		Nodes: []nodeChange{}, Moves: []placement{}, Placed: []placedGroup{},
		Unschedulable: res.report.Unschedulable, UnschedulableGroups: res.report.UnschedulableGroups,
		Notes: append([]string{}, s.prices.notes...), Warnings: append([]string{}, res.report.Warnings...), Headroom: res.report.Headroom, prov: res}
	r.compare(stateOf(now.Nodes), afterOf(cl, out), s.cluster.Pods)
	r.Summary.Currency = s.prices.currency
	return r, nil
}

// state is a cluster's nodes, in order, and where each pod runs.
type state struct {
	nodes []packing.Node
	at    map[string]string // pod key → node name
	has   map[string]bool   // node names
}

func stateOf(nodes []packing.Node) state {
	s := state{at: map[string]string{}, has: map[string]bool{}}
	for _, n := range nodes {
		s.add(n)
	}
	return s
}

func (s *state) add(n packing.Node) {
	s.nodes = append(s.nodes, n)
	s.has[n.Name] = true
	for _, p := range n.Pods {
		s.at[p.Key()] = n.Name
	}
}

// afterOf is cl once res's commands are carried out: their candidates and
// the nodes being deleted are gone, their replacements launched, and the
// pods they move on their new nodes.
func afterOf(cl consolidation.Cluster, res consolidation.Result) state {
	gone := map[string]bool{}
	for _, cmd := range res.Commands {
		for _, name := range cmd.Candidates {
			gone[name] = true
		}
	}
	s := stateOf(nil)
	for _, n := range cl.Nodes {
		if !gone[n.Name] && !n.MarkedForDeletion {
			s.add(n)
		}
	}
	for _, cmd := range res.Commands {
		for _, nc := range cmd.Replacements {
			s.add(nc.InFlight(nil, nil, cl.Now))
		}
		for _, h := range cmd.Homes {
			s.at[h.Pod.String()] = h.Node + h.NodeClaim
		}
	}
	return s
}

// compare fills r from the states before and after and the pods pending
// before.
func (r *diffReport) compare(before, after state, pending []packing.Pod) {
	pools := map[string]*poolDiff{}
	pool := func(name string) *diffTotals {
		if pools[name] == nil {
			pools[name] = &poolDiff{NodePool: name}
		}
		return &pools[name].diffTotals
	}
	var removed []nodeChange
	for i := range before.nodes {
		n := &before.nodes[i]
		pool(n.NodePool).count(n, true, after.has[n.Name])
		if !after.has[n.Name] {
			removed = append(removed, changeOf(n, "removed"))
		}
	}
	for i := range after.nodes {
		n := &after.nodes[i]
		pool(n.NodePool).count(n, false, before.has[n.Name])
		if !before.has[n.Name] {
			r.Nodes = append(r.Nodes, changeOf(n, "added"))
		}
	}
	r.Nodes = append(r.Nodes, removed...)
	r.poolRows(pools)
	r.moves(before, after)
	r.placed(pending, before, after)
	r.Summary.MovedPods, r.Summary.UnschedulablePods = len(r.Moves), len(r.Unschedulable)
}

// count adds n, a node now (or after), that is (or is not) there after
// (now).
func (t *diffTotals) count(n *packing.Node, now, both bool) {
	price, unknown := &t.after, &t.UnknownPriceAfter
	if now {
		price, unknown = &t.now, &t.UnknownPriceNow
		t.NodesNow++
	} else {
		t.NodesAfter++
	}
	switch {
	case !both && now:
		t.NodesRemoved++
	case !both:
		t.NodesAdded++
	}
	if n.PriceUnknown {
		*unknown++
	} else {
		*price += n.Price
	}
}

// add adds o's counts and prices to t.
func (t *diffTotals) add(o diffTotals) {
	t.NodesNow, t.NodesAdded, t.NodesRemoved, t.NodesAfter = t.NodesNow+o.NodesNow, t.NodesAdded+o.NodesAdded, t.NodesRemoved+o.NodesRemoved, t.NodesAfter+o.NodesAfter
	t.UnknownPriceNow, t.UnknownPriceAfter = t.UnknownPriceNow+o.UnknownPriceNow, t.UnknownPriceAfter+o.UnknownPriceAfter
	t.now, t.after = t.now+o.now, t.after+o.after
}

// decimals sets the JSON amounts from the exact prices.
func (t *diffTotals) decimals() {
	t.PricePerHourNow, t.PricePerHourAfter, t.DifferencePerHour = t.now.Decimal(), t.after.Decimal(), (t.after - t.now).Decimal()
}

// poolRows sorts the pools by name, the nodes outside NodePools last, and
// totals them.
func (r *diffReport) poolRows(pools map[string]*poolDiff) {
	r.NodePools = []poolDiff{}
	for _, p := range pools {
		p.decimals()
		r.NodePools = append(r.NodePools, *p)
		r.Summary.add(p.diffTotals)
	}
	slices.SortFunc(r.NodePools, func(a, b poolDiff) int {
		return cmp.Or(cmp.Compare(unmanaged(a), unmanaged(b)), cmp.Compare(a.NodePool, b.NodePool))
	})
	r.Summary.decimals()
	r.Summary.DifferencePerMonth = (r.Summary.after - r.Summary.now).MonthlyDecimal()
}

// unmanaged is 1 for the row of the nodes outside NodePools, else 0.
func unmanaged(p poolDiff) int {
	if p.NodePool == "" {
		return 1
	}
	return 0
}

func changeOf(n *packing.Node, change string) nodeChange {
	c := nodeChange{Node: n.Name, Change: change, NodePool: n.NodePool, InstanceType: n.InstanceType, Zone: n.Zone,
		CapacityType: n.CapacityType.String(), node: n}
	if !n.PriceUnknown {
		p := n.Price.Decimal()
		c.PricePerHour = &p
	}
	return c
}

// moves lists the pods bound now whose node changes, in node order.
func (r *diffReport) moves(before, after state) {
	for _, n := range before.nodes {
		for _, p := range n.Pods {
			if to := after.at[p.Key()]; to != "" && to != n.Name {
				r.Moves = append(r.Moves, placementTo(p.Key(), n.Name, to, before))
			}
		}
	}
}

// placementTo is pod's move from one node to another, which is a
// nodeClaim when it does not exist before.
func placementTo(pod, from, to string, before state) placement {
	if before.has[to] {
		return placement{Pod: pod, From: from, Node: to}
	}
	return placement{Pod: pod, From: from, NodeClaim: to}
}

// placed groups the pending pods that find a node by namespace and owner,
// largest group first, ties in pod order.
func (r *diffReport) placed(pending []packing.Pod, before, after state) {
	at := map[[2]string]int{}
	for _, p := range pending {
		to := after.at[p.Key()]
		if to == "" {
			continue
		}
		k := [2]string{p.Namespace, p.Owner}
		if p.Owner == "" {
			k[1] = "\x00" + p.Name // a pod without an owner stands alone
		}
		i, ok := at[k]
		if !ok {
			i = len(r.Placed)
			at[k] = i
			r.Placed = append(r.Placed, placedGroup{Namespace: p.Namespace, Owner: p.Owner})
		}
		g := &r.Placed[i]
		pl := placementTo(p.Key(), "", to, before)
		g.Pods = append(g.Pods, home{Pod: pl.Pod, Node: pl.Node, NodeClaim: pl.NodeClaim})
		g.Count++
		if pl.Node != "" {
			g.OnExisting++
		} else {
			g.OnNew++
		}
		r.Summary.PlacedPods++
	}
	slices.SortStableFunc(r.Placed, func(a, b placedGroup) int { return cmp.Compare(b.Count, a.Count) })
}

// label names g's pods as planview names a group: "Deployment shop/web",
// "Pod shop/web-0".
func (g *placedGroup) label() string {
	return planview.Group{Namespace: g.Namespace, Owner: g.Owner, Pods: []string{g.Pods[0].Pod}}.Label()
}

// writeTable prints the NodePool rows, the nodes added and removed, the
// pods that move, the pending pods placed, the provisioning summary with
// the unschedulable pods, and the totals.
func (r *diffReport) writeTable(w io.Writer) error {
	writeNotes(w, r.Notes)
	fmt.Fprintf(w, "now %s (%s)\n\n", r.Now, r.NowFrom)
	cur := r.Summary.Currency
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "NODEPOOL\tNOW\tADDED\tREMOVED\tAFTER\t%s/HOUR NOW\t%s/HOUR AFTER\tDIFFERENCE\n", cur, cur)
	for _, p := range r.NodePools {
		fmt.Fprintln(tw, totalsRow(planview.Dash(p.NodePool), p.diffTotals))
	}
	fmt.Fprintln(tw, totalsRow("TOTAL", r.Summary.diffTotals))
	if err := tw.Flush(); err != nil {
		return err
	}
	r.writeNodes(w)
	r.writeMoves(w)
	r.writePlaced(w)
	fmt.Fprint(w, "\nprovisioning: ")
	opts := r.prov.opts
	opts.Notes, opts.NoHeaders = nil, false
	if err := r.prov.view.WriteSummary(w, opts); err != nil {
		return err
	}
	if err := writeHeadroom(w, r.Headroom); err != nil {
		return err
	}
	fmt.Fprintf(w, "\n%s\n", r.summaryLine())
	return writeWarnings(w, r.Warnings)
}

// totalsRow is a row of the NodePool table.
func totalsRow(name string, t diffTotals) string {
	return strings.Join([]string{name, fmt.Sprint(t.NodesNow), fmt.Sprint(t.NodesAdded), fmt.Sprint(t.NodesRemoved),
		fmt.Sprint(t.NodesAfter), priceCell(t.now, t.NodesNow, t.UnknownPriceNow),
		priceCell(t.after, t.NodesAfter, t.UnknownPriceAfter), differenceCell(t)}, "\t")
}

// priceCell is the price of n nodes, unknown of them of unknown price:
// "0.192000", "0.192000 + 1 unknown", or "unknown" when all are.
func priceCell(p instancetypes.Price, n, unknown int) string {
	switch {
	case unknown == 0:
		return p.Amount()
	case unknown == n:
		return "unknown"
	}
	return fmt.Sprintf("%s + %d unknown", p.Amount(), unknown)
}

// differenceCell is the signed difference of the known prices, and how
// the count of unknown prices changes when it does.
func differenceCell(t diffTotals) string {
	d := signed(t.after - t.now)
	if t.UnknownPriceNow != t.UnknownPriceAfter {
		d += fmt.Sprintf(" (unknown: %d → %d)", t.UnknownPriceNow, t.UnknownPriceAfter)
	}
	return d
}

// signed is p's amount with its sign, "+" for a positive one.
func signed(p instancetypes.Price) string {
	if p > 0 {
		return "+" + p.Amount()
	}
	return p.Amount()
}

func (r *diffReport) writeNodes(w io.Writer) {
	sec := newSection(w, "NODE\tCHANGE\tNODEPOOL\tINSTANCE TYPE\tZONE\tCAPACITY\t"+r.Summary.Currency+"/HOUR")
	for _, c := range r.Nodes {
		price := "unknown"
		if !c.node.PriceUnknown {
			price = c.node.Price.Amount()
		}
		sec.row("%s\t%s\t%s\t%s\t%s\t%s\t%s", c.Node, c.Change, planview.Dash(c.NodePool), planview.Dash(c.InstanceType),
			planview.Dash(c.Zone), c.CapacityType, price)
	}
	sec.flush()
}

func (r *diffReport) writeMoves(w io.Writer) {
	sec := newSection(w, "MOVED POD\tFROM\tTO")
	for _, m := range r.Moves {
		sec.row("%s\t%s\t%s", m.Pod, m.From, destination(m.Node, m.NodeClaim))
	}
	sec.flush()
}

// destination names a node, a new one with " (new)".
func destination(node, claim string) string {
	if claim != "" {
		return claim + " (new)"
	}
	return node
}

// writePlaced prints one row per group of pending pods placed; wide
// then lists where each pod goes.
func (r *diffReport) writePlaced(w io.Writer) {
	sec := newSection(w, "PENDING PODS PLACED\tPODS\tON EXISTING NODES\tON NEW NODES")
	for i := range r.Placed {
		g := &r.Placed[i]
		sec.row("%s\t%d\t%d\t%d", g.label(), g.Count, g.OnExisting, g.OnNew)
	}
	sec.flush()
	if !r.prov.opts.Wide {
		return
	}
	sec = newSection(w, "PLACED POD\tTO")
	for _, g := range r.Placed {
		for _, p := range g.Pods {
			sec.row("%s\t%s", p.Pod, destination(p.Node, p.NodeClaim))
		}
	}
	sec.flush()
}

// summaryLine totals the diff: "3 nodes now, 4 after (+2, -1): 0.288000
// USD/hour now, 0.384000 after, +0.096000 USD/hour (+70.08 USD/month); 1
// pod moves, 12 pending pods placed, 1 unschedulable", and what the prices
// leave out.
func (r *diffReport) summaryLine() string {
	s, cur := r.Summary, r.Summary.Currency
	d := s.after - s.now
	line := fmt.Sprintf("%s now, %d after (+%d, -%d): %s now, %s after, %s %s/hour (%s %s/month); %s, %s placed, %d unschedulable",
		planview.Count(s.NodesNow, "node"), s.NodesAfter, s.NodesAdded, s.NodesRemoved, s.now.Format(cur), s.after.Amount(),
		signed(d), cur, signedMonthly(d), cur, planview.Count(s.MovedPods, "pod")+" moved", planview.Count(s.PlacedPods, "pending pod"),
		s.UnschedulablePods)
	if s.UnknownPriceNow+s.UnknownPriceAfter > 0 {
		line += fmt.Sprintf("; prices leave out %s of unknown price now, %d after", planview.Count(s.UnknownPriceNow, "node"), s.UnknownPriceAfter)
	}
	return line
}

// signedMonthly is p's monthly amount with its sign, "+" for a positive one.
func signedMonthly(p instancetypes.Price) string {
	if p > 0 {
		return "+" + p.MonthlyAmount()
	}
	return p.MonthlyAmount()
}
