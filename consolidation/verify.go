package consolidation

import (
	"slices"

	"github.com/nodeplan/nodeplan/disruption"
	"github.com/nodeplan/nodeplan/instancetypes"
	"github.com/nodeplan/nodeplan/internal/enum"
	"github.com/nodeplan/nodeplan/internal/sat"
	"github.com/nodeplan/nodeplan/packing"
)

// Rule names the property of a valid command sequence that a [Violation]
// breaks. The zero Rule is RuleCandidate.
type Rule uint8

const (
	// RuleCandidate: a candidate is not a node of the cluster, has no
	// NodePool, is not initialized, is already being deleted (by the
	// cluster or an earlier command), or is listed twice.
	RuleCandidate Rule = iota
	// RuleHomes: a displaced pod has no home or several, or a home names
	// an unknown pod, no target, both targets, or a claim that is not
	// among the command's replacements (drift's RuleHomes).
	RuleHomes
	// RulePacking: the displaced pods on their new homes break a rule of
	// [verify.Plan]; Violation.Packing says which (drift's RulePacking).
	RulePacking
	// RuleUninitialized: a pod is placed on a node that is not initialized.
	RuleUninitialized
	// RuleDoNotDisrupt: a candidate node or one of its pods has an active
	// karpenter.sh/do-not-disrupt.
	RuleDoNotDisrupt
	// RulePDB: a PodDisruptionBudget blocks evicting a candidate's pods.
	RulePDB
	// RuleBudget: a NodePool's disruption budget is exceeded or invalid.
	RuleBudget
	// RuleCost: the replacements cost more than the candidates, or
	// Savings is not the difference, or a candidate of unknown price is
	// replaced, or Unpriced does not count those candidates.
	RuleCost
	// RuleReplacement: a replacement has no name, the name (its
	// hostname) of a node in the cluster (a candidate or an earlier
	// command's replacement included) or of another replacement of the
	// command, or a name that is not a label value.
	RuleReplacement
)

var verifyRuleNames = [...]string{"Candidate", "Homes", "Packing", "Uninitialized", "DoNotDisrupt", "PDB", "Budget", "Cost", "Replacement"}

// String returns the rule's name without the prefix, such as "Budget".
func (r Rule) String() string { return enum.String(r, "Rule", verifyRuleNames[:]) }

// Nests reports whether a violation of r carries the packing rule of the
// simulated home that broke (RulePacking).
func (r Rule) Nests() bool { return r == RulePacking }

// Violation is one broken property of a command sequence (see
// [disruption.CommandViolation]). The zero Violation is a RuleCandidate about
// command 0 with no message.
type Violation = disruption.CommandViolation[Rule]

// VerifyCommands checks that executing cmds in order on c is safe, and
// returns every violation found, sorted by command, rule, node, pod and
// message; nil means the commands are valid. It is an independent re-check
// of [Plan] and shares none of its planning code. Each command is applied
// to the cluster the earlier ones leave (candidates marked for deletion and
// emptied, displaced pods moved where the Homes say, replacements
// added as in-flight nodes) and must satisfy:
//
//   - every candidate is an initialized node of a NodePool, not being
//     deleted, and without an active do-not-disrupt on it or its pods
//     ([disruption.NodeBlocks], [disruption.PodBlocks]) or a blocking
//     PodDisruptionBudget ([disruption.PDBBlocks]);
//   - every replacement has a name that no node of the cluster (the
//     candidates and earlier commands' replacements included) and no
//     other replacement of the command has, and that is a label value (a
//     node's hostname);
//   - every reschedulable pod of the candidates has exactly one placement;
//     pods of nodes already being deleted may have one;
//   - no pod is placed on a node that is not initialized, and the pods on
//     their new homes pass [verify.Plan] (capacity, affinity, taints,
//     topology, limits, offerings), except the claim Requests and price
//     accounting, as the replacements may also hold pending pods the
//     command does not list;
//   - per NodePool, the nodes the commands disrupt so far stay within
//     [disruption.AllowedDisruptions] on c at c.Now for each command's
//     reason;
//   - the replacements' offerings cost no more than the candidates, and
//     Savings is the difference; no candidate of unknown price
//     (packing.Node.PriceUnknown) is replaced, and Unpriced counts them.
//
// Topology is replayed in the order of each command's Homes (Plan lists
// them in its solve's placement order); when that order breaks a
// constraint, VerifyCommands looks for an order that keeps every step
// valid (greedily, for up to 64 pods) before reporting it. The complexity
// is one verify.Plan per command, or O(P²) of them for P displaced pods
// when the order is searched. VerifyCommands never panics, does not modify
// its arguments and is safe for concurrent use.
func VerifyCommands(c Cluster, cmds []Command) []Violation {
	v := newCmdVerifier(c)
	for i, cmd := range cmds {
		v.command(i, cmd)
	}
	return v.Violations()
}

// cmdVerifier is consolidation's checker on the shared core: the cluster
// as the commands so far leave it, with the pod events they record.
type cmdVerifier struct {
	*disruption.Verifier[Rule]
	c Cluster
}

