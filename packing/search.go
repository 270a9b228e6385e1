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
// the best: see [static.better]; the earlier pass on a tie. Restart k
// draws from a generator seeded with Options.Seed and (k, strategy), so
// the result does not depend on timing. The restarts stop at the first
// that met no tie, since every later one would repeat the greedy pass.
func (s *static) search(cost bool) pass {
	m := newMemo()
	best := s.runPass(cost, nil, m)
	stream := uint64(0)
	if cost {
		stream = 1
	}
	for k := range uint64(s.opts.restarts(s.prob)) {
		p := s.runPass(cost, rand.New(rand.NewPCG(s.opts.Seed, k<<1|stream)), m)
		if p.r.ties == 0 {
			break
		}
		if s.better(p.st, best.st) {
			best = p
		}
	}
	return best
}

// runPass runs one pass of Best: place every pod, then merge claims.
func (s *static) runPass(cost bool, tie *rand.Rand, m *memo) pass {
	r := newRun(s, cost, tie, m)
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

// reorder draws a restart's pod order into queue (in FFD order on entry):
// half the time the FFD order with each run of equal-size pods shuffled,
// otherwise the pods by a random blend of their cpu and memory shares
// (see [static.blend]), larger first, after priority when Options ask for
// it. A greedy pass keeps the FFD order.
func (r *run) reorder(queue []int) {
	if r.tie == nil {
		return
	}
	r.shuffleEqual(queue)
	if r.tie.IntN(2) == 0 {
		return
	}
	w, key := r.tie.Float64(), make([]float64, len(r.s.pods))
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
	r.ties++
}

// blend computes each pod's share of the pending pods' total cpu and
// memory requests, the sizes a restart may blend: FFD by cpu alone packs
// memory-heavy pods last, where a blend can pair them with cpu-heavy ones.
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
