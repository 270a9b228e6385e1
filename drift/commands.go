package drift

import (
	"cmp"
	"errors"
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
	Forceful bool
	// Replacements are named "<node>-replacement-<k>", k from 1, by
	// disruption.ReplacementName: never a node's name, always a label
	// value (a long node name is cut and hashed).
	Replacements []packing.NodeClaim
	Homes        []disruption.Home
	// Deadline is when the node's terminationGracePeriod ends and its last
	// pods are deleted; zero when the NodePool sets none.
	Deadline time.Time
	// PodDeadlines give every pod of the node, daemonset pods included,
	// in the node's pod order, when it is deleted at the latest; nil when
	// Deadline is zero.
	PodDeadlines []PodDeadline
}

// PodDeadline is when a pod is deleted at the latest so that its own grace
// period ends by the node's Deadline: the Deadline less the pod's
// terminationGracePeriodSeconds, and not before the command's time.
type PodDeadline struct {
	Pod      disruption.PodRef
	DeleteAt time.Time
	// Protected, when not empty, says why the pod blocks its eviction now
	// (an active karpenter.sh/do-not-disrupt, a PodDisruptionBudget that
	// allows no disruption or is one of several matching it). Karpenter's
	// termination does not evict such a pod while that holds: it leaves
	// by DeleteAt, when it is deleted, unless the protection lapses first.
	// A budgeted drift command of a NodePool with a terminationGracePeriod
	// (see [Commands]) runs only with such pods bounded this way.
	Protected string
}

// Blocked is a node with findings that Commands leaves alone, and why.
type Blocked struct {
	Node, NodePool string
	Reason         Reason
	// Message is a sentence for people saying why.
	Message string
}

// candidate is a node with findings, grouped for Commands.
type candidate struct {
	node     string
	state    *NodeClaimState // nil when the node is not in the cluster
	findings []Finding
	forceful bool
	since    time.Time
}

func (c *candidate) name() string { return c.node }

// pool is the node's NodePool, or the first finding's when the node is
// not in the cluster.
func (c *candidate) pool() string {
	if c.state == nil {
		return c.findings[0].NodePool
	}
	return c.state.Node.NodePool
}

// blocked is c's Blocked entry, saying why.
func (c *candidate) blocked(why string) Blocked {
	return Blocked{Node: c.name(), NodePool: c.pool(), Reason: c.findings[0].Reason, Message: why}
}

// budgetReason is Expired when an expiry decides, else Drifted.
func (c *candidate) budgetReason() disruption.Reason {
	if c.forceful || !c.findings[0].Reason.Drift() {
		return c.findings[0].Reason.Budget()
	}
	return disruption.Drifted
}

// Commands turns findings into replacement commands for cl at cl.Now, one
// command at a time, each decided on the cluster as the commands before it
// leave it: their nodes emptied and marked for deletion, their pods on the
// homes the simulation gave them, their replacements in flight. This is
// the cluster Karpenter sees when it computes its next drift command, with
// the earlier commands carried out.
//
// The next command goes, in Karpenter's order, to the forceful candidates
// (forceful expiration, interruption) first, then to the budgeted ones;
// within each, to nodes empty now (no reschedulable pods, counting the
// pods earlier commands moved there) before others and, within those, to
// the oldest finding first (ties by name). A budgeted command needs its
// pool's budget for its reason (disruption.AllowedDisruptions on the
// cluster with the forceful candidates marked for deletion, each budgeted
// command consuming one), a node without an active do-not-disrupt, no
// do-not-disrupt pod and no blocking PodDisruptionBudget among the pods
// the node runs now (including those an earlier command, forceful or not,
// moved onto it), and a home for every pod in the simulation
// (packing.Solve on that cluster, where nodes not yet initialized take no
// pods). PodDisruptionBudgets are read as given: a moved pod counts as
// healthy on its new home. Every command's node must be in cl, of a
// NodePool of cl, and not already being deleted. Every node with findings
// and no command gets a Blocked entry saying why.
//
// Eventual disruption, as Karpenter's drift: a budgeted command charged to
// the Drifted budget, of a NodePool whose terminationGracePeriod is
// positive, is not blocked by its pods' do-not-disrupt nor by their
// PodDisruptionBudgets, since the grace period bounds how long they can
// hold the node: its PodDeadlines mark them Protected and say when each is
// deleted at the latest. The grace period is the NodePool's (Karpenter
// reads the NodeClaim's copy of it, made at launch). The node's own do-not-disrupt, the budgets and
// the homes still apply, and every pod, protected or not, still needs a
// home (Karpenter leaves do-not-disrupt pods and pods under a fully
// blocking PodDisruptionBudget out of its simulation; nodeplan finds them
// the home they will need by the deadline). Graceful expiration (reason
// Expired) is not eventual: protected pods block it until it turns
// forceful.
//
// Commands first validates its input: when [Cluster.Validate] rejects cl
// or a finding is one Commands cannot act on (an empty Node, a Reason that
// is not one of the package's, the zero Reason included, a Since after
// now, a forceful drift, an interruption that is not forceful, a Deadline
// on anything but an expiration or before its Since, a graceful expiration
// without a Deadline), it returns no command, no Blocked
// entry and the errors, joined, each naming the object and field and
// wrapping [ErrInvalid]. On valid input these readings hold: a finding for
// a node not in cl is stale (the node went away since the findings were
// made) and gets a Blocked entry saying so; the node's NodePool in cl
// decides its budget and Command.NodePool, and a Finding's NodePool is read
// only for that stale entry; a node is forceful when any of its findings
// is, whatever its Reason.
//
// Commands does not modify its arguments. The complexity is one
// packing.Solve per candidate that passes the cheaper checks (which checks
// only the pods it moves and the nodes in flight, not the validated
// cluster again), plus O(candidates²) to pick the next one (whether a node
// is empty is kept as a count, not scanned), plus Cluster.Validate once.
func Commands(findings []Finding, cl Cluster) ([]Command, []Blocked, error) {
	now := cl.Now
	if err := errors.Join(cl.Validate(), validateFindings(findings, now)); err != nil {
		return nil, nil, err
	}
	cands, blocked := group(findings, cl.Nodes)
	p := &planner{cl: cl, now: now, sim: newSim(cl, cl.Catalog), budgets: newBudgets(cl, cands, now)}
	var cmds []Command
	for len(cands) > 0 {
		k := p.next(cands)
		c := cands[k]
		cands = slices.Delete(cands, k, k+1)
		if cmd, why := p.command(c); why != "" {
			blocked = append(blocked, c.blocked(why))
		} else {
			cmds = append(cmds, cmd)
		}
	}
	return cmds, blocked, nil
}

