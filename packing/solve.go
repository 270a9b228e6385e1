package packing

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/nodeplan/nodeplan/instancetypes"
	"github.com/nodeplan/nodeplan/internal/sat"
	"github.com/nodeplan/nodeplan/internal/vouch"
)

// Strategy chooses how Solve picks among the claims a pod fits. The zero
// Strategy is Best.
type Strategy uint8

const (
	// Best runs Plain and CostAware, each followed by its seeded restarts
	// (Options.Restarts); after every pass it merges pairs of claims that
	// one node holds for no more than the two, and after a cost-aware pass
	// it removes claims whose pods fit the others' room (refill). It
	// returns the best plan of
	// all: more pods placed, then the lower price (with NodeOverhead),
	// then Plain's, then the earlier pass. It never costs more than Plain.
	Best Strategy = iota
	// Plain is Karpenter's rule: the open claim with the fewest pods that
	// takes the pod, else a new claim. With LimitLargestFirst it is
	// Karpenter's scheduler; under the default LimitMostPods a binding
	// NodePool limit runs it again (see [LimitPolicy]).
	Plain
	// CostAware puts a pod where it raises the plan's price least: on a
	// claim whose cheapest type still has room, else on the cheapest
	// upgrade of a claim or a new claim, whichever costs less. It takes
	// the pods by the sum of their shares of all cpu and all memory
	// requested, larger first, rather than by cpu then memory.
	CostAware
)

// String returns the strategy's name.
func (s Strategy) String() string {
	return [...]string{"Best", "Plain", "CostAware"}[min(int(s), 2)]
}

// Options tune Solve. The zero Options are the defaults.
type Options struct {
	// Strategy picks the claim-choice rule; the default, Best, tries both.
	Strategy Strategy
	// Restarts is how many more passes Best runs after each of its two
	// greedy ones. The first is the rule's other greedy pod order (Plain
	// takes Karpenter's cpu-then-memory order, CostAware the sum of cpu
	// and memory shares; see their docs); the others are seeded random
	// restarts: the same pass with its ties broken at random (the order of
	// pods of equal size, the domain among equally good topology domains
	// and, for Plain, the order of claims with as many pods) and, half
	// the time, pods ordered by a random blend of their cpu and memory
	// shares. Karpenter breaks the domain ties in map order, so its plans
	// vary from run to run; the restarts let Best find the good ones on
	// purpose. A rule's random restarts stop early when one meets no tie.
	// The zero value means the default, min(32, 1024 / (pods + nodes +
	// their pods)) but at least 1: at most about 1,024 extra pod
	// placements per rule, so past 1,024 pods only the other greedy order.
	// With the default, a small problem (pods + nodes + their pods at most
	// 64) whose best pass places every pod also gets min(32, 256 / that)
	// passes per rule with its pods in a seeded uniformly random order
	// (within each priority, with PriorityOrder) and its ties broken as a
	// restart's, each kept only if it places every pod too and costs less:
	// there the order in which pods that count one another are placed
	// decides which zones they may take, and the restarts keep a tiny pod
	// behind larger ones. A negative value runs none; more than 4,096 is
	// invalid, and an explicit count runs no shuffled passes. Plain and
	// CostAware alone never restart.
	Restarts int
	// Seed seeds the restarts' tie-breaks and the shuffled passes' pod
	// orders: the same Seed gives the same Plan. The zero value is a seed
	// like any other.
	Seed uint64
	// Preferences is what Solve does with preferred node affinity,
	// preferred pod (anti-)affinity and ScheduleAnyway spreads; the
	// default, RespectPreferences, is Karpenter's (see PreferencePolicy).
	Preferences PreferencePolicy
	// PreferenceBudget is, under BudgetPreferences, how much dearer than
	// the plan that ignores every preference the plan may be: 0.10 is at
	// most 10 % above it; the zero value keeps only the preferences that
	// cost nothing. It is invalid when negative, NaN or infinite, and when
	// not zero under another policy.
	PreferenceBudget float64
	// PriorityOrder places higher-priority pods first.
	PriorityOrder bool
	// MaxInstanceTypes caps each NodeClaim's candidate types; 0 means 600
	// and a negative value is invalid.
	MaxInstanceTypes int
	// NodeOverhead is a price per node that the cost-aware strategy and
	// Best's merging and choice between plans add to every new NodeClaim: costs
	// the catalog does not show (per-node licences, agents, addresses) or
	// simply a preference for fewer, larger nodes. Plan prices never
	// include it. The zero value charges nothing (nor does a negative
	// one): the cheapest plan wins, however many nodes it has. It may not
	// exceed instancetypes.MaxValidPrice.
	NodeOverhead instancetypes.Price
	// LimitPolicy chooses which pods get a NodePool's capacity when its
	// limits bind; the default, LimitMostPods, gives it first to the pods
	// no other NodePool can hold. See [LimitPolicy].
	LimitPolicy LimitPolicy
}

