package packing

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nodeplan/nodeplan/instancetypes"
	"github.com/nodeplan/nodeplan/requirements"
	"github.com/nodeplan/nodeplan/resources"
)

// zonalProblem spreads three apps' pods over zones on a synthetic catalog,
// whose prices differ by zone: the offering settle picks for a zone is
// then often of another type than the claim's cheapest under its pool.
func zonalProblem(t *testing.T, cpuLimit int64) Problem {
	cat, err := instancetypes.Synthetic(80, 7)
	require.NoError(t, err)
	p := Problem{Catalog: cat, NodePools: []NodePool{{Name: "default"}}}
	if cpuLimit > 0 {
		p.NodePools[0].Limits = map[resources.Name]int64{resources.CPU: cpuLimit}
	}
	for i := range 120 {
		app := map[string]string{"app": fmt.Sprint(i % 3)}
		p.Pods = append(p.Pods, Pod{Namespace: "default", Name: fmt.Sprintf("p%d", i), Labels: app,
			Requests:       resources.List{CPU: int64(500 * (1 + i%4)), Memory: int64(1+i%3) << 29},
			TopologySpread: []TopologySpread{{TopologyKey: requirements.LabelZone, MaxSkew: 1, Selector: requirements.FromLabels(app)}}})
	}
	return p
}

// TestSettleOnlyComputes: settle changes neither the run's claims nor its
// pools' use, though it settles claims on other types than their cheapest
// (and, under a binding cpu limit, weighs the limits claim by claim), so
// settling a finished pass twice gives one settlement.
func TestSettleOnlyComputes(t *testing.T) {
	for _, limit := range []int64{0, 60_000} {
		for _, cost := range []bool{false, true} {
			p := zonalProblem(t, limit)
			r := newRun(compile(&p, Options{}), passSpec{cost: cost, seq: seqFFD}, nil, nil)
			r.solve()
			r.merge()
			types := make([]int, len(r.claims))
			for i, c := range r.claims {
				types[i] = c.cheap
			}
			use := r.use.clone()

			first := r.settle()
			retyped := 0
			for i, c := range r.claims {
				assert.Equal(t, types[i], c.cheap, "claim %s retyped by settle", c.name)
				if first.claims[i].chosen.t != c.cheap {
					retyped++
				}
			}
			require.Positive(t, retyped, "limit %d, cost %v: no claim settles on another type; the test shows nothing", limit, cost)
			assert.Equal(t, use, r.use, "settle changed the pools' use")
			assert.Equal(t, first, r.settle(), "a second settle differs")
		}
	}
}
