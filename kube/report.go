package kube

import (
	"cmp"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/nodeplan/nodeplan/instancetypes"
	"github.com/nodeplan/nodeplan/packing"
	"github.com/nodeplan/nodeplan/resources"
)

// ReportAPIVersion and ReportKind identify the JSON of a [Report].
const (
	ReportAPIVersion = "nodeplan.io/v1"
	ReportKind       = "ProvisioningReport"
)

// Report is the result of nodeplan provision in the stable JSON schema
// described in the package doc. The zero Report is an empty plan.
type Report struct {
	APIVersion string `json:"apiVersion"`
	Kind       string `json:"kind"`
	// Currency is the ISO 4217 code of every price of the report, and Notes
	// say where the prices come from and how spot is priced; both are set
	// by the caller, which knows the catalog.
	Currency string   `json:"currency,omitempty"`
	Notes    []string `json:"notes,omitempty"`
	// Nodes are the NodeClaims to launch, in the plan's order, then the
	// existing nodes that hold pods, in input order.
	Nodes         []ReportNode       `json:"nodes"`
	Unschedulable []UnschedulablePod `json:"unschedulable"`
	Summary       ReportSummary      `json:"summary"`
	Warnings      []string           `json:"warnings"`
}

// ReportNode is one node of a Report.
type ReportNode struct {
	Name     string `json:"name"`
	Existing bool   `json:"existing"`
	NodePool string `json:"nodePool"`
	// InstanceType, Zone, CapacityType and PricePerHour are the chosen
	// offering (for an existing node, its labels and catalog price).
	InstanceType string  `json:"instanceType"`
	Zone         string  `json:"zone"`
	CapacityType string  `json:"capacityType"`
	PricePerHour float64 `json:"pricePerHour"`
	// InstanceTypes are a new node's candidate types, cheapest first.
	InstanceTypes []string `json:"instanceTypes,omitempty"`
	// Requests (the pods with their pod slots, plus the daemonset
	// overhead on a new node) and
	// Allocatable are Kubernetes quantities by resource name.
	Requests    map[string]string `json:"requests"`
	Allocatable map[string]string `json:"allocatable"`
	// Pods are "namespace/name", in placement order; on an existing node
	// the pods already bound come first.
	Pods []string `json:"pods"`

	used, alloc resources.List
}

// UnschedulablePod is a pod no node or NodePool can take.
type UnschedulablePod struct {
	Pod      string `json:"pod"`
	Reason   string `json:"reason"`
	NodePool string `json:"nodePool,omitempty"`
	Message  string `json:"message"`
}

// ReportSummary totals a Report. PricePerHour is the new nodes' price.
type ReportSummary struct {
	NewNodes             int     `json:"newNodes"`
	ExistingNodes        int     `json:"existingNodes"`
	ScheduledPods        int     `json:"scheduledPods"`
	UnschedulablePods    int     `json:"unschedulablePods"`
	PricePerHour         float64 `json:"pricePerHour"`
	PricePerMonth        float64 `json:"pricePerMonth"`
	ExistingPricePerHour float64 `json:"existingPricePerHour"`
}

// HoursPerMonth is the month eks-node-viewer and AWS price pages use.
const HoursPerMonth = 730

// NewReport describes the plan of p. Warnings are copied in. The
// complexity is linear in the plan; p and plan are not modified.
func NewReport(p *packing.Problem, plan *packing.Plan, warnings []string) Report {
	r := Report{APIVersion: ReportAPIVersion, Kind: ReportKind, Nodes: []ReportNode{},
		Unschedulable: []UnschedulablePod{}, Warnings: append([]string{}, warnings...)}
	for i := range plan.NodeClaims {
		r.Nodes = append(r.Nodes, claimNode(p, &plan.NodeClaims[i]))
	}
	r.Nodes = append(r.Nodes, existingNodes(p, plan)...)
	for _, u := range plan.Unschedulable {
		r.Unschedulable = append(r.Unschedulable, UnschedulablePod{Pod: podKey(&p.Pods[u.Pod]),
			Reason: u.Reason.Kind.String(), NodePool: u.Reason.NodePool, Message: u.Reason.Message})
	}
	r.Summary = summary(&r, plan)
	return r
}

func summary(r *Report, plan *packing.Plan) ReportSummary {
	s := ReportSummary{NewNodes: len(plan.NodeClaims), UnschedulablePods: len(plan.Unschedulable),
		ScheduledPods: len(plan.Order), PricePerHour: round6(plan.Price.Dollars())}
	s.PricePerMonth = round6(plan.Price.Dollars() * HoursPerMonth)
	var existing instancetypes.Price
	for _, n := range r.Nodes {
		if n.Existing {
			s.ExistingNodes++
			existing += priceOf(n.PricePerHour)
		}
	}
	s.ExistingPricePerHour = round6(existing.Dollars())
	return s
}

func priceOf(d float64) instancetypes.Price {
	p, _ := instancetypes.PriceFromDollars(d) // d came from a Price
	return p
}

func round6(d float64) float64 {
	p, err := instancetypes.PriceFromDollars(d)
	if err != nil {
		return d
	}
	return float64((p+500)/1000) / 1e6
}

