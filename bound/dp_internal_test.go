package bound

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestOneDimBounds: on random knapsacks, oneDim is never below the best
// pattern (enumerated), whatever the dimension kept, the multipliers
// (none, the relaxation's, random), the units (from 1 to maxUnits, so
// that requests are rounded down or not at all) and tiny; nor is
// dpBound. With one dimension, no multipliers, nothing tiny and units
// that round nothing, it is the best pattern.
func TestOneDimBounds(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 5))
	exact := 0
	for trial := range 400 {
		p, r, admits := knapsack(rng)
		best := roomBest(p, r, admits)
		tol := 1e-9 * max(1, math.Abs(best))
		relaxed := p.newLagrange(r, admits)
		relaxed.minimise(1 << 20)
		random := &lagrange{lambda: make([]float64, len(p.m.names))}
		for d := range random.lambda {
			random.lambda[d] = rng.Float64() / 4
		}
		none := &lagrange{lambda: make([]float64, len(p.m.names))}
		for d := range p.m.names {
			for _, l := range []*lagrange{none, relaxed, random} {
				for _, units := range []int64{1, 2, 3, 7, maxUnits} {
					for _, tiny := range []float64{0, 0.5} {
						got := p.oneDim(r, admits, l, d, units, tiny)
						assert.GreaterOrEqual(t, got, best-tol, "trial %d: dimension %d, λ %v, %d units, tiny %v", trial, d, l.lambda, units, tiny)
						if len(p.m.names) == 1 && l == none && units == maxUnits && tiny == 0 {
							assert.InDelta(t, best, got, tol, "trial %d: one dimension, exact", trial)
							exact++
						}
					}
				}
			}
		}
		for _, target := range []float64{0, best, 2 * best} {
			assert.GreaterOrEqual(t, p.dpBound(r, admits, relaxed, target, 0), best-tol, "trial %d: dpBound, target %v", trial, target)
		}
	}
	assert.Greater(t, exact, 50, "one-dimensional knapsacks compared exactly")
}

// TestUnit: the greatest common divisor when the room has at most most
// of it, else doubled until it does.
func TestUnit(t *testing.T) {
	for _, c := range []struct{ g, room, most, want int64 }{
		{0, 10, 100, 1},
		{4, 400, 100, 4},
		{4, 404, 100, 8},
		{3, 10_000, 100, 192},
		{5, 0, 100, 5},
	} {
		assert.Equal(t, c.want, unit(c.g, c.room, c.most), "%+v", c)
	}
}

// TestOneDimOverdrawn: an existing node's room may be overdrawn (its pods
// request more than its allocatable): the knapsack has no unit to give,
// and dpBound is still no less than a pattern's worth.
func TestOneDimOverdrawn(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 9))
	for range 50 {
		p, r, admits := knapsack(rng)
		r.alloc[0] = -1 - int64(rng.IntN(5))
		l := p.newLagrange(r, admits)
		l.minimise(1 << 20)
		for d := range p.m.names {
			assert.NotPanics(t, func() { p.oneDim(r, admits, l, d, maxUnits, 0) })
		}
		assert.GreaterOrEqual(t, p.dpBound(r, admits, l, 0, 0.5), 0.5)
	}
}
