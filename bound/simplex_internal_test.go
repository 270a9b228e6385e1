package bound

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/optimize/convex/lp"
)

// TestTableauAgainstGonum checks the in-house simplex against gonum's
// lp.Simplex, the ecosystem's, on random LPs of the restricted dual's
// form (max gᵀv, Mv ≤ b, v ≥ 0, b ≥ 0): rows added one at a time with a
// solve after each, as column generation does, must end at gonum's
// optimum of all rows at once.
func TestTableauAgainstGonum(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 21))
	compared := 0
	for trial := range 200 {
		nv, rows := 1+rng.IntN(6), 1+rng.IntN(10)
		g := make([]float64, nv)
		for j := range g {
			g[j] = float64(rng.IntN(10))
		}
		tab := newTableau(g)
		a := mat.NewDense(rows+nv, nv+rows+nv, nil)
		b := make([]float64, rows+nv)
		// A box v ≤ 10 keeps both bounded.
		for j := range nv {
			a.Set(rows+j, j, 1)
			a.Set(rows+j, nv+rows+j, 1)
			b[rows+j] = 10
			coef := make([]float64, nv)
			coef[j] = 1
			tab.addRow(coef, 10)
		}
		require.NoError(t, tab.solve(10000), "trial %d: the box", trial)
		for i := range rows {
			coef := make([]float64, nv)
			for j := range coef {
				if rng.IntN(3) > 0 {
					coef[j] = float64(rng.IntN(9)) - 1 // mostly ≥ 0, some −1
				}
				a.Set(i, j, coef[j])
			}
			rhs := float64(rng.IntN(5))
			b[i] = rhs
			a.Set(i, nv+i, 1)
			tab.addRow(coef, rhs)
			require.NoError(t, tab.solve(10000), "trial %d row %d", trial, i)
		}
		c := make([]float64, nv+rows+nv)
		for j := range g {
			c[j] = -g[j]
		}
		want, _, err := lp.Simplex(c, a, b, 1e-10, nil)
		if err != nil {
			continue // gonum's own failure (e.g. a degenerate basis); ours is checked by the certificate tests
		}
		got := 0.0
		for j, v := range tab.values() {
			got += g[j] * v
		}
		assert.InDelta(t, -want, got, 1e-7*max(1, math.Abs(want)), "trial %d", trial)
		compared++
	}
	assert.Greater(t, compared, 150, "trials gonum solved")
}
