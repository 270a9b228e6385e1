package bound

import (
	"cmp"
	"slices"
)

// lagrange bounds what a room's pods are worth at y from above by the
// Lagrangian dual of its knapsack's LP relaxation: for any multipliers
// λ ≥ 0 per dimension and μ ≥ 0 per anti-affinity group,
//
//	value ≤ Σ_d λ_d·room_d + Σ_g μ_g + Σ_k fit_k·(y_k − λ·req_k − μ_g(k))⁺
//
// since every pattern a (0 ≤ a_k ≤ fit_k, Σ_k a_k·req_k ≤ room, at most
// one pod per group) has yᵀa ≤ that. Any λ, μ give a valid bound; they
// are the duals of the LP relaxation (relax), where the bound is the
// relaxation's optimum. Should the simplex stop short, they are found
// instead by coordinate descent from λ = μ = 0, each coordinate
// minimised exactly (a fractional knapsack's critical ratio).
type lagrange struct {
	p      *pricer
	r      *room
	ks     []int32
	fit    []float64
	lambda []float64
	mu     []float64
	brk    []brk // scratch: breakpoints of a line search
}

type brk struct{ t, w float64 }

// lagrangeUB returns the bound, and the multipliers' greedy pattern
// (counts aligned with r.classes) with its value: a good integer pattern
// to start a search from or to cut with.
func (p *pricer) lagrangeUB(r *room, admits []bool) (float64, []int64, float64, *lagrange) {
	l := p.newLagrange(r, admits)
	if len(l.ks) == 0 {
		return 0, make([]int64, len(r.classes)), 0, l
	}
	l.minimise(maxBoxPivots * (len(l.ks) + len(l.lambda) + len(l.mu)))
	pat, val := l.greedy()
	return max(l.value(), val), pat, val, l
}

// newLagrange is room r's bound at λ = μ = 0 over the classes it admits,
// holds and values above 0.
func (p *pricer) newLagrange(r *room, admits []bool) *lagrange {
	l := &lagrange{p: p, r: r, lambda: make([]float64, len(p.m.names)), mu: make([]float64, p.m.groups)}
	for _, k := range r.classes {
		if p.y[k] > 0 && admits[k] {
			if n := p.fit(k, r.alloc); n > 0 {
				l.ks, l.fit = append(l.ks, k), append(l.fit, float64(n))
			}
		}
	}
	return l
}

// minimise sets the multipliers to the LP relaxation's duals or, when
// the simplex does not finish within pivots, descends from λ = μ = 0
// coordinate by coordinate.
func (l *lagrange) minimise(pivots int) {
	if l.relax(pivots) {
		return
	}
	for range 2 {
		for d := range l.lambda {
			l.line(d, -1)
		}
		for g := range l.mu {
			l.line(-1, g)
		}
	}
}

// charge is the multipliers' charge for a pod of class k.
func (l *lagrange) charge(k int32) float64 {
	c := 0.0
	for d, req := range l.p.m.req[k] {
		c += l.lambda[d] * float64(req)
	}
	if g := l.p.m.group[k]; g >= 0 {
		c += l.mu[g]
	}
	return c
}

// greedy fills the room with the items by value per multiplier charge,
// each as many as fit.
func (l *lagrange) greedy() ([]int64, float64) {
	idx := make([]int, len(l.ks))
	score := make([]float64, len(l.ks))
	for i, k := range l.ks {
		idx[i] = i
		score[i] = l.p.y[k] / (l.charge(k) + 1e-300)
	}
	slices.SortStableFunc(idx, func(a, b int) int { return cmp.Compare(score[b], score[a]) })
	left := slices.Clone(l.r.alloc)
	used := make([]bool, l.p.m.groups)
	pat := make([]int64, len(l.r.classes))
	val := 0.0
	for _, i := range idx {
		k := l.ks[i]
		g := l.p.m.group[k]
		if g >= 0 && used[g] {
			continue
		}
		n := int64(l.fit[i])
		for d, req := range l.p.m.req[k] {
			if req > 0 {
				n = min(n, left[d]/req)
			}
		}
		if n <= 0 {
			continue
		}
		for d, req := range l.p.m.req[k] {
			left[d] -= n * req
		}
		if g >= 0 {
			used[g] = true
		}
		j, _ := slices.BinarySearch(l.r.classes, k)
		pat[j] = n
		val += float64(n) * l.p.y[k]
	}
	return pat, val
}

// critical is the largest breakpoint t at which the summed weight of the
// breakpoints ≥ t reaches capacity: the line's minimum; 0 when they all
// fit. A three-way quickselect, O(n) expected; it reorders l.brk.
func (l *lagrange) critical(capacity float64) float64 {
	rest := l.brk
	for len(rest) > 0 {
		pivot := rest[len(rest)/2].t
		gt, eq := partition3(rest, pivot)
		above, at := 0.0, 0.0
		for _, b := range rest[:gt] {
			above += b.w
		}
		if above >= capacity {
			rest = rest[:gt]
			continue
		}
		for _, b := range rest[gt:eq] {
			at += b.w
		}
		if above+at >= capacity {
			return pivot
		}
		capacity -= above + at
		rest = rest[eq:]
	}
	return 0
}

// partition3 orders s as t > pivot, then = pivot, then < pivot, and
// returns where the second and third parts start.
func partition3(s []brk, pivot float64) (int, int) {
	lt, i, gt := 0, 0, len(s)
	for i < gt {
		switch t := s[i].t; {
		case t > pivot:
			s[lt], s[i] = s[i], s[lt]
			lt++
			i++
		case t < pivot:
			gt--
			s[i], s[gt] = s[gt], s[i]
		default:
			i++
		}
	}
	return lt, gt
}

// reduced is item i's value less its multipliers' charge, leaving out
// dimension d's (d ≥ 0) or group g's (g ≥ 0).
func (l *lagrange) reduced(i, d, g int) float64 {
	k := l.ks[i]
	v := l.p.y[k]
	for e, req := range l.p.m.req[k] {
		if e != d {
			v -= l.lambda[e] * float64(req)
		}
	}
	if gk := l.p.m.group[k]; gk >= 0 && gk != g {
		v -= l.mu[gk]
	}
	return v
}

// value is the bound at the current multipliers.
func (l *lagrange) value() float64 {
	v := 0.0
	for d, x := range l.lambda {
		v += x * float64(l.r.alloc[d])
	}
	for _, x := range l.mu {
		v += x
	}
	for i := range l.ks {
		v += l.fit[i] * max(l.reduced(i, -1, -1), 0)
	}
	return v
}

// line minimises the bound over dimension d's multiplier (d ≥ 0) or
// group g's, the others fixed: the critical ratio of the fractional
// knapsack on that coordinate alone.
func (l *lagrange) line(d, g int) {
	capacity := 1.0
	if d >= 0 {
		capacity = float64(l.r.alloc[d])
	}
	l.brk = l.brk[:0]
	for i, k := range l.ks {
		w := 0.0
		switch {
		case d >= 0:
			w = float64(l.p.m.req[k][d])
		case l.p.m.group[k] == g:
			w = 1
		}
		if b := l.reduced(i, d, g); w > 0 && b > 0 {
			l.brk = append(l.brk, brk{t: b / w, w: w * l.fit[i]})
		}
	}
	t := l.critical(capacity)
	if d >= 0 {
		l.lambda[d] = t
	} else {
		l.mu[g] = t
	}
}
