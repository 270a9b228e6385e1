package packing

import (
	"cmp"
	"math/rand/v2"
	"slices"
)

// restartBudget is the pod placements the default restarts of one
// strategy may add; maxRestarts caps their number on small problems.
const (
	restartBudget = 1024
	maxRestarts   = 32
)

// restarts is how many restarts each of Best's strategies runs on p.
func (o Options) restarts(p *Problem) int {
	switch {
	case o.Restarts < 0:
		return 0
	case o.Restarts > 0:
		return o.Restarts
	}
	work := len(p.Pods) + len(p.Nodes)
	for i := range p.Nodes {
		work += len(p.Nodes[i].Pods)
	}
	return min(maxRestarts, restartBudget/max(1, work))
}

// pass is a finished run and its settled prices.
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
func (s *static) search(cost bool) pass {
	m := newMemo()
	primary, other := s.sequences(cost)
	best := s.runPass(passSpec{cost: cost, seq: primary}, m)
	n := s.opts.restarts(s.prob)
	if n > 0 && !s.halted() {
		best = s.keep(best, s.runPass(passSpec{cost: cost, seq: other}, m))
	}
	stream := uint64(0)
	if cost {
		stream = 1
	}
	for k := 1; k < n && !s.halted(); k++ {
		tie := rand.New(rand.NewPCG(s.opts.Seed, uint64(k)<<1|stream))
		p := s.runPass(passSpec{cost: cost, seq: seqRandom, tie: tie}, m)
		if p.r.ties == 0 {
			break
		}
		best = s.keep(best, p)
	}
	return best
}

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
	cost bool
	seq  sequence
	tie  *rand.Rand
}

// runPass runs one pass of Best: place every pod, then merge claims.
func (s *static) runPass(spec passSpec, m *memo) pass {
	if s.fault != nil {
		s.fault(spec.cost)
	}
	r := newRun(s, spec, m)
	r.solve()
	r.merge()
	return pass{r: r, st: r.settle()}
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
	r.ties++
	return r.tie.IntN(n) == 0
}

// sequence is the order a pass takes the pods in.
type sequence uint8

const (
	// seqFFD is first-fit decreasing as Karpenter orders it: cpu, then
	// memory (see ffdOrder).
	seqFFD sequence = iota
	// seqShares orders pods by the sum of their cpu and memory shares
	// (see [static.blend]), larger first: FFD by cpu alone places
	// memory-heavy pods last, where a size that weighs both pairs them
	// with cpu-heavy ones.
	seqShares
	// seqRandom is a restart's: FFD with each run of equal-size pods
	// shuffled and, half the time, then ordered by a random blend of the
	// two shares.
	seqRandom
)

// reorder puts queue, which holds the FFD order on entry, in the pass's
// sequence. The blend orders keep priority first when Options ask for it.
func (r *run) reorder(queue []int) {
	switch r.seq {
	case seqShares:
		r.sortByBlend(queue, 0.5)
	case seqRandom:
		r.shuffleEqual(queue)
		if r.tie.IntN(2) == 1 {
			r.sortByBlend(queue, r.tie.Float64())
			r.ties++
		}
	}
}

// sortByBlend sorts queue by w·cpu share + (1−w)·memory share, larger
// first, stably.
func (r *run) sortByBlend(queue []int, w float64) {
	key := make([]float64, len(r.s.pods))
	for _, i := range queue {
		key[i] = w*r.s.shares[i][0] + (1-w)*r.s.shares[i][1]
	}
	slices.SortStableFunc(queue, func(a, b int) int {
		c := 0
		if r.s.opts.PriorityOrder {
			c = cmp.Compare(r.s.pods[b].pod.Priority, r.s.pods[a].pod.Priority)
		}
		return cmp.Or(c, cmp.Compare(key[b], key[a]))
	})
}

// blend computes each pod's share of the pending pods' total cpu and
// memory requests, the sizes the blend orders weigh.
func (s *static) blend() {
	var cpu, mem float64
	for i := range s.pods {
		cpu += float64(s.pods[i].req.CPU)
		mem += float64(s.pods[i].req.Memory)
	}
	s.shares = make([][2]float64, len(s.pods))
	for i := range s.pods {
		s.shares[i] = [2]float64{float64(s.pods[i].req.CPU) / max(cpu, 1), float64(s.pods[i].req.Memory) / max(mem, 1)}
	}
}

// shuffleEqual shuffles each run of equal-size pods in the queue (as laid
// out by the FFD order).
func (r *run) shuffleEqual(queue []int) {
	for _, e := range r.s.equal {
		part := queue[e[0]:e[1]]
		r.tie.Shuffle(len(part), func(a, b int) { part[a], part[b] = part[b], part[a] })
		r.ties++
	}
}

// shuffleClaims shuffles Plain's claims in a restart.
func (r *run) shuffleClaims() {
	if r.tie != nil {
		r.tie.Shuffle(len(r.byPods), func(a, b int) { r.byPods[a], r.byPods[b] = r.byPods[b], r.byPods[a] })
	}
}
