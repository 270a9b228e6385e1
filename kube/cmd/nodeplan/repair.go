package main

import (
	"flag"
	"fmt"
	"io"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/nodeplan/nodeplan/instancetypes"
	"github.com/nodeplan/nodeplan/kube"
	"github.com/nodeplan/nodeplan/planview"
	"github.com/nodeplan/nodeplan/repair"
)

// policyFlag is nodeplan repair's repeatable --policy Type=Status:duration.
type policyFlag []repair.Policy

func (p *policyFlag) String() string {
	var out []string
	for _, pol := range *p {
		out = append(out, policyString(pol))
	}
	return strings.Join(out, ",")
}

// Set parses one policy; a bad one is repair.ParsePolicy's *InputError.
func (p *policyFlag) Set(v string) error {
	pol, err := repair.ParsePolicy(v)
	if err != nil {
		return err
	}
	*p = append(*p, pol)
	return nil
}

// repairFlags registers the flags of nodeplan repair besides the common ones.
func repairFlags(fs *flag.FlagSet, c *config) {
	fs.Var(&c.repairPolicies, "policy", "a repair policy `Type=Status:duration` (Ready=False:30m): a node whose condition Type has had Status for longer is replaced; repeatable (default the AWS provider's policies)")
}

// policyString writes p as --policy reads it.
func policyString(p repair.Policy) string {
	return fmt.Sprintf("%s=%s:%s", p.ConditionType, p.ConditionStatus, p.TolerationDuration)
}

// repairReport is the JSON of nodeplan repair -o json; see the command doc
// for the schema.
type repairReport struct {
	APIVersion string `json:"apiVersion"`
	Kind       string `json:"kind"`
	Now        string `json:"now"`
	NowFrom    string `json:"nowFrom"`
	// Policies are the policies decided by, as --policy reads them;
	// PoliciesFrom says whose: "--policy" or "AWS provider defaults".
	Policies     []string      `json:"policies"`
	PoliciesFrom string        `json:"policiesFrom"`
	Nodes        []repairNode  `json:"nodes"`
	NodePools    []poolHealth  `json:"nodePools"`
	Replacements []replacement `json:"replacements"`
	Homes        []home        `json:"homes"`
	Summary      repairSummary `json:"summary"`
	Currency     string        `json:"currency"`
	Notes        []string      `json:"notes"`
	Warnings     []string      `json:"warnings"`
	price        instancetypes.Price
}

type repairNode struct {
	Node     string `json:"node"`
	NodePool string `json:"nodePool"`
	// Condition is "Type=Status" of the condition that matched a policy,
	// empty for a healthy node; UnhealthySince its lastTransitionTime and
	// Deadline when its toleration ends.
	Condition      string `json:"condition,omitempty"`
	UnhealthySince string `json:"unhealthySince,omitempty"`
	Deadline       string `json:"deadline,omitempty"`
	// Action is "replace" or "keep"; Reason is Unhealthy for a replace,
	// else the repair.Reason that keeps the node.
	Action  string `json:"action"`
	Reason  string `json:"reason"`
	Message string `json:"message"`
}

type poolHealth struct {
	NodePool  string `json:"nodePool"`
	Nodes     int    `json:"nodes"`
	Unhealthy int    `json:"unhealthy"`
	Cap       int    `json:"cap"`
	Blocked   bool   `json:"blocked"`
}

type repairSummary struct {
	Replace           int     `json:"replace"`
	Keep              int     `json:"keep"`
	NewNodes          int     `json:"newNodes"`
	MovedPods         int     `json:"movedPods"`
	UnschedulablePods int     `json:"unschedulablePods"`
	PricePerHour      float64 `json:"pricePerHour"`
}

func repairCmd(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	c, s, err := start("repair", args, stdin, stderr)
	if err != nil {
		return fail("repair", err, stdout, stderr)
	}
	r, err := planRepair(s, c.repairPolicies)
	if err != nil {
		return fail("repair", err, stdout, stderr)
	}
	if err := emit(c.output, &r, stdout); err != nil {
		return fail("repair", err, stdout, stderr)
	}
	return exitOK
}

// planRepair decides which nodes of s to repair under policies (none: the
// AWS provider's) and plans their pods' new homes.
func planRepair(s snapshot, policies []repair.Policy) (repairReport, error) {
	in, err := s.cluster.Repair(s.now, policies)
	if err != nil {
		return repairReport{}, err
	}
	res, err := repair.Decide(in)
	if err != nil {
		return repairReport{}, err
	}
	cl, err := s.cluster.RepairCluster(s.catalog)
	if err != nil {
		return repairReport{}, err
	}
	rep, err := repair.Plan(res, cl)
	if err != nil {
		return repairReport{}, err
	}
	return newRepairReport(s, policies, res, rep), nil
}