func newCmdVerifier(c Cluster) *cmdVerifier {
	v := &cmdVerifier{Verifier: disruption.NewVerifier[Rule](c.Nodes, c.Now), c: c}
	v.c.LastPodEvent = c.podEvents() // apply records the moves' pod events
	for i := range c.NodePools {
		v.AddPool(&c.NodePools[i])
	}
	return v
}

func (v *cmdVerifier) command(i int, cmd Command) {
	cands := v.candidates(i, cmd)
	v.checkBudget(i, cmd, cands)
	v.checkCost(i, cmd, cands)
	v.CheckNames(i, RuleReplacement, cmd.Replacements)
	h := v.homes(i, cmd, cands)
	v.CheckMoves(i, RulePacking, h.Moves)
	v.apply(cands, h)
}

// candidates returns the indexes of the command's valid candidates,
// reporting the others and the protected ones.
func (v *cmdVerifier) candidates(i int, cmd Command) []int {
	var out []int
	for _, name := range cmd.Candidates {
		j := v.Index(name)
		if why := v.unfit(j, out); why != "" {
			v.Add(i, RuleCandidate, name, "", "candidate %s %s", name, why)
			continue
		}
		v.checkProtected(i, v.Nodes[j])
		out = append(out, j)
	}
	return out
}

// unfit says why node j may not be a candidate, or "".
func (v *cmdVerifier) unfit(j int, taken []int) string {
	switch {
	case j < 0:
		return "is not a node of the cluster"
	case slices.Contains(taken, j):
		return "is listed twice"
	}
	if why := v.Unfit(j); why != "" {
		return why
	}
	if !v.Nodes[j].Initialized {
		return "is not initialized"
	}
	return ""
}

func (v *cmdVerifier) checkProtected(i int, n packing.Node) {
	if blocked, why := disruption.NodeBlocks(n); blocked {
		v.Add(i, RuleDoNotDisrupt, n.Name, "", "%s", why)
	}
	pods := reschedulable(n.Pods)
	for _, p := range pods {
		if blocked, why := disruption.PodBlocks(p, v.Now); blocked {
			v.Add(i, RuleDoNotDisrupt, n.Name, p.Key(), "%s", why)
		}
	}
	if blocked, why := disruption.PDBBlocks(pods, v.c.PDBs); blocked {
		v.Add(i, RulePDB, n.Name, "", "node %s: %s", n.Name, why)
	}
}

// checkBudget charges the candidates to their pools and compares the
// running totals with what the budgets allow on the input cluster.
func (v *cmdVerifier) checkBudget(i int, cmd Command, cands []int) {
	charged := map[string]int{}
	var pools []string
	for _, j := range cands {
		name := v.Nodes[j].NodePool
		charged[name] = v.Charge(name)
		pools = append(pools, name)
	}
	slices.Sort(pools)
	for _, name := range slices.Compact(pools) {
		allowed, err := disruption.AllowedDisruptions(*v.Pool(name), v.c.Nodes, cmd.Reason, v.Now)
		switch {
		case err != nil:
			v.Add(i, RuleBudget, "", "", "NodePool %s has an invalid disruption budget: %v", name, err)
		case charged[name] > allowed:
			v.Add(i, RuleBudget, "", "", "NodePool %s allows %d %s disruptions at %s, but the commands up to this one disrupt %d of its nodes",
				name, allowed, cmd.Reason, v.Now.UTC().Format("2006-01-02T15:04:05Z"), charged[name])
		}
	}
}

// checkCost compares the candidates' prices with the replacements'. A
// replacement for a candidate of unknown price cannot be shown cheaper.
func (v *cmdVerifier) checkCost(i int, cmd Command, cands []int) {
	var before, after instancetypes.Price
	unpriced := 0
	for _, j := range cands {
		before = sat.Add(before, v.Nodes[j].Price)
		if v.Nodes[j].PriceUnknown {
			unpriced++
			if len(cmd.Replacements) > 0 {
				v.Add(i, RuleCost, v.Nodes[j].Name, "", "candidate %s, of unknown price, is replaced: the replacements cannot be shown cheaper", v.Nodes[j].Name)
			}
		}
	}
	if len(cands) == len(cmd.Candidates) && cmd.Unpriced != unpriced {
		v.Add(i, RuleCost, "", "", "Unpriced is %d, but %d candidates are of unknown price", cmd.Unpriced, unpriced)
	}
	for _, nc := range cmd.Replacements {
		after = sat.Add(after, nc.Offering.Price)
	}
	if after > before {
		v.Add(i, RuleCost, "", "", "the replacements cost %s, more than the %s of the candidates they replace", after, before)
	}
	if len(cands) == len(cmd.Candidates) && cmd.Savings != before-after {
		v.Add(i, RuleCost, "", "", "Savings is %s, but the candidates cost %s and the replacements %s", cmd.Savings, before, after)
	}
}
