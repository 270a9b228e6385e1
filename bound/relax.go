package bound

import (
	"math"
	"slices"
)

// relax sets l's multipliers to the dual of the room's knapsack LP
// relaxation,
//
//	max Σ_i y_i·x_i  s.t.  Σ_i req_i,d·x_i ≤ room_d per requested dimension d,
//	                       Σ_{i in g} x_i ≤ 1 per anti-affinity group g,
//	                       0 ≤ x_i ≤ fit_i,
//
// solved by a bounded-variable primal simplex: a row per dimension
// (scaled to right-hand side 1) and per group, a column per item, each
// item's fit kept as a bound (flipped, not a row). Its rows' duals are λ
// and μ, at which lagrange's bound equals the LP's optimum (strong
// duality); since the bound is valid at any λ, μ ≥ 0, a float slip only
// weakens it. It reports false, leaving l as it was, when the simplex
// did not reach an optimum within pivots (pivots and bound flips) or a
// dual is not finite.
func (l *lagrange) relax(pivots int) bool {
	present := make([]bool, len(l.mu))
	rows := len(l.lambda)
	for _, k := range l.ks {
		if g := l.p.m.group[k]; g >= 0 && !present[g] {
			present[g] = true
			rows++
		}
	}
	lp := &l.p.box
	lp.reset(len(l.ks), rows)
	var dims, groups []int
	for d := range l.lambda {
		if l.r.alloc[d] <= 0 {
			continue
		}
		row, scale := lp.row(), 1/float64(l.r.alloc[d])
		for i, k := range l.ks {
			row[i] = float64(l.p.m.req[k][d]) * scale
		}
		if lp.add(row) {
			dims = append(dims, d)
		}
	}
	for g := range l.mu {
		if !present[g] {
			continue
		}
		row := lp.row()
		for i, k := range l.ks {
			if l.p.m.group[k] == g {
				row[i] = 1
			}
		}
		if lp.add(row) {
			groups = append(groups, g)
		}
	}
	for i, k := range l.ks {
		lp.obj[i], lp.upper[i] = l.p.y[k], l.fit[i]
	}
	duals, ok := lp.solve(pivots)
	if !ok || slices.ContainsFunc(duals, func(v float64) bool { return math.IsNaN(v) || math.IsInf(v, 0) }) {
		return false
	}
	clear(l.lambda)
	clear(l.mu)
	for r, d := range dims {
		l.lambda[d] = duals[r] / float64(l.r.alloc[d])
	}
	for r, g := range groups {
		l.mu[g] = duals[len(dims)+r]
	}
	return true
}

// boxLP is max objᵀx s.t. rows·x ≤ 1, 0 ≤ x ≤ upper, as a dense tableau
// over the n items and one slack per row (room for up to maxRows, in one
// slab that reset reuses): basis[r] is row r's basic variable and beta[r]
// its value; a nonbasic variable is at 0 or, when high, at its upper
// bound; obj holds the reduced costs. Slack columns of rows never added
// stay zero.
type boxLP struct {
	n     int
	cells []float64
	rows  [][]float64
	obj   []float64
	upper []float64
	beta  []float64
	basis []int
	high  []bool
}

// reset empties b for n items and up to maxRows rows, keeping its
// slices' room: a pricer's relaxations, one after another, share one.
func (b *boxLP) reset(n, maxRows int) {
	w := n + maxRows
	b.n = n
	b.cells = zeroed(b.cells, maxRows*w)
	b.obj = zeroed(b.obj, w)
	b.upper = zeroed(b.upper, w)
	b.high = zeroed(b.high, w)
	b.rows, b.beta, b.basis = b.rows[:0], b.beta[:0], b.basis[:0]
}

// zeroed is s resized to n, all zero, reusing its room.
func zeroed[T any](s []T, n int) []T {
	s = slices.Grow(s[:0], n)[:n]
	clear(s)
	return s
}

// row returns the next row's coefficients, all zero; the items' are
// row[:n].
func (b *boxLP) row() []float64 {
	w := len(b.obj)
	r := len(b.rows)
	return b.cells[r*w : (r+1)*w]
}

// add adds row ≤ 1 (from row) unless its items' coefficients are all
// zero, and reports whether it did.
func (b *boxLP) add(row []float64) bool {
	for _, v := range row[:b.n] {
		if v != 0 {
			r := len(b.rows)
			row[b.n+r] = 1
			b.upper[b.n+r] = math.Inf(1)
			b.rows = append(b.rows, row)
			b.beta = append(b.beta, 1)
			b.basis = append(b.basis, b.n+r)
			return true
		}
	}
	return false
}

// maxBoxPivots caps a relaxation's pivots and bound flips, per variable
// and row.
const maxBoxPivots = 8

// solve runs the simplex from the all-slack basis (x = 0 is feasible)
// and returns each row's dual, clipped at 0; false when it did not reach
// the optimum within pivots steps or found the LP unbounded (rounding).
func (b *boxLP) solve(pivots int) ([]float64, bool) {
	for range pivots {
		e := b.entering()
		if e < 0 {
			duals := make([]float64, len(b.rows))
			for r := range duals {
				duals[r] = max(-b.obj[b.n+r], 0)
			}
			return duals, true
		}
		if !b.step(e) {
			return nil, false
		}
	}
	return nil, false
}

// entering is the nonbasic variable whose move improves the objective
// most per unit (Dantzig's rule): up from 0 with a positive reduced cost,
// down from its bound with a negative one; -1 at the optimum. A basic
// variable's reduced cost is 0 up to rounding, far below pivotTol.
func (b *boxLP) entering() int {
	at, best := -1, pivotTol
	for j, d := range b.obj {
		if b.high[j] {
			d = -d
		}
		if d > best {
			at, best = j, d
		}
	}
	return at
}

// step moves variable e as far as the bounds of the basic variables and
// its own allow: a flip to its other bound, or a pivot.
func (b *boxLP) step(e int) bool {
	dir := 1.0
	if b.high[e] {
		dir = -1
	}
	theta, leave, leaveHigh := b.upper[e], -1, false
	for r, row := range b.rows {
		a := dir * row[e]
		switch v := b.basis[r]; {
		case a > pivotTol:
			if t := max(b.beta[r], 0) / a; t < theta {
				theta, leave, leaveHigh = t, r, false
			}
		case a < -pivotTol && !math.IsInf(b.upper[v], 1):
			if t := max(b.upper[v]-b.beta[r], 0) / -a; t < theta {
				theta, leave, leaveHigh = t, r, true
			}
		}
	}
	if math.IsInf(theta, 1) {
		return false
	}
	for r, row := range b.rows {
		b.beta[r] -= dir * theta * row[e]
	}
	if leave < 0 {
		b.high[e] = !b.high[e]
		return true
	}
	value := theta
	if b.high[e] {
		value = b.upper[e] - theta
	}
	out := b.basis[leave]
	pivotRows(b.rows, b.obj, leave, e)
	b.basis[leave] = e
	b.beta[leave] = value
	b.high[out], b.high[e] = leaveHigh, false
	return true
}
