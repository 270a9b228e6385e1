package consolidation

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/nodeplan/nodeplan/resources"
)

// TestUsableAsFitsAndAdd holds usable's spelt-out sum to Fits and Add on
// core lists, the candidates left out, near the saturation too.
func TestUsableAsFitsAndAdd(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	amount := func() int64 {
		if rng.IntN(20) == 0 {
			return math.MaxInt64 - rng.Int64N(4)
		}
		return rng.Int64N(5)
	}
	core := func() resources.List {
		return resources.List{CPU: amount(), Memory: amount(), EphemeralStorage: amount()}
	}
	for trial := range 5_000 {
		r := &room{}
		n := rng.IntN(12)
		for range n {
			r.free = append(r.free, core())
			r.ok = append(r.ok, rng.IntN(4) != 0)
		}
		var cands []candidate
		gone := map[int]bool{}
		for i := range n {
			if rng.IntN(3) == 0 {
				cands = append(cands, candidate{at: i})
				gone[i] = true
			}
		}
		least := core()
		var want resources.List
		for i := range r.free {
			if r.ok[i] && !gone[i] && least.Fits(r.free[i]) {
				want = want.Add(r.free[i])
			}
		}
		require.Equal(t, want, r.usable(cands, least), "trial %d", trial)
		require.Equal(t, want, r.usable(cands, least), "trial %d, again: gone is reset", trial)
	}
}
