package guide

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/nodeplan/nodeplan/bound"
	"github.com/nodeplan/nodeplan/instancetypes"
	"github.com/nodeplan/nodeplan/packing"
	"github.com/nodeplan/nodeplan/packing/verify"
	"github.com/nodeplan/nodeplan/requirements"
)

// Options tune [Solve]: the options of every solve and of the bound. The
// zero Options are packing's and bound's defaults.
type Options struct {
	Packing packing.Options
	Bound   bound.Options
}

// Result is [Solve]'s plan and what it learnt. Its zero value is the
// result of a problem with nothing to place.
type Result struct {
	// Plan is the cheapest guided plan when Guided, else packing.Solve's.
	Plan packing.Plan
	// Bound is bound.ForPlan of packing.Solve's plan; the guided plan
	// places the same pods, so that it bounds Plan too.
	Bound bound.Bound
	// Guided says Plan is a narrowed or pinned solve's, Pinned a pinned
	// one's: its pods held to the LP's nodes (see the package doc).
	Guided, Pinned bool
	// Unguided is the price of packing.Solve's plan.
	Unguided instancetypes.Price
	// Violations are the checker's findings on the guided plans that
	// were cheaper and left out the same pods but were rejected for them:
	// empty, unless a narrowing broke a rule of the problem as given (a
	// topology spread over the pool's zones, or minValues, which a
	// completed pinned plan's grown claims, each down to one type, may
	// break).
	Violations []verify.Violation
}

// Solve returns the cheapest of packing.Solve's plan of p, the plans of p
// with its NodePools narrowed by the LP's configurations and those of p
// with pods held to the LP's nodes, with the bound of the pods they place
// (see the package doc for the narrowings, the pinning and when a guided
// plan is taken). Errors are packing's and bound's: for invalid p or o,
// or an internal error of a solve. p is not modified.
func Solve(p packing.Problem, o Options) (Result, error) {
	base, err := packing.Solve(p, o.Packing)
	if err != nil {
		return Result{}, err
	}
	b, err := bound.ForPlan(p, base, o.Bound)
	if err != nil {
		return Result{}, err
	}
	res := Result{Plan: base, Bound: b, Unguided: base.Price}
	left := unplaced(base)
	var plans []candidate
	for _, cs := range narrowings(b.Configurations, base) {
		q, ok := Narrow(p, cs)
		if !ok {
			continue
		}
		g, err := packing.Solve(q, o.Packing)
		if err != nil {
			return Result{}, fmt.Errorf("guide: the narrowed problem: %w", err)
		}
		if g.Price < base.Price && slices.Equal(unplaced(g), left) {
			plans = append(plans, candidate{plan: g})
		}
	}
	pinnedPlans, err := pinnedSolves(p, b.Patterns, left, o)
	if err != nil {
		return Result{}, err
	}
	for _, g := range pinnedPlans {
		if g.Price < base.Price {
			plans = append(plans, candidate{plan: g, pinned: true})
		}
	}
	slices.SortStableFunc(plans, func(a, b candidate) int { return cmp.Compare(a.plan.Price, b.plan.Price) })
	for _, c := range plans {
		g := withReasons(c.plan, base)
		if v := verify.Plan(p, g); len(v) > 0 {
			res.Violations = append(res.Violations, v...)
			continue
		}
		res.Plan, res.Guided, res.Pinned = g, true, c.pinned
		break
	}
	return res, nil
}

// candidate is a guided plan and whether a pinned solve made it.
type candidate struct {
	plan   packing.Plan
	pinned bool
}

// narrowings are the configurations Solve narrows p by, in the order it
// prefers them on a tie: the LP's alone; the LP's with the types of
// base's NodeClaims (the search's own choices, which the LP's restricted
// solution may lack), when they add any; then, for k = 1 to maxTopK,
// each pool's k types with the most nodes in the LP's solution (see
// topK), when that drops some type (so no two lists are the same).
func narrowings(lp []bound.Configuration, base packing.Plan) [][]bound.Configuration {
	if len(lp) == 0 {
		return nil
	}
	union := slices.Clone(lp)
	seen := map[[2]string]bool{}
	for _, c := range lp {
		seen[[2]string{c.NodePool, c.Type}] = true
	}
	for _, c := range base.NodeClaims {
		if k := [2]string{c.NodePool, c.InstanceType}; !seen[k] {
			seen[k] = true
			union = append(union, bound.Configuration{NodePool: k[0], Type: k[1]})
		}
	}
	out := [][]bound.Configuration{lp}
	if len(union) > len(lp) {
		out = append(out, union)
	}
	rank := ranks(lp)
	for k := 1; k <= maxTopK; k++ {
		if top := topK(lp, rank, k); len(top) < len(lp) {
			out = append(out, top)
		}
	}
	return out
}

// maxTopK is the largest k of the narrowings to each pool's k most used
// types. On the benchmark workloads (RESULTS.md, fifteenth session) every
// gain came from k ≤ 4: past it the narrowing keeps the LP's rarely used
// types, which the search then takes where the LP does not.
const maxTopK = 4

// ranks returns, for each configuration of cs, how many of its pool's
// come before it: those with more nodes, and those with as many earlier
// in cs.
func ranks(cs []bound.Configuration) []int {
	rank := make([]int, len(cs))
	for i := range cs {
		for j := range cs {
			if cs[j].NodePool == cs[i].NodePool && (cs[j].Nodes > cs[i].Nodes || (cs[j].Nodes == cs[i].Nodes && j < i)) {
				rank[i]++
			}
		}
	}
	return rank
}

