package kube

import (
	"cmp"
	"slices"

	"github.com/nodeplan/nodeplan/instancetypes"
	"github.com/nodeplan/nodeplan/planview"
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
	// Nodes are the NodeClaims to launch, in the plan's order, then the
	// existing nodes that hold pods, in input order.
	Nodes         []ReportNode       `json:"nodes"`
	Unschedulable []UnschedulablePod `json:"unschedulable"`
	// UnschedulableGroups gather Unschedulable by namespace, owner, reason
	// and NodePool, as planview groups them.
	UnschedulableGroups []UnschedulableGroup `json:"unschedulableGroups"`
	Summary             ReportSummary        `json:"summary"`
	// Notes say where the prices came from and how spot is modelled.
	Notes    []string `json:"notes"`
	Warnings []string `json:"warnings"`
	// Headroom reports the CapacityBuffers ([Headroom]); absent without
	// any.
	Headroom []BufferHeadroom `json:"headroom,omitempty"`
	// Preferences report the preferred terms under the budget preference
	// policy ([Preferences]); absent under the others.
	Preferences *ReportPreferences `json:"preferences,omitempty"`
	// Bound is how far the plan's new nodes can be from the cheapest
	// ones placing the same pods ([NewReportBound]); absent where no bound was
	// computed (reports of other commands).
	Bound *ReportBound `json:"bound,omitempty"`
}

// ReportNode is one node of a Report.
type ReportNode struct {
	Name     string `json:"name"`
	Existing bool   `json:"existing"`
	NodePool string `json:"nodePool"`
	// InstanceType, Zone, CapacityType and PricePerHour are the chosen
	// offering (for an existing node, its labels and catalog price).
	// PricePerHour is nil (JSON null) for an existing node whose price is
	// unknown (packing.Node.PriceUnknown).
	InstanceType string   `json:"instanceType"`
	Zone         string   `json:"zone"`
	CapacityType string   `json:"capacityType"`
	PricePerHour *float64 `json:"pricePerHour"`
	// Arch is the instance type's (or the node's) kubernetes.io/arch.
	Arch string `json:"arch,omitempty"`
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
}

// UnschedulablePod is a pod no node or NodePool can take.
type UnschedulablePod struct {
	Pod      string `json:"pod"`
	Reason   string `json:"reason"`
	NodePool string `json:"nodePool,omitempty"`
	Message  string `json:"message"`
}

// UnschedulableGroup is unschedulable pods of one owner that share a
// reason; see [planview.Group].
type UnschedulableGroup struct {
	Namespace string `json:"namespace"`
	// Owner is "Kind/name"; absent for a pod without an owner.
	Owner    string `json:"owner,omitempty"`
	Reason   string `json:"reason"`
	NodePool string `json:"nodePool,omitempty"`
	Message  string `json:"message"`
	Count    int    `json:"count"`
	// Pods are "namespace/name" in plan order.
	Pods []string `json:"pods"`
}

// ReportSummary totals a Report. PricePerHour is the new nodes' price,
// ExistingPricePerHour that of the existing nodes whose price is known;
// ExistingUnknownPrice counts the others. Every price of the report is in
// Currency (an ISO 4217 code).
type ReportSummary struct {
	NewNodes             int     `json:"newNodes"`
	ExistingNodes        int     `json:"existingNodes"`
	ScheduledPods        int     `json:"scheduledPods"`
	UnschedulablePods    int     `json:"unschedulablePods"`
	PricePerHour         float64 `json:"pricePerHour"`
	PricePerMonth        float64 `json:"pricePerMonth"`
	ExistingPricePerHour float64 `json:"existingPricePerHour"`
	ExistingUnknownPrice int     `json:"existingUnknownPrice"`
	Currency             string  `json:"currency"`
}

// HoursPerMonth is the month eks-node-viewer and AWS price pages use.
const HoursPerMonth = instancetypes.HoursPerMonth

// ReportOptions are what a Report says besides the plan. The zero value
// is prices in instancetypes.DefaultCurrency, no notes and no warnings.
type ReportOptions struct {
	// Currency is the ISO 4217 code of the prices; "" is
	// instancetypes.DefaultCurrency.
	Currency string
	// Notes say where the prices came from and how spot is modelled.
	Notes []string
	// Warnings are the objects the input skipped ([Cluster.Warnings]).
	Warnings []string
}

// NewReport describes a plan through its view (planview.New of the
// problem and plan), so that the JSON says what the table says. Notes and
// warnings are copied in. The complexity is linear in the view; v is not
// modified.
func NewReport(v *planview.View, o ReportOptions) Report {
	r := Report{APIVersion: ReportAPIVersion, Kind: ReportKind, Nodes: make([]ReportNode, 0, len(v.Nodes)),
		Unschedulable: make([]UnschedulablePod, 0, len(v.Unschedulable)), UnschedulableGroups: make([]UnschedulableGroup, 0, len(v.Groups)),
		Notes: append([]string{}, o.Notes...), Warnings: append([]string{}, o.Warnings...)}
	for i := range v.Nodes {
		r.Nodes = append(r.Nodes, reportNode(&v.Nodes[i]))
	}
	for _, u := range v.Unschedulable {
		r.Unschedulable = append(r.Unschedulable, UnschedulablePod{Pod: u.Pod,
			Reason: u.Reason.Kind.String(), NodePool: u.Reason.NodePool, Message: u.Reason.Message})
	}
	for _, g := range v.Groups {
		r.UnschedulableGroups = append(r.UnschedulableGroups, UnschedulableGroup{Namespace: g.Namespace, Owner: g.Owner,
			Reason: g.Kind.String(), NodePool: g.NodePool, Message: g.Message, Count: len(g.Pods), Pods: slices.Clone(g.Pods)})
	}
	s := v.Summary
	r.Summary = ReportSummary{NewNodes: s.NewNodes, ExistingNodes: s.ExistingNodes, ScheduledPods: s.ScheduledPods,
		UnschedulablePods: s.UnschedulablePods, PricePerHour: s.Price.Decimal(),
		PricePerMonth: s.Price.MonthlyDecimal(), ExistingPricePerHour: s.ExistingPrice.Decimal(),
		ExistingUnknownPrice: s.Unpriced,
		Currency:             cmp.Or(o.Currency, instancetypes.DefaultCurrency)}
	return r
}

func reportNode(n *planview.Node) ReportNode {
	return ReportNode{Name: n.Name, Existing: n.Existing, NodePool: n.NodePool, InstanceType: n.InstanceType,
		Zone: n.Zone, CapacityType: n.CapacityType.String(), PricePerHour: knownPrice(n), Arch: n.Arch,
		InstanceTypes: slices.Clone(n.InstanceTypes), Requests: Quantities(n.Requests), Allocatable: Quantities(n.Allocatable),
		Pods: slices.Clone(n.Pods)}
}

// knownPrice is n's hourly price, nil when it is unknown.
func knownPrice(n *planview.Node) *float64 {
	if n.PriceUnknown {
		return nil
	}
	p := n.Price.Decimal()
	return &p
}
