package packing

import (
	"cmp"
	"math/rand/v2"
	"sync/atomic"

	"github.com/nodeplan/nodeplan/internal/parallel"
)

// restartBudget is the pod placements the default restarts of one
// strategy may add; maxRestarts caps their number on small problems.
// Problems of at most shuffleWork placements (see Options.shuffles) also
// get up to maxRestarts shuffled passes, within shuffleBudget placements;
// their generators' streams start at shuffleStream, past every restart's.
const (
	restartBudget = 1024
	maxRestarts   = 32
	shuffleWork   = 64
	shuffleBudget = 256
	shuffleStream = maxRestartsOption
)

// restarts is how many restarts each of Best's strategies runs on p. The
// default is at least one, the rule's other greedy order, however large
// the problem: on large problems the order matters as much as on small
// ones (a 1,538-pod zone-spread problem on small nodes packs into 275
// nodes by the shares order against 285 by FFD, where Karpenter's luckier
// runs need 281), and it costs one pass.
func (o Options) restarts(p *Problem) int {
	switch {
	case o.Restarts < 0:
		return 0
	case o.Restarts > 0:
		return o.Restarts
	}
	return max(1, min(maxRestarts, restartBudget/max(1, passWork(p))))
}

// shuffles is how many passes in shuffled pod orders each of Best's
// strategies runs on p after its restarts, when they placed every pod
// (see search): none unless Restarts is the default and p is small (at
// most shuffleWork pods, nodes and the nodes' pods), then as many as
// shuffleBudget placements allow, at most maxRestarts (32 up to 8 pods,
// 12 at 20, 4 at 64). The restarts only reorder pods of equal size, and
// the blends keep a tiny pod behind larger ones; on a small problem the
// order in which pods that count one another meet matters (a pod whose
// zone spread counts pods placed before it may find only a dearer
// zone), and a shuffled order tries the others.
func (o Options) shuffles(p *Problem) int {
	if w := passWork(p); o.Restarts == 0 && w <= shuffleWork {
		return min(maxRestarts, shuffleBudget/max(1, w))
	}
	return 0
}

// passWork is what one pass over p places or reads: its pods, its nodes and
// the nodes' pods.
func passWork(p *Problem) int {
	w := len(p.Pods) + len(p.Nodes)
	for i := range p.Nodes {
		w += len(p.Nodes[i].Pods)
	}
	return w
}

// pass is a finished run and its judged settlement (see run.judge; its
// Plan is r.plan(st)).
type pass struct {
	r  *run
	st settlement
}

// search runs one strategy's greedy pass, then its restarts, and returns
// the best: see [static.better]; the earlier pass on a tie. The first
// restart is the rule's other greedy order (see [sequence]); restart k ≥ 1
// draws its ties from a generator seeded with Options.Seed and (k,
// strategy), so the result does not depend on timing. The random restarts
// stop at the first that met no tie, since every later one would repeat a
// greedy pass, and as soon as the search is halted (see static.halted).
// Then, when the best pass places every pod, a small problem's shuffled
// passes run (Options.shuffles), pass k shuffling the pods and breaking
// ties with the generator of restart shuffleStream+k; one counts only if
// it places every pod too, so that a shuffle never chooses which pods
// are left out (that is the rules' and the limit policy's to decide,
// largest or needed first).
func (s *static) search(cost bool) pass {
	m, sc := newMemo(), &scratch{}
	primary, other := s.sequences(cost)
	best := s.runPass(passSpec{cost: cost, seq: primary}, m, sc)
	n := s.restarts
	if n > 0 && !s.halted() && !s.settled(best, cost) {
		best = s.keep(best, s.runPass(passSpec{cost: cost, seq: other}, m, sc))
	}
	for k := 1; k < n && !s.halted() && !s.settled(best, cost); k++ {
		p := s.runPass(passSpec{cost: cost, seq: seqRandom, tie: s.tie(k, cost)}, m, sc)
		if p.r.ties == 0 {
			break
		}
		best = s.keep(best, p)
	}
	if best.st.unschedulable == 0 {
		for k := range s.shuffles {
			if s.halted() || s.settled(best, cost) {
				break
			}
			if p := s.runPass(passSpec{cost: cost, seq: seqShuffled, tie: s.tie(shuffleStream+k, cost)}, m, sc); p.st.unschedulable == 0 {
				best = s.keep(best, p)
			}
		}
	}
	return s.reserveBest(best, cost, m, sc)
}

