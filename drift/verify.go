package drift

import (
	"slices"
	"time"

	"github.com/nodeplan/nodeplan/disruption"
	"github.com/nodeplan/nodeplan/internal/enum"
	"github.com/nodeplan/nodeplan/packing"
)

// Rule names the property of a valid command sequence that a [Violation]
// breaks. The zero Rule is RuleNode.
type Rule uint8

const (
	// RuleNode: a command's node is not in the cluster, has no NodePool,
	// or was already replaced (by the cluster or an earlier command).
	RuleNode Rule = iota
	// RuleHomes: a displaced pod has no home or several, or a home names
	// an unknown pod, not exactly one target, a claim that is not among the
	// replacements, or is Unschedulable in a budgeted command
	// (consolidation's RuleHomes).
	RuleHomes
	// RulePacking: the displaced pods on their homes break a rule of
	// [verify.Plan]; Violation.Packing says which (consolidation's
	// RulePacking).
	RulePacking
	// RuleUninitialized: a budgeted command sends a pod to a node that is
	// not initialized.
	RuleUninitialized
	// RuleDoNotDisrupt: a budgeted command's node has an active
	// karpenter.sh/do-not-disrupt, or one of its pods has and the command
	// is not eventual.
	RuleDoNotDisrupt
	// RulePDB: a PodDisruptionBudget blocks a budgeted command's evictions
	// and the command is not eventual.
	RulePDB
	// RuleBudget: the budgeted commands exceed, or meet an invalid,
	// disruption budget.
	RuleBudget
	// RuleReplacement: a replacement has no name, the name (its
	// hostname) of a node in the cluster, of an earlier command's
	// replacement or of another replacement of the command, or a name
	// that is not a label value.
	RuleReplacement
	// RuleDeadline: an eventual command goes past a protected pod without
	// bounding it: its Deadline is zero or after now plus the NodePool's
	// terminationGracePeriod, or the pod has no PodDeadline by it.
	RuleDeadline
)

var verifyRuleNames = [...]string{"Node", "Homes", "Packing", "Uninitialized", "DoNotDisrupt", "PDB", "Budget", "Replacement", "Deadline"}

// String returns the rule's name without the prefix, such as "Budget".
func (r Rule) String() string { return enum.String(r, "Rule", verifyRuleNames[:]) }

// Nests reports whether a violation of r carries the packing rule of the
// simulated home that broke (RulePacking).
func (r Rule) Nests() bool { return r == RulePacking }

// Violation is one broken property of a command sequence (see
// [disruption.CommandViolation]). The zero Violation is a RuleNode about
// command 0 with no message.
type Violation = disruption.CommandViolation[Rule]

// VerifyCommands checks that executing cmds in order on c at c.Now is safe,
// and returns every violation found, sorted by command, rule, node, pod and
// message; nil means the commands are valid. It is an independent re-check
// of [Commands] and shares none of its code. Each command is applied to the
// cluster the earlier ones leave (its node marked for deletion and emptied,
// its pods moved to their Homes, its replacements added as in-flight
// nodes) and must satisfy:
//
//   - its node is a node of a NodePool, not already being deleted;
//   - every replacement has a name no node of the cluster, no earlier
//     replacement and no other replacement of the command has, and that
//     is a label value (a node's hostname);
//   - every reschedulable pod of the node has exactly one Home, naming one
//     existing node or replacement; only forceful commands may leave a pod
//     Unschedulable;
//   - the homed pods pass [verify.Plan] on their homes (capacity,
//     affinity, taints, topology, limits, offerings), except the claim
//     Requests and price accounting; budgeted commands send no pod to a
//     node that is not initialized;
//   - a budgeted (not Forceful) command's node has no active
//     do-not-disrupt ([disruption.NodeBlocks]), and per NodePool the
//     budgeted commands so far stay within [disruption.AllowedDisruptions]
//     for each command's Reason, on c with the forceful commands' nodes
//     marked for deletion;
//   - a budgeted command's pods as the earlier commands left them (those
//     moved onto it included, daemonset pods too) have no active
//     do-not-disrupt ([disruption.PodBlocks]), and no reschedulable one
//     has a blocking PodDisruptionBudget ([disruption.PDBBlocks], pod by
//     pod, on the PDBs as given); except in an eventual command (Reason
//     Drifted, of a NodePool with a positive terminationGracePeriod),
//     where such pods are allowed if bounded: the command's Deadline is
//     set and not after now plus the grace period, and each such pod has
//     a PodDeadline not after the Deadline.
//
// Topology is replayed in Homes order; when that breaks a constraint,
// VerifyCommands looks greedily for an order in which every step holds
// (up to 64 pods). The complexity is one verify.Plan per command, or
// O(P²) for P pods when the order is searched. VerifyCommands never
// panics, does not modify its arguments and is safe for concurrent use.
func VerifyCommands(c Cluster, cmds []Command) []Violation {
	v := newCmdVerifier(c, cmds)
	for i, cmd := range cmds {
		v.command(i, cmd)
	}
	return v.Violations()
}

