package repair

import (
	"cmp"
	"fmt"
	"slices"
	"time"
)

// MaxUnhealthyPercent is Karpenter's cap: repair stops in a NodePool (or,
// for nodes of no NodePool, the cluster) when more than this percentage of
// its nodes, rounded up, is unhealthy.
const MaxUnhealthyPercent = 20

// Condition is one condition of a node. Condition is comparable.
type Condition struct {
	Type               string
	Status             Status
	LastTransitionTime time.Time
}

// Node is what repair reads of a node. The zero Node is invalid (it has no
// Name); a Node with a Name is a managed, healthy node of no NodePool.
type Node struct {
	Name string
	// NodePool is the node's karpenter.sh/nodepool; "" for none.
	NodePool   string
	Conditions []Condition
	// Deleting: the node's NodeClaim has a deletion timestamp.
	Deleting bool
	// Unmanaged: the node has no NodeClaim (Karpenter did not launch it).
	Unmanaged bool
}

// Input is a snapshot for [Decide]. Policies nil or empty means
// [AWSPolicies].
type Input struct {
	Nodes    []Node
	Policies []Policy
	Now      time.Time
}

// Repair is a node to replace forcefully: Condition matched Policy since
// Condition.LastTransitionTime, and its toleration ended at Deadline.
type Repair struct {
	Node      string
	NodePool  string
	Condition Condition
	Policy    Policy
	Deadline  time.Time
}

// Explanation says why a node is left alone. Condition, Policy and
// Deadline are set whenever a condition of the node matched a policy
// (Tolerating, PoolUnhealthy, ClusterUnhealthy, Deleting, and Unmanaged for
// an unhealthy node): the match whose toleration ends first and when it
// ends. Unhealthy, Total and Cap (the
// pool's or the cluster's unhealthy nodes, nodes and
// [MaxUnhealthyPercent] of them rounded up) are set for PoolUnhealthy and
// ClusterUnhealthy.
type Explanation struct {
	Node     string
	NodePool string
	Why      Reason
	Message  string

	Condition             Condition
	Policy                Policy
	Deadline              time.Time
	Unhealthy, Total, Cap int
}

// Result is what [Decide] returns: every node of the input exactly once,
// in Replace or in Kept, each sorted by node name, and the health of each
// NodePool of the input.
type Result struct {
	Replace []Repair
	Kept    []Explanation
	// Pools are the NodePools of the nodes, sorted by name, each with its
	// count against the cap; NodePool "" stands for the nodes of no pool
	// and counts, as Karpenter does for them, every node of the input.
	Pools []PoolHealth
}

// PoolHealth is a NodePool's count against the cap: Unhealthy of its
// Total nodes have a condition that matches a policy, and repair is
// Blocked in it when that is more than Cap, [MaxUnhealthyPercent] of
// Total rounded up.
type PoolHealth struct {
	NodePool              string
	Total, Unhealthy, Cap int
	Blocked               bool
}

// Decide returns which nodes of in to replace and why the others stay, by
// Karpenter's node repair (see the package doc). Invalid input gives a zero
// Result and every problem, joined, each wrapping [ErrInvalidInput].
// Decide does not modify in and is safe for concurrent use. The complexity
// is O(n·(c+p) + n log n) for n nodes of c conditions and p policies.
func Decide(in Input) (Result, error) {
	policies := in.Policies
	if len(policies) == 0 {
		policies = AWSPolicies()
	}
	if err := validate(in, policies); err != nil {
		return Result{}, err
	}
	matches := make([]match, len(in.Nodes))
	counts := map[string]tally{}
	var cluster tally
	for i, n := range in.Nodes {
		matches[i] = find(n, policies)
		counts[n.NodePool] = counts[n.NodePool].add(matches[i].ok)
		cluster = cluster.add(matches[i].ok)
	}
	order := make([]int, len(in.Nodes))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(a, b int) int { return cmp.Compare(in.Nodes[a].Name, in.Nodes[b].Name) })
	res := Result{Pools: pools(counts, cluster)}
	for _, i := range order {
		n := in.Nodes[i]
		scope := cluster
		if n.NodePool != "" {
			scope = counts[n.NodePool]
		}
		res.add(judge(n, matches[i], scope, in.Now))
	}
	return res, nil
}

