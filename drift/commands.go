package drift

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/nodeplan/nodeplan/disruption"
	"github.com/nodeplan/nodeplan/packing"
)

// DefaultPodGracePeriod is a pod's terminationGracePeriodSeconds when
// NodeClaimState.PodGracePeriods does not name it: Kubernetes' 30s.
const DefaultPodGracePeriod = 30 * time.Second

// Cluster is what Commands needs besides the findings: the Input they came
// from, the daemonsets (for the simulation) and the PodDisruptionBudgets.
type Cluster struct {
	Input
	DaemonSets []packing.DaemonSet
	PDBs       []disruption.PDB
}

// Command replaces one node: delete it once its pods have the homes the
// simulation found, launching Replacements first.
type Command struct {
	Node, NodePool string
	// Reason is the budget the command is charged to: Drifted or Expired.
	Reason disruption.Reason
	// Findings are every finding of the node; the first decided.
	Findings []Finding
	// Forceful commands were not budgeted and ignore do-not-disrupt and
	// PodDisruptionBudgets (Karpenter v1 expiration).
	Forceful     bool
	Replacements []packing.NodeClaim
	Homes        []Home
	// Deadline is when the node's terminationGracePeriod ends and its last
	// pods are deleted; zero when the NodePool sets none.
	Deadline     time.Time
	PodDeadlines []PodDeadline
}

// PodDeadline is when a pod is deleted at the latest so that its own grace
// period ends by the node's Deadline.
type PodDeadline struct {
	Pod      PodRef
	DeleteAt time.Time
}

// Blocked is a node with findings that Commands leaves alone, and why.
type Blocked struct {
	Node, NodePool string
	Reason         Reason
	Why            string
}

// candidate is a node with findings, grouped for Commands.
type candidate struct {
	state    *NodeClaimState
	findings []Finding
	forceful bool
	since    time.Time
	empty    bool
}

func (c *candidate) name() string { return c.state.Node.Name }
func (c *candidate) pool() string { return c.state.Node.NodePool }

// budgetReason is Expired when an expiry decides, else Drifted.
func (c *candidate) budgetReason() disruption.Reason {
	if c.forceful || !c.findings[0].Reason.Drift() {
		return c.findings[0].Reason.Budget()
	}
	return disruption.Drifted
}

// Commands turns findings into replacement commands for cl at now, in
// Karpenter's order: forceful ones (expiration) first, then the budgeted
// ones, empty nodes before others and, within each, the oldest finding first
// (ties by name). A budgeted command needs its pool's budget for its reason
// (disruption.AllowedDisruptions on the cluster after the forceful commands,
// each command consuming one), no do-not-disrupt node or pod, no blocking
// PodDisruptionBudget, and a home for every pod in the simulation
// (packing.Solve on the cluster as the earlier commands leave it). Every node
// with findings and no command gets a Blocked entry saying why.
//
// Commands does not modify its arguments. The complexity is one
// packing.Solve per candidate that passes the cheaper checks.
func Commands(findings []Finding, cl Cluster, now time.Time) ([]Command, []Blocked) {
	cands, blocked := group(findings, cl.Nodes)
	s := newSim(cl.Nodes, cl.NodePools, cl.Catalog, cl.DaemonSets)
	b := newBudgets(cl, cands, now)
	var cmds []Command
	for _, c := range cands {
		cmd, why := command(c, s, b, cl, now)
		if why != "" {
			blocked = append(blocked, Blocked{Node: c.name(), NodePool: c.pool(), Reason: c.findings[0].Reason, Why: why})
			continue
		}
		cmds = append(cmds, cmd)
	}
	return cmds, blocked
}

// group collects the findings per node and orders the candidates.
func group(findings []Finding, states []NodeClaimState) ([]*candidate, []Blocked) {
	byName := make(map[string]*candidate)
	var cands []*candidate
	var blocked []Blocked
	for _, f := range findings {
		c, ok := byName[f.Node]
		if !ok {
			i := slices.IndexFunc(states, func(s NodeClaimState) bool { return s.Node.Name == f.Node })
			if i < 0 {
				blocked = append(blocked, Blocked{Node: f.Node, NodePool: f.NodePool, Reason: f.Reason,
					Why: fmt.Sprintf("Node %s is not in the cluster.", f.Node)})
				continue
			}
			c = &candidate{state: &states[i], since: f.Since, empty: len(reschedulablePods(states[i].Node.Pods)) == 0}
			byName[f.Node] = c
			cands = append(cands, c)
		}
		c.add(f)
	}
	slices.SortStableFunc(cands, compareCandidates)
	return cands, blocked
}

func (c *candidate) add(f Finding) {
	if f.Forceful && !c.forceful {
		c.forceful = true
		c.findings = append([]Finding{f}, c.findings...)
		c.since = f.Since
		return
	}
	c.findings = append(c.findings, f)
	if !c.forceful && f.Since.Before(c.since) {
		c.since = f.Since
	}
}

func compareCandidates(a, b *candidate) int {
	if a.forceful != b.forceful {
		return boolFirst(a.forceful)
	}
	if a.empty != b.empty {
		return boolFirst(a.empty)
	}
	return cmp.Or(a.since.Compare(b.since), strings.Compare(a.name(), b.name()))
}

func boolFirst(a bool) int {
	if a {
		return -1
	}
	return 1
}