// cmdVerifier is drift's checker on the shared core: the cluster as the
// commands so far leave it, and the input the budgets are judged on.
type cmdVerifier struct {
	*disruption.Verifier[Rule]
	c       Cluster
	initial []packing.Node // the input, forceful commands' nodes marked
}

func newCmdVerifier(c Cluster, cmds []Command) *cmdVerifier {
	nodes := make([]packing.Node, 0, len(c.Nodes))
	for _, s := range c.Nodes {
		nodes = append(nodes, s.Node)
	}
	v := &cmdVerifier{Verifier: disruption.NewVerifier[Rule](nodes, c.Now), c: c, initial: slices.Clone(nodes)}
	for _, cmd := range cmds {
		if j := v.Index(cmd.Node); cmd.Forceful && j >= 0 {
			v.initial[j].MarkedForDeletion = true
		}
	}
	for i := range c.NodePools {
		v.AddPool(&c.NodePools[i].NodePool)
	}
	return v
}

func (v *cmdVerifier) command(i int, cmd Command) {
	j := v.Index(cmd.Node)
	if why := v.unfit(j); why != "" {
		v.Add(i, RuleNode, cmd.Node, "", "node %s %s", cmd.Node, why)
		return
	}
	if !cmd.Forceful {
		v.checkProtected(i, cmd, v.Nodes[j])
		v.checkBudget(i, cmd, v.Nodes[j].NodePool)
	}
	v.CheckNames(i, RuleReplacement, cmd.Replacements)
	h := v.homes(i, cmd, j)
	v.CheckMoves(i, RulePacking, h)
	v.apply(j, h)
}

// unfit says why node j may not be a command's node, or "".
func (v *cmdVerifier) unfit(j int) string {
	if j < 0 {
		return "is not in the cluster"
	}
	return v.Unfit(j)
}

// checkProtected checks a budgeted command against the do-not-disrupt of
// its node n and the protection of n's pods.
func (v *cmdVerifier) checkProtected(i int, cmd Command, n packing.Node) {
	if blocked, why := disruption.NodeBlocks(n); blocked {
		v.Add(i, RuleDoNotDisrupt, n.Name, "", "%s", why)
	}
	for _, p := range n.Pods {
		if blocked, why := disruption.PodBlocks(p, v.Now); blocked {
			v.protectedPod(i, cmd, n, p, RuleDoNotDisrupt, why)
		}
	}
	for j, p := range n.Pods {
		if !p.Reschedulable() {
			continue
		}
		if blocked, why := disruption.PDBBlocks(n.Pods[j:j+1], v.c.PDBs); blocked {
			v.protectedPod(i, cmd, n, p, RulePDB, "node "+n.Name+": "+why)
		}
	}
}

// protectedPod reports pod p of node n, protected for why: under rule r,
// unless the command is eventual; then under RuleDeadline, unless the
// command bounds the pod by its deadlines.
func (v *cmdVerifier) protectedPod(i int, cmd Command, n packing.Node, p packing.Pod, r Rule, why string) {
	ref := disruption.Ref(&p)
	grace := v.Pool(n.NodePool).Disruption.TerminationGracePeriod
	if cmd.Reason != disruption.Drifted || grace <= 0 {
		v.Add(i, r, n.Name, ref.String(), "%s", why)
		return
	}
	k := slices.IndexFunc(cmd.PodDeadlines, func(d PodDeadline) bool { return d.Pod == ref })
	switch {
	case cmd.Deadline.IsZero() || cmd.Deadline.After(v.Now.Add(grace)):
		v.Add(i, RuleDeadline, n.Name, ref.String(), "%s, and the eventual command's deadline %s is not within the terminationGracePeriod %s of node %s",
			why, stamp(cmd.Deadline), grace, n.Name)
	case k < 0 || cmd.PodDeadlines[k].DeleteAt.After(cmd.Deadline):
		v.Add(i, RuleDeadline, n.Name, ref.String(), "%s, and the eventual command does not delete pod %s by its deadline %s",
			why, ref, stamp(cmd.Deadline))
	}
}

// stamp formats t for a message; the zero time is "none".
func stamp(t time.Time) string {
	if t.IsZero() {
		return "none"
	}
	return t.UTC().Format(time.RFC3339)
}

// checkBudget charges the command to its pool and compares the running
// total with what the pool allows for the command's reason.
func (v *cmdVerifier) checkBudget(i int, cmd Command, pool string) {
	charged := v.Charge(pool)
	allowed, err := disruption.AllowedDisruptions(*v.Pool(pool), v.initial, cmd.Reason, v.Now)
	switch {
	case err != nil:
		v.Add(i, RuleBudget, cmd.Node, "", "NodePool %s has an invalid disruption budget: %v", pool, err)
	case charged > allowed:
		v.Add(i, RuleBudget, cmd.Node, "", "NodePool %s allows %d %s disruptions, but the budgeted commands up to this one disrupt %d of its nodes",
			pool, allowed, cmd.Reason, charged)
	}
}