// pools lists the health of each pool of counts by name, the nodes of no
// pool counted over the cluster.
func pools(counts map[string]tally, cluster tally) []PoolHealth {
	out := make([]PoolHealth, 0, len(counts))
	for name, t := range counts {
		if name == "" {
			t = cluster
		}
		out = append(out, PoolHealth{NodePool: name, Total: t.total, Unhealthy: t.unhealthy, Cap: t.cap(), Blocked: t.blocked()})
	}
	slices.SortFunc(out, func(a, b PoolHealth) int { return cmp.Compare(a.NodePool, b.NodePool) })
	return out
}

// match is the policy a node's condition matches whose toleration ends
// first; ok is false when none matches.
type match struct {
	cond     Condition
	policy   Policy
	deadline time.Time
	ok       bool
}

// find returns n's match, as Karpenter's findUnhealthyConditions: of
// equal deadlines the first policy wins.
func find(n Node, policies []Policy) match {
	var m match
	for _, p := range policies {
		c, ok := condition(n, p.ConditionType)
		if !ok || c.Status != p.ConditionStatus {
			continue
		}
		d := c.LastTransitionTime.Add(p.TolerationDuration)
		if !m.ok || d.Before(m.deadline) {
			m = match{cond: c, policy: p, deadline: d, ok: true}
		}
	}
	return m
}

// condition returns n's first condition of type t, as Karpenter's
// nodeutils.GetCondition.
func condition(n Node, t string) (Condition, bool) {
	for _, c := range n.Conditions {
		if c.Type == t {
			return c, true
		}
	}
	return Condition{}, false
}

// tally counts the nodes of a pool (or the cluster) and the unhealthy
// ones among them.
type tally struct{ total, unhealthy int }

func (t tally) add(unhealthy bool) tally {
	t.total++
	if unhealthy {
		t.unhealthy++
	}
	return t
}

// cap is MaxUnhealthyPercent of t.total rounded up, as intstr's
// GetScaledValueFromIntOrPercent with roundUp.
func (t tally) cap() int { return (t.total*MaxUnhealthyPercent + 99) / 100 }

// blocked reports Karpenter's areNodesHealthy being false.
func (t tally) blocked() bool { return t.unhealthy > t.cap() }

// verdict is one node's outcome: a Repair when keep is nil.
type verdict struct {
	repair Repair
	keep   *Explanation
}

func (r *Result) add(v verdict) {
	if v.keep != nil {
		r.Kept = append(r.Kept, *v.keep)
		return
	}
	r.Replace = append(r.Replace, v.repair)
}

// judge decides one node in Karpenter's Reconcile order: managed,
// unhealthy, toleration ended, cap, not already deleting.
func judge(n Node, m match, scope tally, now time.Time) verdict {
	keep := func(e Explanation) verdict {
		e.Node, e.NodePool = n.Name, n.NodePool
		if m.ok {
			e.Condition, e.Policy, e.Deadline = m.cond, m.policy, m.deadline
		}
		return verdict{keep: &e}
	}
	switch {
	case n.Unmanaged:
		return keep(Explanation{Why: Unmanaged, Message: "no NodeClaim: not managed by Karpenter"})
	case !m.ok:
		return keep(Explanation{Why: Healthy, Message: "no condition matches a repair policy"})
	case now.Before(m.deadline):
		return keep(Explanation{Why: Tolerating, Message: fmt.Sprintf(
			"%s=%s since %s, tolerated until %s", m.cond.Type, m.cond.Status,
			m.cond.LastTransitionTime.Format(time.RFC3339), m.deadline.Format(time.RFC3339))})
	case scope.blocked():
		return keep(capped(n.NodePool, scope))
	case n.Deleting:
		return keep(Explanation{Why: Deleting, Message: "NodeClaim already being deleted"})
	}
	return verdict{repair: Repair{Node: n.Name, NodePool: n.NodePool, Condition: m.cond, Policy: m.policy, Deadline: m.deadline}}
}

// capped explains a node left alone by the cap of its pool or cluster.
func capped(pool string, t tally) Explanation {
	e := Explanation{Why: PoolUnhealthy, Unhealthy: t.unhealthy, Total: t.total, Cap: t.cap()}
	where := fmt.Sprintf("NodePool %q", pool)
	if pool == "" {
		e.Why, where = ClusterUnhealthy, "the cluster"
	}
	e.Message = fmt.Sprintf("%d of %d nodes of %s are unhealthy, more than %d%% rounded up (%d)",
		t.unhealthy, t.total, where, MaxUnhealthyPercent, t.cap())
	return e
}
