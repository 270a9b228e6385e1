package bound

import (
	"errors"
	"fmt"
	"math"

	"github.com/nodeplan/nodeplan/instancetypes"
	"github.com/nodeplan/nodeplan/packing"
)

// Bound is a certified lower bound on the hourly price of the new nodes
// of any plan that places a given set of pending pods ([Of]: every pod
// some node could hold; [ForPlan]: the pods a plan placed). Its zero
// value bounds nothing: 0 $/h.
type Bound struct {
	// Dollars is the bound in dollars (of the catalog's currency) per
	// hour: the largest of LP, SinglePod and AntiAffinity.
	Dollars float64
	// LP is the configuration LP's certified value (see the package doc).
	LP float64
	// SinglePod is the largest, over the pods, of the cheapest room that
	// holds the pod alone: 0 when an existing node may.
	SinglePod float64
	// AntiAffinity is the largest, over the hostname anti-affinity groups,
	// of the summed single-pod prices of the group's pods that the
	// existing nodes cannot all take, one pod per node.
	AntiAffinity float64
	// Pods is how many pods the bound covers.
	Pods int
	// Unplaceable is how many pods of the set no room admits or holds
	// (no offer of any NodePool of a type within its limits, no existing
	// node), and those of a class only existing nodes hold beyond what
	// they hold: left out of the bound.
	Unplaceable int
	// Classes is how many classes the pods formed once merged on the grid
	// (see Options.MaxClasses); Columns how many node configurations the
	// LP priced: (pool, type, set of admitted placement rules), each at
	// its cheapest offering, after dominated ones are dropped.
	Classes, Columns int
	// Iterations is how many rounds the column generation ran; Optimal
	// says it converged: LP is then the LP's optimum (to 1e-7). It is
	// false when the value rests on the cap the first round puts on every
	// class's dual: limits or existing nodes cannot hold all the pods.
	Iterations int
	Optimal    bool
	// Configurations are the node configurations the last restricted LP's
	// solution uses, summed per NodePool and instance type, by pool then
	// type: a guide for a search (package guide uses it), not part of the
	// certificate. Unless Optimal they are of a restricted LP, which may
	// leave pods to the artificial columns that cap the duals; and the
	// pods are merged classes, so that a configuration is not always a
	// feasible node.
	Configurations []Configuration
	// Patterns are the same solution node by node: each of its columns'
	// patterns, with how many nodes (fractional) and which pods of each
	// class one such node holds. Like Configurations, a guide and not a
	// certificate; nil when the LP has no solution to read.
	Patterns []Pattern
}

// Pattern is one node configuration of the LP's solution: a NodePool's
// instance type, how many nodes of it the solution launches (fractional)
// and how many pods of each class one node holds.
type Pattern struct {
	NodePool, Type string
	Nodes          float64
	Classes        []PatternClass
}

// PatternClass is a class of a Pattern and how many of its pods one node
// holds. Pods are the class's pods (indexes in Problem.Pods, ascending;
// for ForPlan those the plan placed), the same slice in every Pattern of
// the class: read it, do not modify it. A class only existing nodes hold
// may have more pods than the bound counts (see Unplaceable). Class
// numbers the class within the Bound.
type PatternClass struct {
	Class int
	Pods  []int
	Count int64
}

// Configuration is a NodePool's instance type and how many of its nodes
// the LP's solution launches: fractional, as an LP's solution is.
type Configuration struct {
	NodePool, Type string
	Nodes          float64
}

// Price is the bound as a Price, rounded down so that it stays a lower
// bound.
func (b Bound) Price() instancetypes.Price {
	p := math.Floor(b.Dollars * 1e9)
	if p >= math.MaxInt64 {
		return instancetypes.MaxPrice
	}
	return instancetypes.Price(max(p, 0))
}

// Gap is how far price lies above the bound, as a fraction: price ÷ bound
// − 1 (0.05 for 5 %). It is 0 when both are 0 and +Inf when only the
// bound is.
func (b Bound) Gap(price instancetypes.Price) float64 {
	bd := b.Price()
	switch {
	case bd > 0:
		return float64(price)/float64(bd) - 1
	case price > 0:
		return math.Inf(1)
	}
	return 0
}

// Options tune [Of] and [ForPlan]. The zero Options are the defaults.
type Options struct {
	// MaxIterations caps the rounds of column generation; each round
	// solves the restricted LP and prices every column once. When it
	// stops early the bound is still certified, only weaker. 0 means 40;
	// a negative value is invalid.
	MaxIterations int
	// MaxClasses caps the classes the LP has: when the pods form more
	// (distinct requests), requests are rounded down to a coarser grid
	// (fewer significant bits of cpu, memory and ephemeral storage) until
	// they form at most MaxClasses classes in all, or the grid is one
	// bit. 0 means 64; a negative value is invalid.
	MaxClasses int
}

