package bound

import (
	"cmp"
	"fmt"
	"math"
	"slices"

	"github.com/nodeplan/nodeplan/packing"
)

// Safety margins of the certificate: every priced value is inflated by
// slack (relative) before ρ is taken, and the bound shaved by it, which
// covers the float rounding of the sums (a few ulps each) many times over.
const slack = 1e-9

// smooth is the weight of the stability centre in the point certified
// beside each restricted optimum.
const smooth = 0.5

// cutTol is how far above its price a column's value must be to become a
// cut: below it the column generation counts as converged.
const cutTol = 1e-7

// maxEffort caps colgen.effort.
const maxEffort = 64

// colgen is one column generation: the restricted dual (tab) over the
// variables y (per class), z (per limit variable) and w (per existing
// node), the cuts added so far, and the best certified bound.
type colgen struct {
	m     *model
	o     Options
	tab   *tableau
	seen  map[string]bool
	best  float64
	iters int
	done  bool    // converged: no column prices above its cost
	rho   float64 // the ρ of the last round's restricted optimum
	top   float64 // the seed caps every y at 16·top
	// center is the dual point that certified best so far.
	center []float64
	// cert is the best certificate: the dual point (y, z, restricted w),
	// the w it was certified with, and its ρ.
	cert cert
	// effort multiplies the search budget: it grows when a round finds no
	// cut but cannot certify the optimum.
	effort int
	// work is what is left of the branch-and-bound budget of the whole
	// column generation (Options.searchWork): once spent, columns are
	// priced by their Lagrangian bound alone.
	work int
	// rows are the tableau's rows in order: a cap (col and node -1) or a cut.
	rows []cut
	// searchless prices every room by its bounds alone, as once the
	// search's budget is spent: for tests of those bounds.
	searchless bool
}

func (g *colgen) nv() int { return len(g.m.count) + g.m.nz + len(g.m.nodes) }

// run solves the configuration LP and returns its best certified value.
func (g *colgen) run() {
	if len(g.m.count) == 0 {
		g.done = true
		return
	}
	obj := make([]float64, g.nv())
	copy(obj, g.m.count)
	for _, pv := range g.m.pools {
		for i, r := range pv.rhs {
			obj[pv.first+i+len(g.m.count)] = -r
		}
	}
	for n := range g.m.nodes {
		obj[len(g.m.count)+g.m.nz+n] = -1
	}
	g.tab = newTableau(obj)
	g.seen = map[string]bool{}
	g.effort = 1
	g.work = g.o.searchWork()
	if g.searchless {
		g.work = 0
	}
	g.seed()
	if v, c, ok := g.aggregate(); ok {
		if lb := g.value(c); lb > g.best {
			g.best, g.cert = lb, c
		}
		g.center = v
	}
	for g.iters < g.o.maxIterations() {
		g.iters++
		if g.tab.solve(g.o.maxPivots()) != nil {
			return
		}
		v := g.tab.values()
		cuts := g.certify(v)
		added := 0
		for _, c := range cuts {
			if g.addCut(c) {
				added++
			}
		}
		if added == 0 && g.rho > 1+cutTol && g.effort < maxEffort && g.work > 0 {
			g.effort *= 8 // stalled on searches out of budget: search deeper
			continue
		}
		if added == 0 {
			g.done = g.rho <= 1+cutTol && !g.capped(v)
			return
		}
	}
}

// cert is a certified dual point: (v's y and z, w)/rho is feasible for
// the full dual, with objective the bound.
type cert struct {
	v, w []float64
	rho  float64
}

// cut is a pattern of a column (col ≥ 0) or of an existing node (node ≥ 0)
// whose value at the current duals exceeds its cost, by ratio.
type cut struct {
	col, node int
	pattern   []int64
	ratio     float64
}

// seed adds, per class, a cap on its dual (so that every restricted dual is
// bounded) and the cut of the column that holds its pods cheapest per pod.
func (g *colgen) seed() {
	k := len(g.m.count)
	top := 1.0
	for _, c := range g.m.cols {
		top = max(top, c.price)
	}
	g.top = top
	for j := range k {
		coef := make([]float64, g.nv())
		coef[j] = 1 / (16 * top)
		g.tab.addRow(coef, 1)
		g.rows = append(g.rows, cut{col: -1, node: -1})
	}
	p := newPricer(g.m, make([]float64, k), 0, new(int))
	for j := range k {
		best, at := math.Inf(1), -1
		for c := range g.m.cols {
			col := &g.m.cols[c]
			if !g.m.sets[col.set][j] {
				continue
			}
			if n := p.fit(int32(j), col.alloc); n > 0 && col.price/float64(n) < best {
				best, at = col.price/float64(n), c
			}
		}
		if at >= 0 {
			col := &g.m.cols[at]
			pat := make([]int64, len(col.classes))
			i, _ := slices.BinarySearch(col.classes, int32(j))
			pat[i] = p.fit(int32(j), col.alloc)
			g.addCut(cut{col: at, node: -1, pattern: pat})
		}
	}
}