func reschedulablePods(pods []packing.Pod) []packing.Pod {
	var out []packing.Pod
	for _, p := range pods {
		if !strings.HasPrefix(p.Owner, "DaemonSet/") {
			out = append(out, p)
		}
	}
	return out
}

// command builds the command for c, or says why there is none.
func command(c *candidate, s *sim, b *budgets, cl Cluster, now time.Time) (Command, string) {
	if !c.forceful {
		if why := voluntaryBlock(c, b, cl, now); why != "" {
			return Command{}, why
		}
	}
	names := []string{c.name()}
	pods := s.reschedulable(names)
	plan, err := s.place(names, pods)
	if err != nil {
		return Command{}, fmt.Sprintf("The simulation of node %s's pods failed: %v.", c.name(), err)
	}
	if len(plan.Unschedulable) > 0 && !c.forceful {
		return Command{}, unschedulable(c.name(), plan, pods)
	}
	rename(&plan, c.name())
	s.apply(names, plan, pods)
	if !c.forceful {
		b.used[c.pool()]++
	}
	cmd := Command{Node: c.name(), NodePool: c.pool(), Reason: c.budgetReason(), Findings: c.findings,
		Forceful: c.forceful, Replacements: plan.NodeClaims, Homes: homes(plan, pods)}
	cmd.Deadline, cmd.PodDeadlines = deadlines(c.state, poolOf(cl.NodePools, c.pool()), now)
	return cmd, ""
}

func unschedulable(node string, plan packing.Plan, pods []packing.Pod) string {
	u := plan.Unschedulable[0]
	return fmt.Sprintf("Node %s cannot be replaced: %d of its pods would have no home, pod %s first: %s",
		node, len(plan.Unschedulable), refOf(&pods[u.Pod]), u.Reason.Message)
}

// voluntaryBlock returns why a budgeted candidate may not go now.
func voluntaryBlock(c *candidate, b *budgets, cl Cluster, now time.Time) string {
	n := &c.state.Node
	if ok, why := disruption.NodeBlocks(*n); ok {
		return why
	}
	for _, p := range n.Pods {
		if ok, why := disruption.PodBlocks(p, now); ok {
			return why
		}
	}
	if ok, why := disruption.PDBBlocks(reschedulablePods(n.Pods), cl.PDBs); ok {
		return why
	}
	return b.check(c.pool(), c.budgetReason())
}

func poolOf(ts []Template, name string) packing.NodePool {
	if i := slices.IndexFunc(ts, func(t Template) bool { return t.NodePool.Name == name }); i >= 0 {
		return ts[i].NodePool
	}
	return packing.NodePool{}
}

// deadlines computes the node's terminationGracePeriod deadline from now and
// for every pod the latest deletion that lets its own grace period end by it.
func deadlines(s *NodeClaimState, np packing.NodePool, now time.Time) (time.Time, []PodDeadline) {
	tgp := np.Disruption.TerminationGracePeriod
	if tgp <= 0 {
		return time.Time{}, nil
	}
	end := now.Add(tgp)
	out := make([]PodDeadline, 0, len(s.Node.Pods))
	for i := range s.Node.Pods {
		ref := refOf(&s.Node.Pods[i])
		grace, ok := s.PodGracePeriods[ref.String()]
		if !ok {
			grace = DefaultPodGracePeriod
		}
		at := end.Add(-grace)
		if at.Before(now) {
			at = now
		}
		out = append(out, PodDeadline{Pod: ref, DeleteAt: at})
	}
	return end, out
}

// budgets tracks how much of each pool's allowance the commands used.
type budgets struct {
	nodes   []packing.Node
	pools   []Template
	now     time.Time
	allowed map[[2]string]int
	errs    map[[2]string]error
	used    map[string]int
}

// newBudgets computes allowances on the cluster with the forceful
// candidates already marked for deletion, as they will be.
func newBudgets(cl Cluster, cands []*candidate, now time.Time) *budgets {
	nodes := make([]packing.Node, len(cl.Nodes))
	for i := range cl.Nodes {
		nodes[i] = cl.Nodes[i].Node
	}
	for _, c := range cands {
		if i := slices.IndexFunc(nodes, func(n packing.Node) bool { return n.Name == c.name() }); c.forceful && i >= 0 {
			nodes[i].MarkedForDeletion = true
		}
	}
	return &budgets{nodes: nodes, pools: cl.NodePools, now: now, allowed: map[[2]string]int{},
		errs: map[[2]string]error{}, used: map[string]int{}}
}

// check returns "" when the pool's budget for reason has room.
func (b *budgets) check(pool string, reason disruption.Reason) string {
	key := [2]string{pool, reason.String()}
	allowed, seen := b.allowed[key]
	if !seen {
		var err error
		allowed, err = disruption.AllowedDisruptions(poolOf(b.pools, pool), b.nodes, reason, b.now)
		b.allowed[key], b.errs[key] = allowed, err
	}
	if err := b.errs[key]; err != nil {
		return fmt.Sprintf("NodePool %s has an invalid disruption budget: %v.", pool, err)
	}
	if b.used[pool] >= allowed {
		return fmt.Sprintf("NodePool %s's disruption budget for %s allows %d node(s) now, and %d are taken.",
			pool, reason, allowed, b.used[pool])
	}
	return ""
}