func claimNode(p *packing.Problem, c *packing.NodeClaim) ReportNode {
	n := ReportNode{Name: c.Name, NodePool: c.NodePool, InstanceType: c.InstanceType, Zone: c.Offering.Zone,
		CapacityType: c.Offering.CapacityType.String(), PricePerHour: round6(c.Offering.Price.Dollars()),
		InstanceTypes: append([]string{}, c.InstanceTypes...), used: c.Requests}
	if t, ok := catalogFor(p, c.NodePool).Get(c.InstanceType); ok {
		n.alloc = t.Allocatable
	}
	for _, i := range c.Pods {
		n.Pods = append(n.Pods, podKey(&p.Pods[i]))
	}
	n.Requests, n.Allocatable = Quantities(n.used), Quantities(n.alloc)
	return n
}

// catalogFor is the catalog a pool's claims come from.
func catalogFor(p *packing.Problem, pool string) *instancetypes.Catalog {
	for _, np := range p.NodePools {
		if np.Name == pool && np.Catalog != nil {
			return np.Catalog
		}
	}
	return p.Catalog
}

// existingNodes lists the existing nodes that hold pods, before or after
// the plan.
func existingNodes(p *packing.Problem, plan *packing.Plan) []ReportNode {
	bound := map[string][]int{}
	for _, b := range plan.Bindings {
		bound[b.Node] = append(bound[b.Node], b.Pod)
	}
	var out []ReportNode
	for i := range p.Nodes {
		node := &p.Nodes[i]
		if len(node.Pods) == 0 && len(bound[node.Name]) == 0 {
			continue
		}
		out = append(out, existingNode(p, node, bound[node.Name]))
	}
	return out
}

func existingNode(p *packing.Problem, node *packing.Node, bound []int) ReportNode {
	n := ReportNode{Name: node.Name, Existing: true, NodePool: node.NodePool, InstanceType: node.InstanceType,
		Zone: node.Zone, CapacityType: node.CapacityType.String(), PricePerHour: round6(node.Price.Dollars()),
		alloc: node.Allocatable}
	for i := range node.Pods {
		n.Pods = append(n.Pods, podKey(&node.Pods[i]))
		n.used = n.used.Add(node.Pods[i].Requests).Add(resources.List{Pods: 1})
	}
	for _, i := range bound {
		n.Pods = append(n.Pods, podKey(&p.Pods[i]))
		n.used = n.used.Add(p.Pods[i].Requests).Add(resources.List{Pods: 1})
	}
	n.Requests, n.Allocatable = Quantities(n.used), Quantities(n.alloc)
	return n
}

func podKey(p *packing.Pod) string { return p.Namespace + "/" + p.Name }

// barWidth is the number of cells of a utilisation bar.
const barWidth = 20

// WriteTable writes r for people, after eks-node-viewer: one line per node
// with its pool, type, zone, capacity type, price, pod count and CPU and
// memory bars (requests over allocatable), the totals, the unschedulable
// pods with their reasons, and the warnings. It returns the first write
// error.
func (r *Report) WriteTable(w io.Writer) error {
	if len(r.Notes) > 0 {
		fmt.Fprintf(w, "%s\n\n", strings.Join(r.Notes, "\n"))
	}
	cur := cmp.Or(r.Currency, "USD")
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "NODE\tNODEPOOL\tINSTANCE TYPE\tZONE\tCAPACITY\t%s/HOUR\tPODS\tCPU\tMEMORY\n", cur)
	for _, n := range r.Nodes {
		name := n.Name
		if n.Existing {
			name += " (existing)"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%.6f\t%d\t%s\t%s\n", name, dash(n.NodePool), dash(n.InstanceType),
			dash(n.Zone), n.CapacityType, n.PricePerHour, len(n.Pods),
			bar(n.used.CPU, n.alloc.CPU), bar(n.used.Memory, n.alloc.Memory))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	s := r.Summary
	fmt.Fprintf(w, "\n%d new %s, %d %s scheduled, %d unschedulable: %.6f %s/hour, %.2f %s/month", s.NewNodes,
		plural(s.NewNodes, "node"), s.ScheduledPods, plural(s.ScheduledPods, "pod"), s.UnschedulablePods, s.PricePerHour, cur, s.PricePerMonth, cur)
	if s.ExistingNodes > 0 {
		fmt.Fprintf(w, " (plus %d existing %s at %.6f %s/hour)", s.ExistingNodes, plural(s.ExistingNodes, "node"), s.ExistingPricePerHour, cur)
	}
	fmt.Fprintln(w)
	r.writeUnschedulable(w)
	return r.writeWarnings(w)
}

func (r *Report) writeUnschedulable(w io.Writer) {
	if len(r.Unschedulable) == 0 {
		return
	}
	fmt.Fprintf(w, "\nUnschedulable pods:\n")
	for _, u := range r.Unschedulable {
		fmt.Fprintf(w, "  %s  %s: %s\n", u.Pod, u.Reason, u.Message)
	}
}

func (r *Report) writeWarnings(w io.Writer) error {
	if len(r.Warnings) == 0 {
		return nil
	}
	_, err := fmt.Fprintf(w, "\nWarnings:\n  %s\n", strings.Join(r.Warnings, "\n  "))
	return err
}

func dash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// bar draws used/capacity as a bar of barWidth cells and a percentage.
func bar(used, capacity int64) string {
	if capacity <= 0 {
		return strings.Repeat("░", barWidth) + "   -"
	}
	frac := float64(used) / float64(capacity)
	full := min(barWidth, max(0, int(frac*barWidth+0.5)))
	return fmt.Sprintf("%s%s %3.0f%%", strings.Repeat("█", full), strings.Repeat("░", barWidth-full), frac*100)
}

func plural(n int, noun string) string {
	if n == 1 {
		return noun
	}
	return noun + "s"
}
