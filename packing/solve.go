package packing

import (
	"context"
	"sync"

	"github.com/nodeplan/nodeplan/instancetypes"
)

// Strategy chooses how Solve picks among the claims a pod fits. The zero
// Strategy is Best.
type Strategy uint8

const (
	// Best runs Plain and CostAware, each followed by its seeded restarts
	// (Options.Restarts); after every pass it merges pairs of claims that
	// one node holds for no more than the two. It returns the best plan of
	// all: more pods placed, then the lower price (with NodeOverhead),
	// then Plain's, then the earlier pass. It never costs more than Plain.
	Best Strategy = iota
	// Plain is Karpenter's rule: the open claim with the fewest pods that
	// takes the pod, else a new claim.
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
	// their pods)): at most about 1,024 extra pod placements per rule, so
	// none past 1,024 pods. A negative value runs none. Plain and
	// CostAware alone never restart.
	Restarts int
	// Seed seeds the restarts' tie-breaks: the same Seed gives the same
	// Plan. The zero value is a seed like any other.
	Seed uint64
	// IgnorePreferences drops preferred node affinity, preferred pod
	// (anti-)affinity and ScheduleAnyway spread up front, as Karpenter's
	// preference policy Ignore.
	IgnorePreferences bool
	// PriorityOrder places higher-priority pods first.
	PriorityOrder bool
	// MaxInstanceTypes caps each NodeClaim's candidate types; 0 means 600.
	MaxInstanceTypes int
	// NodeOverhead is a price per node that the cost-aware strategy and
	// Best's merging and choice between plans add to every new NodeClaim: costs
	// the catalog does not show (per-node licences, agents, addresses) or
	// simply a preference for fewer, larger nodes. Plan prices never
	// include it. The zero value charges nothing (nor does a negative
	// one): the cheapest plan wins, however many nodes it has.
	NodeOverhead instancetypes.Price
}

func (o Options) nodeOverhead() instancetypes.Price { return max(0, o.NodeOverhead) }

// Solve decides where the pending pods of p go: on existing nodes, on new
// NodeClaims, or nowhere with a reason. It is pure: p is not modified and
// the same input gives the same Plan. It returns an error, naming the
// object and field, when p is invalid.
//
// Solve is safe for concurrent use; with Strategy Best it runs its two
// strategies on two goroutines, whose results do not depend on timing.
func Solve(p Problem, o Options) (Plan, error) {
	return SolveContext(context.Background(), p, o)
}

// SolveContext is Solve with cancellation: it returns ctx.Err() and no plan
// when ctx is done before the solve finishes.
func SolveContext(ctx context.Context, p Problem, o Options) (Plan, error) {
	if err := p.Validate(); err != nil {
		return Plan{}, err
	}
	s := prepare(&p, o)
	var plan Plan
	switch o.Strategy {
	case Plain:
		plan = solveWith(s, false)
	case CostAware:
		plan = solveWith(s, true)
	default:
		plan = best(s)
	}
	return plan, ctx.Err()
}

// charged is a settlement's price with the node overhead of its claims.
func (s *static) charged(st settlement) instancetypes.Price {
	return st.price + instancetypes.Price(len(st.claims))*s.opts.nodeOverhead()
}

func solveWith(s *static, cost bool) Plan {
	primary, _ := s.sequences(cost)
	r := newRun(s, passSpec{cost: cost, seq: primary}, nil)
	r.solve()
	return r.plan()
}

// best runs both strategies, each with its restarts, concurrently and
// renders the better plan (see Best).
func best(s *static) Plan {
	var costed pass
	var wg sync.WaitGroup
	wg.Go(func() { costed = s.search(true) })
	plain := s.search(false)
	wg.Wait()
	if s.better(costed.st, plain.st) {
		return costed.r.render(costed.st)
	}
	return plain.r.render(plain.st)
}