// capped reports whether v's value rests on the seed's cap: some y is at
// it, and halving those y certifies less. The LP is then infeasible
// (limits or existing nodes cannot hold every pod) and v is not its
// optimum; a y at its cap that the value does not depend on (degenerate)
// does not count.
func (g *colgen) capped(v []float64) bool {
	low := slices.Clone(v)
	at := false
	for j := range g.m.count {
		if v[j] >= 16*g.top*(1-cutTol) {
			low[j], at = v[j]/2, true
		}
	}
	if !at {
		return false
	}
	lb, _, _ := g.evaluate(v)
	lbLow, _, _ := g.evaluate(low)
	return lbLow < lb*(1-cutTol)
}

// addCut adds the dual constraint of a pattern, scaled to right-hand side
// 1 for a column (0 for a free one), unless it is there already; it
// reports whether it added it.
func (g *colgen) addCut(c cut) bool {
	key := fmt.Sprint(c.col, c.node, c.pattern)
	if g.seen[key] {
		return false
	}
	g.seen[key] = true
	g.rows = append(g.rows, c)
	coef := make([]float64, g.nv())
	k := len(g.m.count)
	if c.node >= 0 {
		for i, cl := range g.m.nodes[c.node].classes {
			coef[cl] = float64(c.pattern[i])
		}
		coef[k+g.m.nz+c.node] = -1
		g.tab.addRow(coef, 0)
		return true
	}
	col := &g.m.cols[c.col]
	scale := 1.0
	if col.price > 0 {
		scale = 1 / col.price
	}
	for i, cl := range col.classes {
		coef[cl] = float64(c.pattern[i]) * scale
	}
	pv := g.m.pools[col.pool]
	for i, u := range col.use {
		coef[k+pv.first+i] = -u * scale
	}
	g.tab.addRow(coef, col.price*scale)
	return true
}

// certify computes the bound certified by the restricted dual's values v
// (y, z, w), keeps the best, and returns the violated patterns found.
//
// With y and z clipped to ≥ 0, ρ is an upper bound of (value of a
// column's best pattern at y − its limit charge at z) / its price over
// every column, and w_n one of the value of node n's best pattern at y;
// then (y, z, w)/max(1, ρ) is feasible for the full dual and its
// objective (nᵀy − Lᵀz − Σw)/max(1, ρ) bounds every plan from below
// (weak duality), whatever the simplex computed.
//
// The restricted dual's vertices jump about, so that ρ stays high until
// the very end; a certificate is also taken at the midpoint of v and the
// best-certified point so far (the stability centre, as Wentges'
// smoothing), which moves to whichever certifies more. Both give cuts.
func (g *colgen) certify(v []float64) []cut {
	lb, c, cuts := g.evaluate(v)
	g.rho = c.rho // convergence is v's: a smoothed point's ρ says nothing of it
	if g.center != nil {
		mid := make([]float64, len(v))
		for i := range v {
			mid[i] = smooth*g.center[i] + (1-smooth)*v[i]
		}
		lbMid, cMid, more := g.evaluate(mid)
		cuts = append(cuts, more...)
		if lbMid > lb {
			lb, c, v = lbMid, cMid, mid
		}
	}
	if g.center == nil || lb > g.best {
		g.center = v
	}
	if lb > g.best {
		g.best, g.cert = lb, c
	}
	slices.SortStableFunc(cuts, func(a, b cut) int { return cmp.Compare(b.ratio, a.ratio) })
	return cuts[:min(len(cuts), g.o.cutsPerRound())]
}

// evaluate is the bound certified at v, its certificate and the cuts
// found.
func (g *colgen) evaluate(v []float64) (float64, cert, []cut) {
	k := len(g.m.count)
	y, z := v[:k], v[k:k+g.m.nz]
	p := newPricer(g.m, y, g.o.searchNodes()*g.effort, &g.work)
	var free float64
	var cuts []cut
	ws := make([]float64, len(g.m.nodes))
	for n := range g.m.nodes {
		w, c := g.nodeValue(p, n, v[k+g.m.nz+n])
		ws[n] = w * (1 + slack)
		free += w
		if c != nil {
			cuts = append(cuts, *c)
		}
	}
	var gain, charge float64
	for j, n := range g.m.count {
		gain += n * y[j]
	}
	for _, pv := range g.m.pools {
		for i, r := range pv.rhs {
			charge += r * z[pv.first+i]
		}
	}
	worth := gain - charge - free*(1+slack) - slack*(gain+charge+free)
	useful := math.Inf(1)
	if g.best > 0 {
		useful = worth / g.best
	}
	rho, more := g.columnsRho(p, z, useful)
	cuts = append(cuts, more...)
	rho = max(1, rho*(1+slack))
	return worth / rho, cert{v: v, w: ws, rho: rho}, cuts
}

