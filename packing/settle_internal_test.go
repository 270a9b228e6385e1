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

// TestJudgeAsSettle: judge, which passes are compared by, gives each claim
// the offering settle gives it, and the same price and unschedulable
// count, with and without binding limits, on the synthetic and the AWS
// catalog, for both rules, with the candidate cap at its default and at
// 3 (so the walk's cutoff decides some claims).
func TestJudgeAsSettle(t *testing.T) {
	aws := faultProblem()
	cat, err := instancetypes.AWS(instancetypes.Options{})
	require.NoError(t, err)
	aws.Catalog = cat
	for i := range 60 {
		aws.Pods = append(aws.Pods, Pod{Namespace: "default", Name: fmt.Sprintf("q%d", i),
			Requests: resources.List{CPU: int64(300 * (1 + i%7)), Memory: int64(1+i%5) << 29}})
	}
	problems := map[string]Problem{"zonal": zonalProblem(t, 0), "zonal, limited": zonalProblem(t, 60_000), "aws": aws}
	judged := 0
	for name, p := range problems {
		for _, maxTypes := range []int{0, 3} {
			for _, cost := range []bool{false, true} {
				r := newRun(compile(&p, Options{MaxInstanceTypes: maxTypes}), passSpec{cost: cost, seq: seqFFD}, nil, nil)
				r.solve()
				r.merge()
				full, quick := r.settle(), r.judge()
				require.Equal(t, full.price, quick.price, "%s, cap %d, cost %v", name, maxTypes, cost)
				require.Equal(t, full.unschedulable, quick.unschedulable)
				require.Len(t, quick.claims, len(full.claims))
				for i := range full.claims {
					require.Equal(t, full.claims[i].chosen, quick.claims[i].chosen, "%s, cap %d, cost %v, claim %d", name, maxTypes, cost, i)
					if quick.claims[i].types == nil {
						judged++
					}
				}
			}
		}
	}
	require.Positive(t, judged, "no claim took judge's walk: the test shows nothing")
}
