package packing

import (
	"slices"
	"sort"

	"github.com/nodeplan/nodeplan/internal/bitset"
	"github.com/nodeplan/nodeplan/resources"
)

// The core dimensions a claim's candidates are trimmed by, in the order of
// pool.bySize and claim.cut.
const (
	dimCPU = iota
	dimMemory
	dimStorage
	dimPods
	dims
)

func dim(l *resources.List, d int) int64 {
	switch d {
	case dimCPU:
		return l.CPU
	case dimMemory:
		return l.Memory
	case dimStorage:
		return l.EphemeralStorage
	}
	return l.Pods
}

// narrowed is c's candidate set once the pod joins, in a set of the run's
// slab (for a claim to keep), and the trim cuts that go with it. Only what
// the pod brings is checked (offerings a word at a time where the pool
// keeps their type sets, the rest type by type): a
// requirement signature or pin c already took was applied to c.cand then,
// and the core dimensions are cut from the pool's size orders.
func (r *run) narrowed(v view, c *claim, need resources.List, pins []pin) (bitset.Set, [dims]int) {
	return r.narrowInto(r.slab.bits(c.cand), v, c, need, pins)
}

// narrowOwn is narrowed for commit: in c.cand itself when c owns it (a
// claim's candidates are its own once its first commit or a merge gave it
// a set; before, they are its pool's), so that a commit need not copy.
func (r *run) narrowOwn(v view, c *claim, need resources.List, pins []pin) (bitset.Set, [dims]int) {
	if len(c.cand) == 0 || &c.cand[0] == &c.pl.all[0] {
		return r.narrowed(v, c, need, pins)
	}
	return r.narrowInto(c.cand, v, c, need, pins)
}

// narrowInto is narrowed in cand, which holds c.cand's types: a copy, or
// c.cand itself (narrowOwn).
func (r *run) narrowInto(cand bitset.Set, v view, c *claim, need resources.List, pins []pin) (bitset.Set, [dims]int) {
	cut := c.cut
	if !slices.Contains(c.sigs, v.sig) {
		cand.And(r.memo.bits[v.sig][c.pi])
	}
	fresh := r.freshPins(c, pins)
	for _, p := range fresh {
		if b, ok := c.pl.pins[p]; ok {
			cand.And(b)
		}
	}
	c.pl.trim(cand, &cut, need)
	offers := r.newOfferFilter(v, c, fresh)
	if offers.narrow(cand, r.scratch.offered(len(cand))) {
		offers = offerFilter{} // every type left is admitted
	}
	fits, limits := hasExtended(need), !r.use.slack(c)
	if !fits && !limits && !offers.active {
		return cand, cut
	}
	for t := cand.Next(0); t >= 0; t = cand.Next(t + 1) {
		if (fits && !need.Fits(c.pl.alloc[t])) || (limits && !r.use.within(c, t)) || !offers.admits(t) {
			cand.Remove(t)
		}
	}
	return cand, cut
}

// freshPins returns the pins c has not taken yet, in a scratch slice.
func (r *run) freshPins(c *claim, pins []pin) []pin {
	fresh := r.scratch.pinBuf[:0]
	for _, p := range pins {
		if !slices.Contains(c.pinned, p) {
			fresh = append(fresh, p)
		}
	}
	r.scratch.pinBuf = fresh
	return fresh
}

func hasExtended(l resources.List) bool {
	for range l.Extended() {
		return true
	}
	return false
}

// trim removes from cand the types whose allocatable need exceeds in a
// core dimension, moving the cuts past them. Requests only grow, so a
// claim's cuts only move forward: its trims cost its pool's types in all.
// The new cut is found by binary search and the types before it removed a
// step at a time (pool.below), so a trim costs O(log types + step + the
// words of a set) a dimension, whatever it removes.
func (pl *pool) trim(cand bitset.Set, cut *[dims]int, need resources.List) {
	for d := range dims {
		sizes, n, from := pl.sizes[d], dim(&need, d), cut[d]
		if from == len(sizes) || sizes[from] >= n {
			continue
		}
		to := from + sort.Search(len(sizes)-from, func(i int) bool { return sizes[from+i] >= n })
		if j := to / pl.step; pl.step*j > from+pl.step { // more than a step's worth: bulk
			cand.AndNot(pl.below[d][j])
			from = pl.step * j
		}
		for _, t := range pl.bySize[d][from:to] {
			cand.Remove(int(t))
		}
		cut[d] = to
	}
}
