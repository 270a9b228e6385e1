package packing

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/nodeplan/nodeplan/instancetypes"
	"github.com/nodeplan/nodeplan/internal/bitset"
	"github.com/nodeplan/nodeplan/resources"
)

// trimOneByOne is trim as a plain walk: the reference the binary search
// and the bulk removal must agree with.
func trimOneByOne(pl *pool, cand bitset.Set, cut *[dims]int, need resources.List) {
	for d := range dims {
		order, n := pl.bySize[d], dim(&need, d)
		for cut[d] < len(order) && dim(&pl.alloc[order[cut[d]]], d) < n {
			cand.Remove(int(order[cut[d]]))
			cut[d]++
		}
	}
}

// TestTrimAgreesWithWalk grows a claim's need step by step, as pods join
// it, on the embedded AWS catalog's 1,000-odd types: after every step the
// candidates and cuts are those of the one-by-one walk, steps small and
// large.
func TestTrimAgreesWithWalk(t *testing.T) {
	cat, err := instancetypes.AWS(instancetypes.Options{})
	require.NoError(t, err)
	s := compile(&Problem{Catalog: cat, NodePools: []NodePool{{Name: "default"}}}, Options{})
	pl := s.pools[0]
	require.Greater(t, len(pl.types), 500)
	require.Equal(t, 64, pl.step)
	rng := rand.New(rand.NewPCG(1, 2))
	for run := range 400 {
		if run == 200 { // the step of a catalog of thousands of types
			pl.prefixSets(192)
		}
		got, want := bitset.Full(len(pl.types)), bitset.Full(len(pl.types))
		for _, r := range []int{3, 50, 400} { // some types gone for other reasons
			got.Remove(rng.IntN(len(pl.types)) % r)
		}
		want.CopyFrom(got)
		var gotCut, wantCut [dims]int
		var need resources.List
		for range 1 + rng.IntN(12) {
			scale := []int64{1, 10, 100, 1000}[rng.IntN(4)]
			need = need.Add(resources.List{CPU: rng.Int64N(500 * scale), Memory: rng.Int64N(1<<28) * scale,
				EphemeralStorage: rng.Int64N(1 << 30), Pods: rng.Int64N(3)})
			pl.trim(got, &gotCut, need)
			trimOneByOne(pl, want, &wantCut, need)
			require.Equal(t, wantCut, gotCut, "run %d need %v", run, need)
			require.True(t, slices.Equal(want, got), "run %d need %v", run, need)
		}
	}
}
