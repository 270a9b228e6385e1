package guide

import (
	"fmt"
	"slices"

	"github.com/nodeplan/nodeplan/bound"
	"github.com/nodeplan/nodeplan/instancetypes"
	"github.com/nodeplan/nodeplan/packing"
	"github.com/nodeplan/nodeplan/packing/verify"
	"github.com/nodeplan/nodeplan/requirements"
)

// Options tune [Solve]: the options of both solves and of the bound. The
// zero Options are packing's and bound's defaults.
type Options struct {
	Packing packing.Options
	Bound   bound.Options
}

// Result is [Solve]'s plan and what it learnt. Its zero value is the
// result of a problem with nothing to place.
type Result struct {
	// Plan is the guided plan when Guided, else packing.Solve's.
	Plan packing.Plan
	// Bound is bound.ForPlan of packing.Solve's plan; the guided plan
	// places the same pods, so that it bounds Plan too.
	Bound bound.Bound
	// Guided says Plan is the guided solve's.
	Guided bool
	// Unguided is the price of packing.Solve's plan.
	Unguided instancetypes.Price
	// Violations are the checker's findings on a guided plan that was
	// cheaper and left out the same pods but was rejected for them:
	// empty, unless the narrowing broke a rule of the problem as given.
	Violations []verify.Violation
}

// Solve returns the cheaper of packing.Solve's plan of p and the plan of
// p with its NodePools narrowed to the LP's instance types, with the
// bound of the pods they place (see the package doc for when the guided
// plan is taken). Errors are packing's and bound's, for invalid p or o.
// p is not modified.
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
	q, ok := Narrow(p, b.Configurations)
	if !ok {
		return res, nil
	}
	g, err := packing.Solve(q, o.Packing)
	if err != nil {
		return Result{}, fmt.Errorf("guide: the narrowed problem: %w", err)
	}
	if g.Price >= base.Price || !slices.Equal(unplaced(g), unplaced(base)) {
		return res, nil
	}
	g = withReasons(g, base)
	if res.Violations = verify.Plan(p, g); len(res.Violations) > 0 {
		return res, nil
	}
	res.Plan, res.Guided = g, true
	return res, nil
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
