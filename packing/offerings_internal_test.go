package packing

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/nodeplan/nodeplan/instancetypes"
	"github.com/nodeplan/nodeplan/internal/bitset"
)

// TestOfferNarrowAsAdmits checks offerFilter.narrow, word by word, against
// admits type by type: on the AWS and karpenter-diverse catalogs, random
// candidate sets and random allowed pairs leave the same types.
func TestOfferNarrowAsAdmits(t *testing.T) {
	aws, err := instancetypes.AWS(instancetypes.Options{})
	require.NoError(t, err)
	rng := rand.New(rand.NewPCG(1, 2))
	for _, cat := range []*instancetypes.Catalog{aws, instancetypes.KarpenterDiverse()} {
		p := Problem{Catalog: cat, NodePools: []NodePool{{Name: "default"}}}
		pl := compile(&p, Options{}).pools[0]
		require.NotNil(t, pl.offerMask)
		require.Greater(t, len(pl.offerPairs), 1)
		buf := bitset.New(len(pl.types))
		for range 200 {
			cand := bitset.New(len(pl.types))
			for i := range pl.types {
				if rng.IntN(3) > 0 {
					cand.Add(i)
				}
			}
			f := offerFilter{active: true, pairs: rng.Uint64() & (1<<len(pl.offerPairs) - 1), c: &claim{pl: pl}}
			want := cand.Clone()
			for i := cand.Next(0); i >= 0; i = cand.Next(i + 1) {
				if !f.admits(i) {
					want.Remove(i)
				}
			}
			got := cand.Clone()
			require.True(t, f.narrow(got, buf))
			require.Equal(t, want, got)
		}
	}
}
