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

// TestClaimNumber: claims take the numbers, in order, that no node takes.
func TestClaimNumber(t *testing.T) {
	for _, tc := range []struct {
		taken []int
		want  []int // the numbers of ids 0, 1, 2, 3
	}{
		{nil, []int{1, 2, 3, 4}},
		{[]int{1}, []int{2, 3, 4, 5}},
		{[]int{1, 2}, []int{3, 4, 5, 6}},
		{[]int{2}, []int{1, 3, 4, 5}},
		{[]int{2, 4}, []int{1, 3, 5, 6}},
	} {
		pl := &pool{taken: tc.taken}
		for id, want := range tc.want {
			require.Equal(t, want, pl.claimNumber(id), "taken %v, id %d", tc.taken, id)
		}
	}
	rng := rand.New(rand.NewPCG(5, 6))
	for range 200 {
		pl := &pool{}
		for n := 1; n <= 40; n++ {
			if rng.IntN(3) == 0 {
				pl.taken = append(pl.taken, n)
			}
		}
		free := 0 // the numbers no node takes, in order
		for n := 1; free < 50; n++ {
			if slices.Contains(pl.taken, n) {
				continue
			}
			require.Equal(t, n, pl.claimNumber(free), "taken %v, id %d", pl.taken, free)
			free++
		}
	}
	for _, tc := range []struct {
		name string
		n    int
		ok   bool
	}{{"p-1", 1, true}, {"p-12", 12, true}, {"p-01", 0, false}, {"p-", 0, false}, {"p-1a", 0, false}, {"q-1", 0, false}, {"p--1", 0, false}} {
		n, ok := claimNumberOf(tc.name, "p-")
		require.Equal(t, tc.ok, ok, tc.name)
		require.Equal(t, tc.n, n, tc.name)
	}
}