// ErrInvalidOptions is wrapped by the error for invalid [Options].
var ErrInvalidOptions = errors.New("bound: invalid options")

// Validate reports invalid options, each wrapping [ErrInvalidOptions].
func (o Options) Validate() error {
	var errs []error
	if o.MaxIterations < 0 {
		errs = append(errs, fmt.Errorf("%w: MaxIterations: %d is negative", ErrInvalidOptions, o.MaxIterations))
	}
	if o.MaxClasses < 0 {
		errs = append(errs, fmt.Errorf("%w: MaxClasses: %d is negative", ErrInvalidOptions, o.MaxClasses))
	}
	return errors.Join(errs...)
}

func (o Options) maxIterations() int { return defaulted(o.MaxIterations, 40) }
func (o Options) maxClasses() int    { return defaulted(o.MaxClasses, 64) }
func (o Options) maxPivots() int     { return 20000 }
func (o Options) searchNodes() int   { return 2000 }
func (o Options) searchWork() int    { return 600_000 }
func (o Options) searchesPerRound() int {
	return 48
}
func (o Options) cutsPerRound() int { return 16 }

func defaulted(v, d int) int {
	if v == 0 {
		return d
	}
	return v
}

// Of bounds the price of the new nodes of any plan that places every
// pending pod of p (buffer pods included: a plan pays for their room)
// that some room could hold: an offer of a NodePool (within its limits)
// or an existing node. With limits that no plan can
// meet for all those pods the bound still holds, vacuously; compare a plan
// that leaves pods unschedulable with [ForPlan]. It returns an error
// wrapping [packing.ErrInvalidProblem] for an invalid p and
// [ErrInvalidOptions] for invalid o. p is not modified; the same input
// gives the same Bound.
func Of(p packing.Problem, o Options) (Bound, error) {
	return of(p, nil, o)
}

// ForPlan bounds the price of the new nodes of any plan that places the
// pods plan placed: its bindings, its claims' pods and the buffer pods it
// found room for ([packing.Plan.Headroom]); pods it left unschedulable are
// left out. plan.Price ÷ the bound − 1 ([Bound.Gap]) is then how far plan
// can be from the cheapest plan placing the same pods. The pod indexes
// plan names must be p's, each placed once: an index out of range or
// placed twice is an error wrapping [ErrInvalidPlan]. p and plan are not modified.
func ForPlan(p packing.Problem, plan packing.Plan, o Options) (Bound, error) {
	include := make([]bool, len(p.Pods))
	mark := func(i int) error {
		switch {
		case i < 0 || i >= len(p.Pods):
			return fmt.Errorf("%w: pod index %d is not in the problem's %d pods", ErrInvalidPlan, i, len(p.Pods))
		case include[i]:
			return fmt.Errorf("%w: pod %d (%s/%s) is placed twice", ErrInvalidPlan, i, p.Pods[i].Namespace, p.Pods[i].Name)
		}
		include[i] = true
		return nil
	}
	var errs []error
	for _, b := range plan.Bindings {
		errs = append(errs, mark(b.Pod))
	}
	for _, c := range plan.NodeClaims {
		for _, i := range c.Pods {
			errs = append(errs, mark(i))
		}
	}
	for _, h := range plan.Headroom {
		if !h.Unschedulable {
			errs = append(errs, mark(h.Pod))
		}
	}
	if err := errors.Join(errs...); err != nil {
		return Bound{}, err
	}
	return of(p, include, o)
}

// ErrInvalidPlan is wrapped by the error ForPlan returns for a plan that
// names pods the problem does not have, or places a pod twice.
var ErrInvalidPlan = errors.New("bound: invalid plan")

func of(p packing.Problem, include []bool, o Options) (Bound, error) {
	if err := o.Validate(); err != nil {
		return Bound{}, err
	}
	c, err := packing.GroupClasses(p)
	if err != nil {
		return Bound{}, err
	}
	m := build(&c, include, o)
	g := &colgen{m: &m, o: o}
	g.run()
	b := Bound{LP: g.best, Pods: m.pods, Unplaceable: m.skip, Classes: len(m.count), Columns: len(m.cols),
		Iterations: g.iters, Optimal: g.done}
	if g.tab != nil {
		b.Patterns = g.patterns(c.Pools, m.classPods(&c, include))
		b.Configurations = configurations(b.Patterns)
	}
	b.SinglePod, b.AntiAffinity = m.cheap()
	b.Dollars = max(b.LP, b.SinglePod, b.AntiAffinity)
	return b, nil
}
