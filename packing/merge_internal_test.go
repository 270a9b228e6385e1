package packing

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/nodeplan/nodeplan/instancetypes"
	"github.com/nodeplan/nodeplan/requirements"
	"github.com/nodeplan/nodeplan/resources"
)

// TestLadderSkipsOnlyShortTypes: on the AWS and diverse catalogs' price
// lists (every zone, and one zone), no option before the ladder's start
// is of a type with the cpu and the memory of a random need, so the first
// option whose type holds the need is never before the start; and the
// start is past the list's beginning for most needs (the ladder skips).
func TestLadderSkipsOnlyShortTypes(t *testing.T) {
	aws, err := instancetypes.AWS(instancetypes.Options{})
	require.NoError(t, err)
	rng := rand.New(rand.NewPCG(1, 2))
	for _, cat := range []*instancetypes.Catalog{aws, instancetypes.KarpenterDiverse()} {
		p := Problem{Catalog: cat, NodePools: []NodePool{{Name: "default"}}}
		r := newRun(compile(&p, Options{}), passSpec{}, nil, nil)
		pl := r.s.pools[0]
		zone := cat.Types()[0].Offerings[0].Zone
		for _, reqs := range []requirements.Set{pl.reqs, pl.reqs.Intersect(requirements.NewSet(requirements.MustNew(requirements.LabelZone, requirements.In, zone)))} {
			list := r.pricedBy(pl, 0, reqs, nil)
			require.NotEmpty(t, list)
			l := r.ladderOf(pl, list)
			require.Same(t, &l.cpu[0], &r.ladderOf(pl, list).cpu[0], "kept in the memo")
			skipped := 0
			for range 1000 {
				need := resources.List{CPU: rng.Int64N(200_000), Memory: rng.Int64N(1 << 40), Pods: rng.Int64N(8)}
				first := len(list)
				for i, o := range list {
					if need.Fits(pl.alloc[o.t]) {
						first = i
						break
					}
				}
				start := l.start(need)
				require.LessOrEqual(t, start, first, "need %+v", need)
				for i := range start {
					a := pl.alloc[list[i].t]
					require.False(t, a.CPU >= need.CPU && a.Memory >= need.Memory, "option %d before the start %d holds %+v", i, start, need)
				}
				if start > 0 {
					skipped++
				}
			}
			require.Greater(t, skipped, 600)
		}
	}
}
