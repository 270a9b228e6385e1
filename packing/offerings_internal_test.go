package packing

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/nodeplan/nodeplan/instancetypes"
	"github.com/nodeplan/nodeplan/internal/bitset"
	"github.com/nodeplan/nodeplan/requirements"
	"github.com/nodeplan/nodeplan/resources"
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

// TestOfferFilterPairs checks the pairs newOfferFilter allows, the
// claim's, the pod signature's and the pins' ANDed, against asking each
// pair of the claim's and pod's requirements and the pins (zone and
// capacityType, after readReqs): random claim and pod requirements on the
// zones and capacity types, and random pins.
func TestOfferFilterPairs(t *testing.T) {
	aws, err := instancetypes.AWS(instancetypes.Options{})
	require.NoError(t, err)
	p := Problem{Catalog: aws, NodePools: []NodePool{{Name: "default"}},
		Pods: []Pod{{Namespace: "default", Name: "p", Requests: resources.List{CPU: 100, Memory: 1 << 20}}}}
	r := newRun(compile(&p, Options{}), passSpec{cost: true, seq: seqFFD}, nil, nil)
	pl := r.s.pools[0]
	require.Greater(t, len(pl.pairZones), 2)
	require.Len(t, pl.pairCTs, 2)
	rng := rand.New(rand.NewPCG(3, 4))
	some := func(key string, values []string) requirements.Requirement {
		var in []string
		for _, v := range values {
			if rng.IntN(3) > 0 {
				in = append(in, v)
			}
		}
		op := []requirements.Operator{requirements.In, requirements.NotIn, requirements.Exists}[rng.IntN(3)]
		if op == requirements.Exists || len(in) == 0 {
			op, in = requirements.Exists, nil
		}
		return requirements.MustNew(key, op, in...)
	}
	someSet := func() requirements.Set {
		var reqs []requirements.Requirement
		if rng.IntN(3) > 0 {
			reqs = append(reqs, some(requirements.LabelZone, pl.pairZones))
		}
		if rng.IntN(3) > 0 {
			reqs = append(reqs, some(requirements.LabelCapacityType, pl.pairCTs))
		}
		return requirements.NewSet(reqs...)
	}
	allowed, active := 0, 0
	for range 500 {
		c := emptyClaim(pl, 0)
		c.setReqs(someSet())
		v := view{reqs: someSet()}
		v.sig = r.signature(v.reqs)
		var pins []pin
		if rng.IntN(3) == 0 {
			pins = append(pins, pin{key: requirements.LabelZone, value: pl.pairZones[rng.IntN(len(pl.pairZones))]})
		}
		if rng.IntN(3) == 0 {
			pins = append(pins, pin{key: requirements.LabelCapacityType, value: pl.pairCTs[rng.IntN(len(pl.pairCTs))]})
		}
		f := r.newOfferFilter(v, &c, pins)
		if !f.active {
			continue
		}
		active++
		slow := f
		slow.readReqs()
		var want uint64
		for i, p := range pl.offerPairs {
			if slow.zone(p.zone) && slow.capacityType(p.ct) {
				want |= 1 << i
			}
		}
		require.Equal(t, want, f.pairs)
		if want != 0 {
			allowed++
		}
	}
	require.Greater(t, active, 200, "most filters are active")
	require.Greater(t, allowed, 100, "most filters allow some pair")
}

// TestKeepsOwnZoneReadsTheClaim checks keepsOwnZone against the claim's own
// zone requirement when the pod and pins add nothing (an inactive offer
// filter): a claim of a pool kept to zone a may take a pod that is not
// needy only while it can launch in zone a alone.
func TestKeepsOwnZoneReadsTheClaim(t *testing.T) {
	aws, err := instancetypes.AWS(instancetypes.Options{})
	require.NoError(t, err)
	p := Problem{Catalog: aws, NodePools: []NodePool{{Name: "default"}},
		Pods: []Pod{{Namespace: "default", Name: "p", Requests: resources.List{CPU: 100, Memory: 1 << 20}}}}
	r := newRun(compile(&p, Options{}), passSpec{cost: true, seq: seqFFD}, nil, nil)
	pl := r.s.pools[0]
	require.Greater(t, len(pl.pairZones), 1)
	zone := pl.pairZones[0]
	r.needs = &needOrder{needy: []bool{false}, own: []map[string]bool{{zone: true}}, pairs: [][]zoneCT{pl.offerPairs}}
	v := r.view(0)
	anywhere := emptyClaim(pl, 0)
	require.False(t, r.keepsOwnZone(v, &anywhere, nil), "the claim may launch outside zone %s", zone)
	inZone := emptyClaim(pl, 0)
	inZone.fix(pin{requirements.LabelZone, zone})
	require.True(t, r.keepsOwnZone(v, &inZone, nil), "the claim launches in zone %s only", zone)
}

// TestLaunchableInAsOfferings checks launchableIn's AND of masks against
// a walk over each type's offerings: on the AWS and karpenter-diverse
// catalogs, pools that allow every zone, some zones, or one capacity
// type, every type and zone.
func TestLaunchableInAsOfferings(t *testing.T) {
	aws, err := instancetypes.AWS(instancetypes.Options{})
	require.NoError(t, err)
	checked := 0
	for _, cat := range []*instancetypes.Catalog{aws, instancetypes.KarpenterDiverse()} {
		for _, np := range []NodePool{{Name: "all"},
			{Name: "some", Requirements: requirements.NewSet(requirements.MustNew(requirements.LabelZone, requirements.NotIn, "us-east-1a", "test-zone-a"))},
			{Name: "spot", Requirements: requirements.NewSet(requirements.MustNew(requirements.LabelCapacityType, requirements.In, "spot"))}} {
			p := Problem{Catalog: cat, NodePools: []NodePool{np}}
			pl := compile(&p, Options{}).pools[0]
			require.NotNil(t, pl.offerMask)
			yes := 0
			for ti, it := range pl.types {
				for _, z := range append(slices.Clone(pl.pairZones), "nowhere") {
					want := slices.ContainsFunc(it.Offerings, func(o instancetypes.Offering) bool {
						return o.Usable() && o.Zone == z && o.Compatible(pl.reqs)
					})
					require.Equal(t, want, pl.launchableIn(ti, z), "%s %s %s", np.Name, it.Name, z)
					if want {
						yes++
					}
					checked++
				}
			}
			require.Positive(t, yes, np.Name)
		}
	}
	require.Greater(t, checked, 1000)
}
