package bound

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/optimize/convex/lp"

	"github.com/nodeplan/nodeplan/resources"
)

// knapsack is a random room and classes for the relaxation's tests: up
// to four dimensions, some classes in anti-affinity groups, y ≥ 0.
func knapsack(rng *rand.Rand) (*pricer, *room, []bool) {
	dims := 1 + rng.IntN(4)
	m := &model{names: []resources.Name{resources.CPU, resources.Memory, resources.Pods, "example.com/x"}[:dims]}
	m.groups = rng.IntN(3)
	classes := 1 + rng.IntN(9)
	r := &room{alloc: make([]int64, dims)}
	for d := range r.alloc {
		r.alloc[d] = int64(rng.IntN(40)) // 0 now and then: a dimension the room lacks
	}
	y := make([]float64, classes)
	admits := make([]bool, classes)
	for k := range classes {
		req := make([]int64, dims)
		for d := range req {
			req[d] = int64(rng.IntN(12)) // 0 now and then: a class not requesting it
		}
		m.req = append(m.req, req)
		m.count = append(m.count, float64(1+rng.IntN(6)))
		g := -1
		if m.groups > 0 && rng.IntN(2) == 0 {
			g = rng.IntN(m.groups)
		}
		m.group = append(m.group, g)
		y[k] = float64(rng.IntN(20)) / 4
		admits[k] = rng.IntN(6) > 0
		r.classes = append(r.classes, int32(k))
	}
	work := 1 << 30
	return newPricer(m, y, 1<<20, &work), r, admits
}

// relaxedOptimum is the knapsack's LP relaxation solved by gonum's
// lp.Simplex: max yᵀx, req·x ≤ room per dimension, Σ_g x ≤ 1 per group,
// 0 ≤ x ≤ fit, over l's items.
func relaxedOptimum(t *testing.T, l *lagrange) (float64, bool) {
	t.Helper()
	n, dims, groups := len(l.ks), len(l.lambda), len(l.mu)
	rows := dims + groups + n
	a := mat.NewDense(rows, n+rows, nil)
	b := make([]float64, rows)
	c := make([]float64, n+rows)
	for i, k := range l.ks {
		c[i] = -l.p.y[k]
		for d, req := range l.p.m.req[k] {
			a.Set(d, i, float64(req))
		}
		if g := l.p.m.group[k]; g >= 0 {
			a.Set(dims+g, i, 1)
		}
		a.Set(dims+groups+i, i, 1)
		b[dims+groups+i] = l.fit[i]
	}
	for d := range dims {
		b[d] = float64(l.r.alloc[d])
	}
	for g := range groups {
		b[dims+g] = 1
	}
	for i := range rows {
		a.Set(i, n+i, 1)
	}
	opt, _, err := lp.Simplex(c, a, b, 1e-10, nil)
	return -opt, err == nil
}

// TestRelaxIsLPOptimum: at the relaxation's duals the Lagrangian bound is
// the LP relaxation's optimum (gonum's, on random knapsacks); when the
// simplex is allowed 0–2 pivots (so that it stops short, or finishes on a
// small knapsack) the multipliers minimise finds are still a bound at
// least that optimum and every pattern's value (enumerated). The branch
// and bound, bounded by them, finds the best pattern.
func TestRelaxIsLPOptimum(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	compared := 0
	for trial := range 300 {
		p, r, admits := knapsack(rng)
		lg := p.newLagrange(r, admits)
		if len(lg.ks) == 0 {
			continue
		}
		want, ok := relaxedOptimum(t, lg)
		best := roomBest(p, r, admits)
		require.True(t, lg.relax(1<<20), "trial %d: the simplex finishes", trial)
		tol := 1e-9 * max(1, math.Abs(want))
		if ok {
			assert.InDelta(t, want, lg.value(), tol, "trial %d: the LP relaxation's optimum", trial)
			compared++
		}
		if v, _, exact := p.exact(r, admits, make([]int64, len(r.classes)), 0, lg); exact {
			assert.InDelta(t, best, v, tol, "trial %d: the search's best pattern", trial)
		} else {
			t.Errorf("trial %d: the search did not finish", trial)
		}
		for _, pivots := range []int{0, 1, 2} {
			short := p.newLagrange(r, admits)
			short.minimise(pivots)
			if ok {
				assert.GreaterOrEqual(t, short.value(), want-tol, "trial %d, %d pivots: below the LP optimum", trial, pivots)
			}
			assert.GreaterOrEqual(t, short.value(), best-tol, "trial %d, %d pivots: below a pattern", trial, pivots)
		}
	}
	assert.Greater(t, compared, 200, "knapsacks gonum solved")
}

// roomBest is the most a pattern of the classes room r admits is worth at
// the pricer's y, by enumeration (bestPattern).
func roomBest(p *pricer, r *room, admits []bool) float64 {
	pats := patterns{req: p.m.req, count: p.m.count}
	for _, g := range p.m.group {
		pats.group = append(pats.group, int(g))
	}
	var admitted []int32
	for _, k := range r.classes {
		if admits[k] {
			admitted = append(admitted, k)
		}
	}
	return bestPattern(pats, p.y, admitted, r.alloc)
}