func (o Options) nodeOverhead() instancetypes.Price { return max(0, o.NodeOverhead) }

// ErrInvalidOptions is wrapped by the error Solve returns for invalid
// [Options]; see [Options.Validate].
var ErrInvalidOptions = errors.New("invalid options")

// ErrInternal is wrapped by the error Solve returns when the solver itself
// fails (a bug, not an invalid input): a panic in any of its goroutines is
// recovered and returned as an error wrapping ErrInternal, with the panic
// value and no stack trace.
var ErrInternal = errors.New("internal solver error")

// maxRestartsOption bounds Options.Restarts: each restart is a full pass.
const maxRestartsOption = 4096

// Validate reports every invalid option, joined, each wrapping
// [ErrInvalidOptions] and naming the option: a Strategy other than Best,
// Plain or CostAware, Restarts above 4,096, a negative MaxInstanceTypes, a
// NodeOverhead above [instancetypes.MaxValidPrice], a LimitPolicy other
// than LimitMostPods or LimitLargestFirst, a Preferences policy out of
// range, a negative, NaN or infinite PreferenceBudget or one set under a
// policy other than BudgetPreferences. A negative Restarts (none) and a
// negative NodeOverhead (none) are valid.
func (o Options) Validate() error {
	var errs []error
	bad := func(name, format string, args ...any) {
		errs = append(errs, fmt.Errorf("%w: %s: %s", ErrInvalidOptions, name, fmt.Sprintf(format, args...)))
	}
	if o.Strategy > CostAware {
		bad("Strategy", "%d is not Best, Plain or CostAware", o.Strategy)
	}
	if o.Restarts > maxRestartsOption {
		bad("Restarts", "%d is above %d", o.Restarts, maxRestartsOption)
	}
	if o.MaxInstanceTypes < 0 {
		bad("MaxInstanceTypes", "%d is negative", o.MaxInstanceTypes)
	}
	if o.NodeOverhead > instancetypes.MaxValidPrice {
		bad("NodeOverhead", "%s is above %s", o.NodeOverhead, instancetypes.MaxValidPrice)
	}
	if o.LimitPolicy > LimitLargestFirst {
		bad("LimitPolicy", "%d is not LimitMostPods or LimitLargestFirst", o.LimitPolicy)
	}
	errs = append(errs, o.validatePreferences()...)
	return errors.Join(errs...)
}

// Solve decides where the pending pods of p go: on existing nodes, on new
// NodeClaims, or nowhere with a reason. It is pure: p is not modified and
// the same input gives the same Plan. It returns an error, naming the
// object and field, when p is invalid ([ErrInvalidProblem]), naming the
// option when o is ([ErrInvalidOptions]), and one wrapping [ErrInternal]
// if the solver fails; it never panics.
//
// Solve is safe for concurrent use; with Strategy Best it runs its two
// strategies on two goroutines (with one restart a strategy, their four
// greedy passes on up to GOMAXPROCS), and it compiles the existing nodes
// and renders the plan's NodeClaims on up to GOMAXPROCS goroutines; the
// plan does not depend on timing or on GOMAXPROCS. No goroutine it starts
// outlives the call.
func Solve(p Problem, o Options) (Plan, error) {
	return SolveContext(context.Background(), p, o)
}

// SolveContext is Solve with cancellation. It checks ctx before the solve,
// every 64 pods of a pass, before each merge round and each of Best's
// restarts, and once more at the end: when ctx is done at any check it
// stops and returns the zero Plan and ctx.Err(), never a partial plan.
// While ctx is live it returns what Solve returns, byte for byte. Nothing
// is read from ctx but its cancellation.
func SolveContext(ctx context.Context, p Problem, o Options) (Plan, error) {
	return solveContext(ctx, p, o, vouch.Nodes{}, hooks{})
}

// SolveVouched is SolveContext for nodeplan's own packages, which validate
// a cluster once and then solve many simulations of it (consolidation and
// drift): a node of p whose name v vouches for is taken to be the node of
// that name that the caller validated with [Problem.Validate], with at most
// its pods, Initialized, MarkedForDeletion and Settling changed and its
// labels replaced by its effective labels ([Node.EffectiveLabels]), and its
// pods to be pods of that problem (bound or pending) with at most Displaced
// changed, in a slice that is never changed in place but in Displaced
// (other pods come in a new slice: what a solve reads from a slice, v
// remembers for the next); such a node is checked only for a name no
// other node of p has.
// Everything else of p is checked as Solve checks it: the pending pods
// (displaced ones included) unless v vouches for them too
// (vouch.Nodes.WithPods), every other node (an in-flight replacement,
// say) with its pods, the NodePools, daemonsets, catalogs and currency,
// and the uniqueness of pending pods', NodePools' and nodes' names. The
// zero v vouches for no node: SolveVouched is then SolveContext. v's type
// is internal to the module, so a program outside it can pass no other.
func SolveVouched(ctx context.Context, v vouch.Nodes, p Problem, o Options) (Plan, error) {
	return solveContext(ctx, p, o, v, hooks{})
}