// planner is the state of one Commands call.
type planner struct {
	cl      Cluster
	now     time.Time
	sim     *sim
	budgets *budgets
	graces  map[string]time.Duration
}

// group collects the findings per node, in the order of their first
// finding, and blocks the nodes that are not in the cluster.
func group(findings []Finding, states []NodeClaimState) ([]*candidate, []Blocked) {
	byName := make(map[string]*candidate)
	var cands []*candidate
	for _, f := range findings {
		c, ok := byName[f.Node]
		if !ok {
			c = &candidate{node: f.Node, since: f.Since}
			if i := slices.IndexFunc(states, func(s NodeClaimState) bool { return s.Node.Name == f.Node }); i >= 0 {
				c.state = &states[i]
			}
			byName[f.Node] = c
			cands = append(cands, c)
		}
		c.add(f)
	}
	var blocked []Blocked
	cands = slices.DeleteFunc(cands, func(c *candidate) bool {
		if c.state == nil {
			blocked = append(blocked, c.blocked(fmt.Sprintf("Node %s is not in the cluster.", c.node)))
		}
		return c.state == nil
	})
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

// next returns the index of the candidate that goes next: forceful first,
// then empty now, then the oldest finding, then by name.
func (p *planner) next(cands []*candidate) int {
	best, bestEmpty := 0, p.sim.empty(cands[0].name())
	for k := 1; k < len(cands); k++ {
		a, b := cands[k], cands[best]
		empty := p.sim.empty(a.name())
		if cmp.Or(boolFirst(a.forceful, b.forceful), boolFirst(empty, bestEmpty), a.since.Compare(b.since),
			strings.Compare(a.name(), b.name())) < 0 {
			best, bestEmpty = k, empty
		}
	}
	return best
}

// boolFirst orders true before false.
func boolFirst(a, b bool) int {
	switch {
	case a == b:
		return 0
	case a:
		return -1
	}
	return 1
}

// command builds the command for c on the cluster the commands so far
// leave, and applies it; or says why there is none.
func (p *planner) command(c *candidate) (Command, string) {
	n, why := p.current(c)
	if why != "" {
		return Command{}, why
	}
	if !c.forceful {
		if why := p.voluntaryBlock(c, n); why != "" {
			return Command{}, why
		}
	}
	names := []string{c.name()}
	pods := p.sim.reschedulable(names)
	plan, err := p.sim.place(names, pods)
	if err != nil {
		return Command{}, fmt.Sprintf("The simulation of node %s's pods failed: %v.", c.name(), err)
	}
	if len(plan.Unschedulable) > 0 && !c.forceful {
		return Command{}, unschedulable(c.name(), plan, pods)
	}
	p.sim.rename(&plan, c.name())
	cmd := Command{Node: c.name(), NodePool: c.pool(), Reason: c.budgetReason(), Findings: c.findings,
		Forceful: c.forceful, Replacements: plan.NodeClaims, Homes: disruption.Homes(plan, pods)}
	cmd.Deadline, cmd.PodDeadlines = p.deadlines(c, n.Pods)
	p.sim.apply(names, plan, pods)
	if !c.forceful {
		p.budgets.used[c.pool()]++
	}
	return cmd, ""
}

// current returns c's node as the commands so far leave it, or why no
// command may take it.
func (p *planner) current(c *candidate) (packing.Node, string) {
	n := p.sim.Nodes()[p.sim.Index(c.name())]
	switch {
	case n.MarkedForDeletion:
		return n, fmt.Sprintf("Node %s is already being deleted.", n.Name)
	case !slices.ContainsFunc(p.cl.NodePools, func(t Template) bool { return t.NodePool.Name == n.NodePool }):
		return n, fmt.Sprintf("Node %s belongs to no NodePool of the cluster (%q).", n.Name, n.NodePool)
	}
	return n, ""
}

func unschedulable(node string, plan packing.Plan, pods []packing.Pod) string {
	u := plan.Unschedulable[0]
	return fmt.Sprintf("Node %s cannot be replaced: %d of its pods would have no home, pod %s first: %s",
		node, len(plan.Unschedulable), pods[u.Pod].Key(), u.Reason.Message)
}

// voluntaryBlock returns why a budgeted candidate may not go now, judged
// on its node n as the earlier commands left it: the node's do-not-disrupt,
// its pods' protection unless the candidate is eventual, then the budget.
func (p *planner) voluntaryBlock(c *candidate, n packing.Node) string {
	if ok, why := disruption.NodeBlocks(n); ok {
		return why
	}
	if !p.eventual(c) {
		if why := p.podsBlock(n.Pods); why != "" {
			return why
		}
	}
	return p.budgets.check(c.pool(), c.budgetReason())
}

// eventual reports whether c is Karpenter's eventual disruption: budgeted,
// charged to the Drifted budget, of a NodePool with a positive
// terminationGracePeriod. Its pods' protection does not block it.
func (p *planner) eventual(c *candidate) bool {
	return !c.forceful && c.budgetReason() == disruption.Drifted &&
		poolOf(p.cl.NodePools, c.pool()).Disruption.TerminationGracePeriod > 0
}

// podsBlock returns why pods block their node's voluntary disruption: the
// first with an active do-not-disrupt, else the first reschedulable one a
// PodDisruptionBudget protects; "" when none does.
func (p *planner) podsBlock(pods []packing.Pod) string {
	for _, pod := range pods {
		if ok, why := disruption.PodBlocks(pod, p.now); ok {
			return why
		}
	}
	for j := range pods { // PDBBlocks checks pods one at a time: the first that blocks
		if pods[j].Reschedulable() {
			if ok, why := disruption.PDBBlocks(pods[j:j+1], p.cl.PDBs); ok {
				return why
			}
		}
	}
	return ""
}

func poolOf(ts []Template, name string) packing.NodePool {
	if i := slices.IndexFunc(ts, func(t Template) bool { return t.NodePool.Name == name }); i >= 0 {
		return ts[i].NodePool
	}
	return packing.NodePool{}
}

// deadlines computes the node's terminationGracePeriod deadline from now and
// for every pod it runs the latest deletion that lets its own grace period
// end by it, and whether the pod is protected from eviction.
func (p *planner) deadlines(c *candidate, pods []packing.Pod) (time.Time, []PodDeadline) {
	tgp := poolOf(p.cl.NodePools, c.pool()).Disruption.TerminationGracePeriod
	if tgp <= 0 {
		return time.Time{}, nil
	}
	end := p.now.Add(tgp)
	out := make([]PodDeadline, 0, len(pods))
	for i := range pods {
		ref := disruption.Ref(&pods[i])
		at := end.Add(-p.grace(c.state, ref))
		if at.Before(p.now) {
			at = p.now
		}
		out = append(out, PodDeadline{Pod: ref, DeleteAt: at, Protected: p.podsBlock(pods[i : i+1])})
	}
	return end, out
}

// grace is the pod's terminationGracePeriod: as its node's state records
// it, else as the state of any node records it (a pod an earlier command
// moved), else DefaultPodGracePeriod.
func (p *planner) grace(s *NodeClaimState, ref disruption.PodRef) time.Duration {
	if g, ok := s.PodGracePeriods[ref.String()]; ok {
		return g
	}
	if p.graces == nil {
		p.graces = map[string]time.Duration{}
		for _, st := range p.cl.Nodes {
			for k, g := range st.PodGracePeriods {
				if _, seen := p.graces[k]; !seen {
					p.graces[k] = g
				}
			}
		}
	}
	if g, ok := p.graces[ref.String()]; ok {
		return g
	}
	return DefaultPodGracePeriod
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
