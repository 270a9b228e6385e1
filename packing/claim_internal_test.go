package packing

import (
	"math/rand/v2"
	"slices"
	"sort"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestSortByPodsAsSortSlice: sortByPods leaves claims with equal counts in
// the order sort.Slice, which Karpenter uses, leaves them, on random
// lists up to past exactOrderClaims with many ties.
func TestSortByPodsAsSortSlice(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for trial := range 20_000 {
		n, counts := rng.IntN(2*exactOrderClaims), 1+rng.IntN(12)
		got := make([]*claim, n)
		for i := range got {
			got[i] = &claim{id: i, pods: make([]int, rng.IntN(counts))}
		}
		want := slices.Clone(got)
		sort.Slice(want, func(a, b int) bool { return len(want[a].pods) < len(want[b].pods) })
		sortByPods(got)
		require.Equal(t, want, got, "trial %d, %d claims", trial, n)
	}
}