// solveContext is SolveVouched with the test hooks h (the zero hooks but
// in tests).
func solveContext(ctx context.Context, p Problem, o Options, v vouch.Nodes, h hooks) (Plan, error) {
	if err := o.Validate(); err != nil {
		return Plan{}, err
	}
	vd := vouchFor(&p, v)
	if err := p.validate(vd); err != nil {
		return Plan{}, err
	}
	if err := ctx.Err(); err != nil {
		return Plan{}, err
	}
	if o.Preferences == BudgetPreferences {
		return solveBudget(ctx, &p, o, vd, h)
	}
	return solveValid(ctx, &p, o, vd, h, nil)
}

// solveValid solves the valid problem p, whose nodes vd names are vouched
// for, with the preferred terms in drop relaxed up front (see solveBudget;
// nil relaxes none).
func solveValid(ctx context.Context, p *Problem, o Options, vd vouched, h hooks, drop map[PreferenceTerm]bool) (Plan, error) {
	var plan Plan
	err := guard(func() error {
		s := compileWithout(p, o, vd, drop)
		s.ctx, s.hooks = ctx, h
		var err error
		plan, err = s.solve()
		s.giveSpare(vd) // a panic skips it: its arrays are dropped
		return err
	})
	if err == nil {
		err = ctx.Err()
	}
	if err != nil {
		return Plan{}, err
	}
	return plan, nil
}

// guard runs f and turns a panic into an error wrapping ErrInternal.
func guard(f func() error) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("%w: %v", ErrInternal, r)
		}
	}()
	return f()
}

// solve runs the strategy the options ask for.
func (s *static) solve() (Plan, error) {
	switch s.opts.Strategy {
	case Plain:
		return solveWith(s, false)
	case CostAware:
		return solveWith(s, true)
	}
	return best(s)
}

// haltEvery is how many pods a pass places between two checks of
// static.halted: a check per pod would cost more than the few pods it
// saves after a cancellation.
const haltEvery = 64

// halted reports whether the solve should stop at the next loop boundary:
// the context is done or the other strategy's goroutine failed.
func (s *static) halted() bool {
	return s.failed.Load() || s.cancelled() != nil
}

// cancelled is the context's error: nil without a context or while it is
// live.
func (s *static) cancelled() error {
	if s.ctx == nil {
		return nil
	}
	return s.ctx.Err()
}

// charged is a settlement's price with the node overhead of its claims.
func (s *static) charged(st settlement) instancetypes.Price {
	return sat.Add(st.price, sat.Mul(instancetypes.Price(len(st.claims)), s.opts.nodeOverhead()))
}

// solveWith runs one greedy pass of one rule, without merging, and
// renders it; when the context is done it returns the context's error and
// the zero Plan.
func solveWith(s *static, cost bool) (Plan, error) {
	primary, _ := s.sequences(cost)
	r := newRun(s, passSpec{cost: cost, seq: primary}, nil, nil)
	r.solve()
	r, st := s.reserveSingle(r, primary)
	if err := s.cancelled(); err != nil {
		return Plan{}, err
	}
	return r.plan(st), nil
}

// best runs both strategies, each with its restarts, concurrently and
// renders the better plan (see Best). A panic on either goroutine is
// recovered, stops the other's search, and is returned once both are
// done; when the context is done, best returns its error and the zero
// Plan.
func best(s *static) (Plan, error) {
	var costed, plain pass
	if s.restarts == 1 && s.shuffles == 0 && !s.hooks.sequential {
		if err := guard(func() error { costed, plain = s.greedyAtOnce(); return nil }); err != nil {
			return Plan{}, err
		}
	} else {
		var wg sync.WaitGroup
		var costErr error
		wg.Go(func() { costErr = s.searchInto(&costed, true) })
		plainErr := s.searchInto(&plain, false)
		wg.Wait()
		if err := errors.Join(plainErr, costErr); err != nil {
			return Plan{}, err
		}
	}
	if err := s.cancelled(); err != nil {
		return Plan{}, err
	}
	if s.better(costed.st, plain.st) {
		return costed.r.plan(costed.st), nil
	}
	return plain.r.plan(plain.st), nil
}

// searchInto runs one strategy's search into out, recovering a panic as an
// error and telling the other strategy to stop.
func (s *static) searchInto(out *pass, cost bool) error {
	err := guard(func() error {
		*out = s.search(cost)
		return nil
	})
	if err != nil {
		s.failed.Store(true)
	}
	return err
}
