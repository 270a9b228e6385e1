package packing

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/nodeplan/nodeplan/instancetypes"
	"github.com/nodeplan/nodeplan/internal/bitset"
	"github.com/nodeplan/nodeplan/requirements"
)

// TestEnoughByNumbersAsByStrings: on the AWS catalog, for the keys with
// one value a type (family, type, cpu) and several (zone), the numbered
// count of distinct values agrees with the count over strings, for random
// candidate sets, requirements allowing all values, some (In), all but
// some (NotIn) or a range (Gt), and minimums.
func TestEnoughByNumbersAsByStrings(t *testing.T) {
	aws, err := instancetypes.AWS(instancetypes.Options{})
	require.NoError(t, err)
	p := Problem{Catalog: aws, NodePools: []NodePool{{Name: "default"}}}
	pl := compile(&p, Options{}).pools[0]
	rng := rand.New(rand.NewPCG(3, 4))
	agreed := [2]int{}
	for _, key := range []string{requirements.LabelInstanceFamily, requirements.LabelInstanceType, requirements.LabelInstanceCPU, requirements.LabelZone} {
		vals := keyValues(pl, key)
		ids := pl.numberKey(key)
		require.NotEmpty(t, ids.values, key)
		for ti := range pl.types {
			var got []string
			for _, id := range ids.ids[ti] {
				got = append(got, ids.values[id])
			}
			require.Equal(t, vals[ti], got, "%s of %s", key, pl.types[ti].Name)
		}
		for range 500 {
			cand := bitset.New(len(pl.types))
			for ti := range pl.types {
				if rng.IntN(8) == 0 {
					cand.Add(ti)
				}
			}
			req := requirements.MustNew(key, requirements.Exists)
			switch rng.IntN(4) {
			case 0: // some values out
				req = requirements.MustNew(key, requirements.NotIn, ids.values[rng.IntN(len(ids.values))], ids.values[rng.IntN(len(ids.values))])
			case 1:
				if key == requirements.LabelInstanceCPU {
					req = requirements.MustNew(key, requirements.Gt, fmt.Sprint(rng.IntN(64)))
				}
			}
			if rng.IntN(2) == 0 {
				var allowed []string
				for _, v := range ids.values {
					if rng.IntN(3) == 0 {
						allowed = append(allowed, v)
					}
				}
				if len(allowed) == 0 {
					allowed = ids.values[:1]
				}
				req = requirements.MustNew(key, requirements.In, allowed...)
			}
			n := 1 + rng.IntN(40)
			want := enoughValues(vals, req, cand, n)
			require.Equal(t, want, ids.enough(req, cand, n), "%s, n %d", key, n)
			agreed[boolIndex(want)]++
		}
	}
	require.Positive(t, agreed[0], "no case without enough values")
	require.Positive(t, agreed[1], "no case with enough values")
}

// enoughValues is the count over strings the numbered one replaced: the
// oracle of TestEnoughByNumbersAsByStrings.
func enoughValues(vals [][]string, req requirements.Requirement, cand bitset.Set, n int) bool {
	var seen []string
	for t := cand.Next(0); t >= 0 && len(seen) < n; t = cand.Next(t + 1) {
		for _, val := range vals[t] {
			if !slices.Contains(seen, val) && req.Has(val) {
				seen = append(seen, val)
			}
		}
	}
	return len(seen) >= n
}

func boolIndex(b bool) int {
	if b {
		return 1
	}
	return 0
}

// keyValues lists, per type of pl, the values of its requirement on key:
// what numberKey numbers.
func keyValues(pl *pool, key string) [][]string {
	out := make([][]string, len(pl.types))
	for t, it := range pl.types {
		out[t] = it.Requirements.Get(key).Values()
	}
	return out
}