// topK returns, of each pool's configurations in cs, the k with the most
// nodes (rank, see ranks), in cs's order. The LP's solution spreads a
// little over many types where it is not integral; its largest parts are
// what the search should copy.
func topK(cs []bound.Configuration, rank []int, k int) []bound.Configuration {
	var out []bound.Configuration
	for i, c := range cs {
		if rank[i] < k {
			out = append(out, c)
		}
	}
	return out
}

// Narrow returns p with each NodePool that some configuration names
// restricted to the configurations' instance types in it (an
// "In" requirement on [requirements.LabelInstanceType], intersected with
// the pool's own), and whether any pool was; the other pools are as they
// were. p is not modified.
func Narrow(p packing.Problem, cs []bound.Configuration) (packing.Problem, bool) {
	types := map[string][]string{}
	for _, c := range cs {
		types[c.NodePool] = append(types[c.NodePool], c.Type)
	}
	if len(types) == 0 {
		return p, false
	}
	q := p
	q.NodePools = slices.Clone(p.NodePools)
	narrowed := false
	for i := range q.NodePools {
		ts, ok := types[q.NodePools[i].Name]
		if !ok {
			continue
		}
		r, err := requirements.New(requirements.LabelInstanceType, requirements.In, ts...)
		if err != nil {
			continue // a type name no requirement admits: leave the pool as it is
		}
		q.NodePools[i].Requirements = q.NodePools[i].Requirements.Add(r)
		narrowed = true
	}
	return q, narrowed
}

// pinnedSolves solves p with pods held to the LP's whole nodes (pin),
// once per pinning that holds its pods otherwise than the ones before,
// with the held pods first and no restarts, and places the pods a pinned
// solve leaves out but base placed (complete). skip are the pods base
// left out (sorted): the LPs of the pods left leave them out too, and it
// returns the plans that leave out exactly those. It solves nothing under
// Options.PriorityOrder, where the held pods would jump the priorities,
// nor under BudgetPreferences, whose costs of preferred terms a completed
// plan would not carry.
func pinnedSolves(p packing.Problem, patterns []bound.Pattern, skip []int, o Options) ([]packing.Plan, error) {
	po := o.Packing
	if po.PriorityOrder || po.Preferences == packing.BudgetPreferences {
		return nil, nil
	}
	respect := po.Preferences == packing.RespectPreferences
	po.PriorityOrder, po.Restarts = true, -1
	var out []packing.Plan
	type dealing struct {
		rounds int
		up     float64
	}
	dealt := map[dealing][]lpNode{}
	solved := map[string]bool{} // the holds solved (pin's key)
	for _, pn := range pinnings {
		if !anyHeld(p.Pods, pn.all, respect) {
			continue // no pod to hold: spare the dealing its LPs
		}
		d := dealing{pn.rounds, pn.up}
		nodes, ok := dealt[d]
		if !ok {
			var err error
			if nodes, err = dealRounds(p, patterns, skip, pn.rounds, pn.up, o.Bound); err != nil {
				return nil, err
			}
			dealt[d] = nodes
		}
		q, n, key := pin(p, nodes, pn.all, respect)
		if n == 0 || solved[key] {
			continue // the same problem as a pinning's before
		}
		solved[key] = true
		g, err := packing.Solve(q, po)
		if err != nil {
			return nil, fmt.Errorf("guide: the pinned problem: %w", err)
		}
		if missed := without(unplaced(g), skip); len(missed) > 0 {
			if g, err = complete(p, g, missed, po); err != nil {
				return nil, err
			}
		}
		if slices.Equal(unplaced(g), skip) {
			out = append(out, g)
		}
	}
	return out, nil
}

// anyHeld reports whether pin would hold some pod of pods.
func anyHeld(pods []packing.Pod, all, respect bool) bool {
	for i := range pods {
		if holds(&pods[i], all, respect) {
			return true
		}
	}
	return false
}

// without returns the elements of a (sorted) not in b (sorted).
func without(a, b []int) []int {
	var out []int
	for _, v := range a {
		if _, found := slices.BinarySearch(b, v); !found {
			out = append(out, v)
		}
	}
	return out
}

// unplaced lists, in order, the pods a plan leaves unschedulable, buffer
// pods included.
func unplaced(plan packing.Plan) []int {
	var out []int
	for _, u := range plan.Unschedulable {
		out = append(out, u.Pod)
	}
	for _, h := range plan.Headroom {
		if h.Unschedulable {
			out = append(out, h.Pod)
		}
	}
	slices.Sort(out)
	return out
}

// withReasons returns g with the reasons base gives its unschedulable
// pods (the same pods): they speak of the NodePools as written. g's own
// slices are not modified.
func withReasons(g, base packing.Plan) packing.Plan {
	g.Unschedulable = slices.Clone(base.Unschedulable)
	reasons := map[int]packing.Reason{}
	for _, h := range base.Headroom {
		if h.Unschedulable {
			reasons[h.Pod] = h.Reason
		}
	}
	g.Headroom = slices.Clone(g.Headroom)
	for i, h := range g.Headroom {
		if h.Unschedulable {
			g.Headroom[i].Reason = reasons[h.Pod]
		}
	}
	return g
}
