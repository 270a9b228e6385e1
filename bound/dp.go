package bound

import (
	"cmp"
	"math"
	"slices"
)

// maxUnits caps the capacity, in units, of the finest knapsack oneDim
// solves.
const maxUnits = 8192

// dpBound is an upper bound on what room r's pods are worth at y, often
// far below the Lagrangian one where a few pods fill the room (a 4 GiB
// pod's worth of memory left that no 4 GiB pod fits, the overhead taken):
// the least of oneDim over the dimensions, in coarseUnits, the dimensions
// l charges most first. Only when that comes within refine of target are
// the two first dimensions solved again in maxUnits. It stops once at
// most target or found (a pattern's worth: no bound is below it), and is
// never below found, which a room whose capacity is overdrawn, holding
// no pod, would otherwise be.
func (p *pricer) dpBound(r *room, admits []bool, l *lagrange, target, found float64) float64 {
	return max(found, p.leastOneDim(r, admits, l, target, found))
}

// leastOneDim is dpBound before found is taken into account.
func (p *pricer) leastOneDim(r *room, admits []bool, l *lagrange, target, found float64) float64 {
	dims := make([]int, len(p.m.names))
	share := make([]float64, len(p.m.names))
	for d := range dims {
		dims[d], share[d] = d, l.lambda[d]*float64(r.alloc[d])
	}
	slices.SortStableFunc(dims, func(a, b int) int { return cmp.Compare(share[b], share[a]) })
	b := math.Inf(1)
	tiny := tinyShare * max(target, 0)
	enough := max(target, found*(1+slack))
	for _, d := range dims {
		if b = min(b, p.oneDim(r, admits, l, d, coarseUnits, tiny)); b <= enough {
			return b
		}
	}
	if b > target*(1+refine) {
		return b
	}
	for _, d := range dims[:min(2, len(dims))] {
		if b = min(b, p.oneDim(r, admits, l, d, maxUnits, tiny)); b <= enough {
			return b
		}
	}
	return b
}

// oneDim bounds what room r's pods are worth at y by keeping dimension
// d's capacity and every anti-affinity group's at-most-one in integers
// and relaxing the other dimensions with l's multipliers λ:
//
//	value ≤ Σ_{e≠d} λ_e·room_e + max Σ_k a_k·(y_k − Σ_{e≠d} λ_e·req_ke)
//
// over the counts a (0 ≤ a_k ≤ fit_k, at most one pod per group) whose
// requests in d, each rounded down to whole units u, sum to at most the
// room's units ⌊room_d / u⌋. A pattern that fits the room fits the
// rounded problem too (Σ⌊req/u⌋ ≤ ⌊Σ req / u⌋), so any λ ≥ 0 and any u
// give a bound (see unit for u). A class whose fit_k pods are worth at
// most tiny is counted at that worth and left out of the knapsack. Solved
// exactly by dynamic programming over the units: O(pieces × units),
// where a class that fits n times is split into ⌈log₂(n+1)⌉ pieces.
func (p *pricer) oneDim(r *room, admits []bool, l *lagrange, d int, most int64, tiny float64) float64 {
	off := 0.0
	for e, x := range l.lambda {
		if e != d {
			off += x * float64(r.alloc[e])
		}
	}
	free := 0.0
	best := make([]float64, p.m.groups) // per group: its best member needing no unit
	var items []dpItem
	var g int64
	for _, k := range r.classes {
		if !admits[k] || p.y[k] <= 0 {
			continue
		}
		n := p.fit(k, r.alloc)
		if n == 0 {
			continue
		}
		v := p.y[k]
		for e, req := range p.m.req[k] {
			if e != d {
				v -= l.lambda[e] * float64(req)
			}
		}
		grp := p.m.group[k]
		switch {
		case v <= 0:
		case grp >= 0 && (p.m.req[k][d] == 0 || v <= tiny):
			best[grp] = max(best[grp], v)
		case grp < 0 && (p.m.req[k][d] == 0 || float64(n)*v <= tiny):
			free += float64(n) * v
		default:
			items = append(items, dpItem{k: k, n: n, v: v})
			g = gcd(g, p.m.req[k][d])
		}
	}
	u := unit(g, r.alloc[d], most)
	capUnits := max(0, r.alloc[d]/u) // an existing node's room may be overdrawn
	f := make([]float64, capUnits+1)
	var grouped []dpItem
	for _, it := range items {
		it.w = p.m.req[it.k][d] / u
		switch {
		case p.m.group[it.k] >= 0 && it.w == 0:
			best[p.m.group[it.k]] = max(best[p.m.group[it.k]], it.v)
		case p.m.group[it.k] >= 0:
			grouped = append(grouped, it)
		case it.w == 0:
			free += float64(it.n) * it.v
		default:
			addBounded(f, it.w, it.v, min(it.n, capUnits/it.w))
		}
	}
	p.addGroups(f, grouped, best)
	return off + free + f[capUnits]
}

// tinyShare of the target is what a class's pods may be worth in all
// for oneDim to count them without a place in the knapsack.
const tinyShare = 1e-7

// refine is how close to the target dpBound's coarse bound must come for
// the finer knapsacks to be tried: they only remove the coarse units'
// rounding.
const refine = 0.02

// coarseUnits is the units oneDim tries first: a fraction of the work of
// maxUnits, and enough where the requests are few multiples of a unit.
const coarseUnits = 1024

// dpItem is a class in oneDim's knapsack: how many fit, their worth each,
// and the units each needs.
type dpItem struct {
	k    int32
	n, w int64
	v    float64
}

// unit is the unit oneDim counts a capacity of room in, given g, the
// greatest common divisor of the knapsack's requests (0: none): g, which
// loses nothing, doubled until the room is at most most units, so that
// requests that are multiples of it (powers of two: Mi, Gi) still lose
// nothing.
func unit(g, room, most int64) int64 {
	g = max(g, 1)
	for room/g > most {
		g *= 2
	}
	return g
}

func gcd(a, b int64) int64 {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}

// addBounded adds to f (f[c]: the most worth within c units) up to n
// items of w units worth v each, as pieces of 1, 2, 4, … items, each a
// 0/1 item.
func addBounded(f []float64, w int64, v float64, n int64) {
	for piece := int64(1); n > 0; piece *= 2 {
		take := min(piece, n)
		n -= take
		pw, pv := take*w, float64(take)*v
		for c := int64(len(f)) - 1; c >= pw; c-- {
			f[c] = max(f[c], f[c-pw]+pv)
		}
	}
}

// addGroups adds to f, per group, at most one of its members: grouped
// are the members needing units, best per group the most a member
// needing none is worth.
func (p *pricer) addGroups(f []float64, grouped []dpItem, best []float64) {
	if p.m.groups == 0 {
		return
	}
	byGroup := make([][]dpItem, p.m.groups)
	for _, it := range grouped {
		byGroup[p.m.group[it.k]] = append(byGroup[p.m.group[it.k]], it)
	}
	next := make([]float64, len(f))
	for g, members := range byGroup {
		if len(members) == 0 && best[g] == 0 {
			continue
		}
		for c := range f {
			next[c] = f[c] + best[g]
		}
		for _, it := range members {
			for c := int64(len(f)) - 1; c >= it.w; c-- {
				next[c] = max(next[c], f[c-it.w]+it.v)
			}
		}
		copy(f, next)
	}
}
