package packing

import (
	"fmt"
	"slices"
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
				assert.Equal(t, types[i], c.cheap, "claim %d retyped by settle", i)
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
// count. The zonal problems' pools have reserved offerings, so judge
// settles them as settle does; on the AWS catalog every claim of the
// limitless pool takes judge's walk, and under a cpu limit tightened after
// the pass so that the claims of the largest type stay slack and the
// others do not, judged and settled claims pass the pool's use on to each
// other. With the candidate cap at 3 as well (which, as a slack claim's
// first candidate is within the limits, changes no judged claim).
func TestJudgeAsSettle(t *testing.T) {
	cat, err := instancetypes.AWS(instancetypes.Options{})
	require.NoError(t, err)
	aws := faultProblem()
	aws.Catalog = cat
	for i := range 60 {
		aws.Pods = append(aws.Pods, Pod{Namespace: "default", Name: fmt.Sprintf("q%d", i),
			Requests: resources.List{CPU: int64(300 * (1 + i%7)), Memory: int64(1+i%5) << 29}})
	}
	for i, typ := range []string{"m5.large", "m5.xlarge", "c5.2xlarge"} { // claims of other sizes
		p := Pod{Namespace: "default", Name: fmt.Sprintf("pinned%d", i), Requests: resources.List{CPU: 500, Memory: 1 << 29}}
		p.NodeAffinity.Selector = requirements.NewSet(requirements.MustNew(requirements.LabelInstanceType, requirements.In, typ))
		aws.Pods = append(aws.Pods, p)
	}
	limited := aws
	limited.NodePools = []NodePool{{Name: "default", Limits: map[resources.Name]int64{resources.CPU: 1 << 40}}}
	minimum := aws // five families need more types than a cap of 3: settle lists them all
	family, err := requirements.MustNew(requirements.LabelInstanceFamily, requirements.Exists).WithMinValues(5)
	require.NoError(t, err)
	minimum.NodePools = []NodePool{{Name: "default", Requirements: requirements.NewSet(family)}}
	problems := []struct {
		name          string
		p             Problem
		judged, mixed bool // some claims take judge's walk; some do not
		uncapped      bool // with a cap of 3, some claim lists more (minValues)
	}{
		{"zonal", zonalProblem(t, 0), false, false, false},
		{"zonal, limited", zonalProblem(t, 60_000), false, false, false},
		{"aws", aws, true, false, false},
		{"aws, limited", limited, true, true, false},
		{"aws, minValues", minimum, true, false, true},
	}
	for _, tc := range problems {
		for _, maxTypes := range []int{0, 3} {
			for _, cost := range []bool{false, true} {
				r := newRun(compile(&tc.p, Options{MaxInstanceTypes: maxTypes}), passSpec{cost: cost, seq: seqFFD}, nil, nil)
				r.solve()
				r.merge()
				if tc.mixed { // the cpu limit tightened so that only claims of the largest type stay slack
					pl := r.s.pools[0]
					var caps []int64
					for _, c := range r.claims {
						caps = append(caps, pl.capLim[c.cheap][0])
					}
					slices.Sort(caps)
					require.NotEqual(t, caps[0], caps[len(caps)-1], "%s: every claim of one size", tc.name)
					pl.limits[0].Value = r.use.committed[0][0] + pl.maxCapLim[0] - caps[len(caps)-1]
				}
				for i, c := range r.claims { // the pass and merge kept each claim's zone
					require.Equal(t, zoneOf(c.reqs), c.zone, "%s, claim %d", tc.name, i)
				}
				quick, full := r.judge(), r.settle()
				plan := r.plan(quick)
				require.Equal(t, r.render(full, nil), plan, "%s, cap %d, cost %v: plan differs from settle's", tc.name, maxTypes, cost)
				for i, c := range r.claims { // each claim rendered alone: no answer from render's caches
					rc := renderCache{names: map[string][]string{}, labels: map[string][]requirements.Label{}}
					require.Equal(t, r.nodeClaim(c, full.claims[i], nil, &rc), plan.NodeClaims[i], "%s, claim %d rendered alone", tc.name, i)
				}
				require.Equal(t, full.price, quick.price, "%s, cap %d, cost %v", tc.name, maxTypes, cost)
				require.Equal(t, full.unschedulable, quick.unschedulable)
				require.Len(t, quick.claims, len(full.claims))
				judged, settled, longest := 0, 0, 0
				for i := range full.claims {
					longest = max(longest, len(full.claims[i].types))
					require.Equal(t, full.claims[i].chosen, quick.claims[i].chosen, "%s, cap %d, cost %v, claim %d", tc.name, maxTypes, cost, i)
					if quick.claims[i].types == nil {
						judged++
					} else {
						settled++
					}
				}
				if tc.judged {
					require.Positive(t, judged, "%s, cost %v: no claim took judge's walk", tc.name, cost)
				}
				if tc.mixed {
					require.Positive(t, settled, "%s, cost %v: every claim took judge's walk", tc.name, cost)
				}
				if tc.uncapped && maxTypes == 3 {
					require.Greater(t, longest, 3, "%s, cost %v: no claim lists more than the cap", tc.name, cost)
				}
			}
		}
	}
}