// columnsRho bounds every column's priced ratio: first a cheap upper
// bound for all; then, in its order, for those whose cheap bound is above
// the largest ratio so far, the Lagrangian bound, for those still above
// it an exact search (within the round's budget), and for those the
// search leaves above it the knapsacks of dpBound, while the largest
// ratio so far is below useful (past it, the round certifies no more
// than the best so far whatever the rest are). Columns whose best pattern
// found is priced above their cost give cuts.
func (g *colgen) columnsRho(p *pricer, z []float64, useful float64) (float64, []cut) {
	cheap := make([]float64, len(g.m.cols))
	for j := range g.m.cols {
		col := &g.m.cols[j]
		cheap[j] = ratio(p.upper(&col.room, g.m.sets[col.set])-g.charge(col, z), col.price)
	}
	order := make([]int, len(cheap))
	for j := range order {
		order[j] = j
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(cheap[b], cheap[a]) })
	rho, calls := 0.0, 0
	var cuts []cut
	for _, j := range order {
		if cheap[j] <= max(rho, 1) {
			break
		}
		col := &g.m.cols[j]
		admits := g.m.sets[col.set]
		ub, pat, val, l := p.lagrangeUB(&col.room, admits)
		charge := g.charge(col, z)
		r := ratio(ub-charge, col.price)
		exact := false
		if r > max(rho, 1) && calls < g.o.searchesPerRound() {
			calls++
			if val, pat, exact = p.exact(&col.room, admits, pat, val, l); exact {
				r = min(r, ratio(val-charge, col.price))
			}
		}
		if !exact && r > max(rho, 1) && max(rho, 1) < useful {
			r = min(r, ratio(p.dpBound(&col.room, admits, l, max(rho, 1)*col.price+charge, val)-charge, col.price))
		}
		rho = max(rho, r)
		if found := ratio(val-charge, col.price); found > 1+cutTol {
			cuts = append(cuts, cut{col: j, node: -1, pattern: pat, ratio: found})
		}
	}
	return rho, cuts
}

// ratio is value over price, with a free column worth anything infinite.
func ratio(value, price float64) float64 {
	switch {
	case price > 0:
		return value / price
	case value > 0:
		return math.Inf(1)
	}
	return 0
}

// charge is what a column's node costs the limits at z.
func (g *colgen) charge(col *column, z []float64) float64 {
	first, c := g.m.pools[col.pool].first, 0.0
	for i, u := range col.use {
		c += u * z[first+i]
	}
	return c
}

// nodeValue is an upper bound of what node n's pods are worth at the
// pricer's y, and a cut when its best pattern is worth more than w, the
// restricted dual's value for it.
func (g *colgen) nodeValue(p *pricer, n int, w float64) (float64, *cut) {
	r := &g.m.nodes[n]
	admits := g.m.sets[r.set]
	ub, pat, val, l := p.lagrangeUB(r, admits)
	val, pat, exact := p.exact(r, admits, pat, val, l)
	if exact {
		ub = min(ub, val)
	} else {
		ub = min(ub, p.dpBound(r, admits, l, val, val))
	}
	if val > w*(1+cutTol)+cutTol {
		return ub, &cut{col: -1, node: n, pattern: pat, ratio: 1 + val - w}
	}
	return ub, nil
}

// solution reads the restricted LP's primal solution off the tableau:
// per row of a column's cut, its nodes x, where a row's multiplier is
// minus its slack's reduced cost, which for a cut (scaled to right-hand
// side 1) is price·x; 0 for the other rows and those of no node.
func (g *colgen) solution() []float64 {
	x := make([]float64, len(g.rows))
	for i, r := range g.rows {
		if r.col < 0 {
			continue
		}
		u := -g.tab.obj[g.tab.nv+i]
		if col := &g.m.cols[r.col]; u > pivotTol && col.price > 0 {
			x[i] = u / col.price
		}
	}
	return x
}

// patterns are the restricted LP's solution pattern by pattern, in the
// order the cuts were added; pods are the pods of each class.
func (g *colgen) patterns(pools []packing.PoolRoom, pods [][]int) []Pattern {
	var out []Pattern
	for i, x := range g.solution() {
		if x == 0 {
			continue
		}
		r := g.rows[i]
		col := &g.m.cols[r.col]
		pat := Pattern{NodePool: pools[col.pool].Name, Type: col.typ, Nodes: x}
		for j, k := range col.classes {
			if n := r.pattern[j]; n > 0 {
				pat.Classes = append(pat.Classes, PatternClass{Class: int(k), Pods: pods[k], Count: n})
			}
		}
		out = append(out, pat)
	}
	return out
}

// configurations are the patterns summed per pool and type, by pool then
// type.
func configurations(pats []Pattern) []Configuration {
	nodes := map[[2]string]float64{}
	for _, pat := range pats {
		nodes[[2]string{pat.NodePool, pat.Type}] += pat.Nodes
	}
	out := make([]Configuration, 0, len(nodes))
	for k, n := range nodes {
		out = append(out, Configuration{NodePool: k[0], Type: k[1], Nodes: n})
	}
	slices.SortFunc(out, func(a, b Configuration) int {
		return cmp.Or(cmp.Compare(a.NodePool, b.NodePool), cmp.Compare(a.Type, b.Type))
	})
	return out
}