// tie is the generator of restart k of the strategy (cost or plain):
// seeded with Options.Seed, a stream of its own for each k and strategy.
func (s *static) tie(k int, cost bool) *rand.Rand {
	stream := uint64(k) << 1
	if cost {
		stream |= 1
	}
	return rand.New(rand.NewPCG(s.opts.Seed, stream))
}

// greedyAtOnce is both strategies' searches when each runs its two greedy
// passes and no random restart (Options.restarts is 1): the four passes
// run as tasks on up to GOMAXPROCS goroutines, each with a memo of its
// own, so that neither strategy waits on the other's passes: first the
// two primary passes (the cost-aware one, the longer, first), then the
// two others. A strategy's other pass is skipped when its primary is
// settled (see settled), as search skips it. When the primary still runs,
// the other task waits until some primary has ended, then runs beside it,
// unless that primary placed every pod at no charge: then the problem
// likely needs no second pass (a consolidation's simulations often), and
// the task waits for its own primary to decide. Each strategy then keeps its better
// pass and runs its limit reruns, as search does; a skipped or unneeded
// pass changes nothing (a settled pass is never beaten, and a tie keeps
// the first), so the plan is search's (TestGreedyAtOnceAsSearch). A panic
// in a pass stops the others at their next check (see halted) and is
// raised again on the caller's goroutine.
func (s *static) greedyAtOnce() (costed, plain pass) {
	g := greedyTasks{s: s}
	for i, cost := range []bool{true, false} {
		primary, other := s.sequences(cost)
		g.specs[i], g.specs[i+2] = passSpec{cost: cost, seq: primary}, passSpec{cost: cost, seq: other}
	}
	for i := range g.done {
		g.done[i] = make(chan struct{})
	}
	parallel.Range(len(g.specs), 1, func() func(lo, hi int) {
		return func(lo, hi int) {
			for i := lo; i < hi; i++ {
				g.run(i)
			}
		}
	})
	plain = g.keep(1, false) // before CostAware's: settled reads what Plain's records
	costed = g.keep(0, true)
	parallel.Both(
		func() {
			defer s.failOnPanic()
			costed = s.reserveBest(costed, true, costed.r.memo, costed.r.scratch)
		},
		func() {
			defer s.failOnPanic()
			plain = s.reserveBest(plain, false, plain.r.memo, plain.r.scratch)
		})
	return costed, plain
}

// greedyTasks are greedyAtOnce's passes: task 0 and 1 are CostAware's and
// Plain's primary passes, 2 and 3 their other ones. done[i] is closed once
// task i has ended (run or skipped, or panicked); out[i] and free[i] may
// be read only then.
type greedyTasks struct {
	s     *static
	specs [4]passSpec
	out   [4]pass        // a skipped task's has no run
	free  [4]atomic.Bool // the pass placed every pod at no charge
	done  [4]chan struct{}
}

// run runs task i, or skips it (see greedyAtOnce).
func (g *greedyTasks) run(i int) {
	defer close(g.done[i])
	defer g.s.failOnPanic()
	cost := i%2 == 0
	if i >= 2 {
		p := i - 2
		if !g.ended(p) {
			select { // a primary's result first: the problem's first sign
			case <-g.done[0]:
			case <-g.done[1]:
			}
		}
		if !g.ended(p) && (g.ended(0) && g.free[0].Load() || g.ended(1) && g.free[1].Load()) {
			<-g.done[p]
		}
		if g.ended(p) && (g.free[p].Load() || cost && g.s.plainFree.Load()) || g.s.halted() {
			return
		}
	}
	g.out[i] = g.s.runPass(g.specs[i], newMemo(), &scratch{})
	if g.s.free(g.out[i].st) {
		g.free[i].Store(true)
		if !cost {
			g.s.plainFree.Store(true)
		}
	}
}