func newRepairReport(s snapshot, policies []repair.Policy, res repair.Result, rep repair.Replacement) repairReport {
	r := repairReport{APIVersion: kube.ReportAPIVersion, Kind: "RepairReport", Now: stamp(s.now), NowFrom: s.nowFrom,
		PoliciesFrom: "--policy", Nodes: []repairNode{}, NodePools: []poolHealth{}, Replacements: []replacement{},
		Homes: []home{}, Currency: s.prices.currency, Notes: append([]string{}, s.prices.notes...),
		Warnings: append([]string{}, s.cluster.Warnings...), price: rep.Price}
	if len(policies) == 0 {
		policies, r.PoliciesFrom = repair.AWSPolicies(), "AWS provider defaults"
	}
	for _, p := range policies {
		r.Policies = append(r.Policies, policyString(p))
	}
	r.addNodes(res)
	for _, p := range res.Pools {
		r.NodePools = append(r.NodePools, poolHealth{NodePool: p.NodePool, Nodes: p.Total, Unhealthy: p.Unhealthy, Cap: p.Cap, Blocked: p.Blocked})
	}
	for _, nc := range rep.NodeClaims {
		r.Replacements = append(r.Replacements, newReplacement(nc))
	}
	r.addHomes(rep)
	r.Summary = repairSummary{Replace: len(res.Replace), Keep: len(res.Kept), NewNodes: len(rep.NodeClaims),
		MovedPods: len(r.Homes), PricePerHour: rep.Price.Decimal()}
	for _, h := range r.Homes {
		if h.Unschedulable != "" {
			r.Summary.UnschedulablePods++
		}
	}
	return r
}

// addNodes lists every node once, by name: the replaced and the kept.
func (r *repairReport) addNodes(res repair.Result) {
	for _, p := range res.Replace {
		r.Nodes = append(r.Nodes, repairNode{Node: p.Node, NodePool: p.NodePool, Action: "replace", Reason: "Unhealthy",
			Condition: conditionString(p.Condition), UnhealthySince: stamp(p.Condition.LastTransitionTime), Deadline: stamp(p.Deadline),
			Message: fmt.Sprintf("%s since %s, past its %s toleration", conditionString(p.Condition),
				stamp(p.Condition.LastTransitionTime), p.Policy.TolerationDuration)})
	}
	for _, k := range res.Kept {
		n := repairNode{Node: k.Node, NodePool: k.NodePool, Action: "keep", Reason: k.Why.String(), Message: k.Message}
		if k.Condition.Type != "" {
			n.Condition, n.UnhealthySince, n.Deadline = conditionString(k.Condition), stamp(k.Condition.LastTransitionTime), stamp(k.Deadline)
		}
		r.Nodes = append(r.Nodes, n)
	}
	slices.SortFunc(r.Nodes, func(a, b repairNode) int { return strings.Compare(a.Node, b.Node) })
}

func conditionString(c repair.Condition) string { return c.Type + "=" + c.Status.String() }

// addHomes lists where each repaired node's pods go, node by node.
func (r *repairReport) addHomes(rep repair.Replacement) {
	for _, m := range rep.Moves {
		for _, h := range m.Homes {
			r.Homes = append(r.Homes, home{Pod: h.Pod.String(), From: m.Node, Node: h.Node, NodeClaim: h.NodeClaim, Unschedulable: h.Unschedulable})
		}
	}
}

// writeTable prints the nodes with their verdicts, the NodePools against
// the cap, the replacements and where the pods go.
func (r *repairReport) writeTable(w io.Writer) error {
	writeNotes(w, r.Notes)
	fmt.Fprintf(w, "now %s (%s)\npolicies (%s): %s\n\n", r.Now, r.NowFrom, r.PoliciesFrom, strings.Join(r.Policies, ", "))
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "NODE\tNODEPOOL\tCONDITION\tUNHEALTHY SINCE\tDEADLINE\tACTION\tREASON")
	for _, n := range r.Nodes {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\n", n.Node, planview.Dash(n.NodePool), planview.Dash(n.Condition),
			planview.Dash(n.UnhealthySince), planview.Dash(n.Deadline), n.Action, reasonCell(n))
	}
	fmt.Fprintln(tw, "\nNODEPOOL\tNODES\tUNHEALTHY\tCAP (20%)\tREPAIR")
	for _, p := range r.NodePools {
		fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%s\n", poolCell(p.NodePool), p.Nodes, p.Unhealthy, p.Cap, capCell(p))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	sec := newSection(w, "REPLACEMENT\tNODEPOOL\tINSTANCE TYPE\tZONE\tCAPACITY TYPE\t"+r.Currency+"/HOUR")
	for _, c := range r.Replacements {
		sec.row("%s\t%s\t%s\t%s\t%s\t%s", c.Name, c.NodePool, c.InstanceType, c.Zone, c.CapacityType, c.price.Amount())
	}
	sec.flush()
	sec = newSection(w, "POD\tFROM\tTO")
	for _, h := range r.Homes {
		to := h.Node + h.NodeClaim
		if h.Unschedulable != "" {
			to = "unschedulable: " + h.Unschedulable
		}
		sec.row("%s\t%s\t%s", h.Pod, h.From, to)
	}
	sec.flush()
	fmt.Fprintf(w, "\n%s to replace, %d kept; %s for %s, %s\n", planview.Count(r.Summary.Replace, "node"), r.Summary.Keep,
		planview.Count(r.Summary.NewNodes, "new node"), planview.Count(r.Summary.MovedPods, "pod"), r.price.Format(r.Currency))
	return writeWarnings(w, r.Warnings)
}

// reasonCell is the reason with its message.
func reasonCell(n repairNode) string { return n.Reason + ": " + n.Message }

// poolCell names a pool; "" is the nodes of no NodePool, counted over
// the cluster.
func poolCell(name string) string {
	if name == "" {
		return "(none: whole cluster)"
	}
	return name
}

func capCell(p poolHealth) string {
	if p.Blocked {
		return "blocked: more unhealthy nodes than the cap"
	}
	return "allowed"
}