// failOnPanic, deferred, tells the solve's other goroutines to stop (see
// halted) when the caller panics, and panics on.
func (s *static) failOnPanic() {
	if v := recover(); v != nil {
		s.failed.Store(true)
		panic(v)
	}
}

// ended reports whether task i has ended.
func (g *greedyTasks) ended(i int) bool {
	select {
	case <-g.done[i]:
		return true
	default:
		return false
	}
}

// keep is the strategy's better pass, p its primary task: search's choice.
func (g *greedyTasks) keep(p int, cost bool) pass {
	if g.s.settled(g.out[p], cost) || g.out[p+2].r == nil {
		return g.out[p]
	}
	return g.s.keep(g.out[p], g.out[p+2])
}

// settled reports whether no later pass of the strategy can change the
// plan Solve returns, so that its search may stop: best places every pod
// at no charge, which no pass beats (prices and overheads are never
// negative, and a tie keeps the earlier pass); or, for CostAware, Plain's
// search has found such a pass, which wins Best's choice whatever CostAware
// finds. Plain's search records its own for CostAware's to read.
func (s *static) settled(best pass, cost bool) bool {
	if s.free(best.st) {
		if !cost {
			s.plainFree.Store(true)
		}
		return true
	}
	return cost && s.plainFree.Load()
}

// free reports whether st places every pod at no charge.
func (s *static) free(st settlement) bool { return st.unschedulable == 0 && s.charged(st) == 0 }

// sequences are a rule's greedy pod order and its other one: Karpenter's
// FFD for Plain, the shares order for CostAware.
func (s *static) sequences(cost bool) (primary, other sequence) {
	if cost {
		return seqShares, seqFFD
	}
	return seqFFD, seqShares
}

// keep returns p if it is better than best, else best.
func (s *static) keep(best, p pass) pass {
	if s.better(p.st, best.st) {
		return p
	}
	return best
}

// passSpec says how a pass runs: its claim rule, its pod order and, for a
// random restart, the generator of its tie-breaks.
type passSpec struct {
	cost  bool
	seq   sequence
	tie   *rand.Rand
	needs *needOrder // LimitMostPods's rerun order (limitpolicy.go), or nil
}

// runPass runs one pass of Best: place every pod, then merge claims and,
// for the cost-aware rule, refill (refill.go). m
// and sc are the goroutine's memo and scratch, handed on to its next pass.
func (s *static) runPass(spec passSpec, m *memo, sc *scratch) pass {
	if s.hooks.fault != nil {
		s.hooks.fault(spec.cost)
	}
	r := newRun(s, spec, m, sc)
	r.solve()
	r.merge()
	if spec.cost {
		r.refill()
	}
	return pass{r: r, st: r.judge()}
}

// better reports whether settlement a beats b: fewer unschedulable pods,
// then a lower price with the node overhead.
func (s *static) better(a, b settlement) bool {
	return cmp.Or(cmp.Compare(a.unschedulable, b.unschedulable), cmp.Compare(s.charged(a), s.charged(b))) < 0
}

// pick reports whether the n-th of n tied choices (n ≥ 2) replaces the one
// kept so far: never in a greedy pass, with probability 1/n in a restart,
// so that each tied choice is kept with equal chance.
func (r *run) pick(n int) bool {
	if r.tie == nil {
		return false
	}
	r.tied()
	return r.tie.IntN(n) == 0
}

// tied counts one more random choice among two or more (see run.ties).
func (r *run) tied() { r.ties++ }
