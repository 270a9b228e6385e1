package packing

import (
	"math/bits"
	"slices"

	"github.com/nodeplan/nodeplan/instancetypes"
	"github.com/nodeplan/nodeplan/internal/bitset"
	"github.com/nodeplan/nodeplan/requirements"
)

// offerFilter says which offerings a claim could still launch once a pod
// and its topology pins join: the zone and capacity type must satisfy the
// claim's requirements, the pod's and the pins. A claim's candidate types
// always keep at least one such offering, so that the plan can launch any
// of them. The zero offerFilter admits everything.
type offerFilter struct {
	active          bool
	claimZ, claimCT requirements.Requirement
	podZ, podCT     requirements.Requirement
	podReqs         requirements.Set // the pod's, when hasPodReqs
	pinZone, pinCT  string
	hasPodReqs      bool
	hasZone, hasCT  bool
	pairs           uint64 // the pool's offerPairs the filter allows
	r               *run
	c               *claim
}

// newOfferFilter builds the filter for pod v joining c with pins; it is
// inactive when the pod and pins add nothing the claim has not checked.
// Where the pool has offerMask, the pairs the filter allows are the
// claim's, the pod's signature's (memo.pairs) and the pins', ANDed: a
// pair is allowed when each allows its zone and its capacity type, which
// is what zone and capacityType ask of the three together
// (TestOfferFilterPairs). Their requirements are read (readReqs) only
// where offerings are checked one by one.
func (r *run) newOfferFilter(v view, c *claim, pins []pin, extra ...pin) offerFilter {
	f := offerFilter{r: r, c: c}
	if !slices.Contains(c.sigs, v.sig) {
		f.hasPodReqs = v.reqs.Has(requirements.LabelZone) || v.reqs.Has(requirements.LabelCapacityType)
		if f.hasPodReqs {
			f.podReqs = v.reqs
		}
	}
	for _, p := range pins {
		f.pin(p)
	}
	for _, p := range extra {
		f.pin(p)
	}
	f.active = f.hasPodReqs || f.hasZone || f.hasCT || c.pl.reserved
	if !f.active {
		return f
	}
	if c.pl.offerMask == nil {
		f.readReqs()
		return f
	}
	f.pairs = c.claimPairs()
	if f.hasPodReqs {
		f.pairs &= r.memo.pairs[v.sig][c.pi]
	}
	if f.hasZone {
		f.pairs &= valuePairs(c.pl.pairZones, c.pl.zonePairs, f.pinZone)
	}
	if f.hasCT {
		f.pairs &= valuePairs(c.pl.pairCTs, c.pl.ctPairs, f.pinCT)
	}
	return f
}

// readReqs reads the claim's and the pod's zone and capacity-type
// requirements, which zone and capacityType check.
func (f *offerFilter) readReqs() {
	f.claimZ, f.claimCT = f.c.reqs.Get(requirements.LabelZone), f.c.reqs.Get(requirements.LabelCapacityType)
	if f.hasPodReqs {
		f.podZ, f.podCT = f.podReqs.Get(requirements.LabelZone), f.podReqs.Get(requirements.LabelCapacityType)
	}
}

// allowedBy is the set of pl's offerPairs whose zone and capacity type
// reqs allows, each zone and capacity type asked once; 0 where pl has no
// offerMask.
func (pl *pool) allowedBy(reqs requirements.Set) uint64 {
	if pl.offerMask == nil {
		return 0
	}
	zone, ct := reqs.Get(requirements.LabelZone), reqs.Get(requirements.LabelCapacityType)
	var zones, cts uint64
	for i, z := range pl.pairZones {
		if zone.Has(z) {
			zones |= pl.zonePairs[i]
		}
	}
	for i, c := range pl.pairCTs {
		if ct.Has(c) {
			cts |= pl.ctPairs[i]
		}
	}
	return zones & cts
}

// valuePairs is the pairs of value among keys (addPair's); 0 for a value
// no pair has.
func valuePairs(keys []string, pairs []uint64, value string) uint64 {
	if k := slices.Index(keys, value); k >= 0 {
		return pairs[k]
	}
	return 0
}

func (f *offerFilter) pin(p pin) {
	switch p.key {
	case requirements.LabelZone:
		f.pinZone, f.hasZone = p.value, true
	case requirements.LabelCapacityType:
		f.pinCT, f.hasCT = p.value, true
	}
}

// admits reports whether type index t of the claim's pool has a usable
// offering the filter allows.
func (f *offerFilter) admits(t int) bool {
	switch {
	case !f.active:
		return true
	case f.c.pl.offerMask != nil:
		return f.c.pl.offerMask[t]&f.pairs != 0
	}
	for _, o := range f.c.pl.types[t].Offerings {
		if f.r.usable(f.c, f.c.pl.types[t], o) && f.zone(o.Zone) && f.capacityType(o.CapacityType.String()) {
			return true
		}
	}
	return false
}

func (f *offerFilter) zone(z string) bool {
	return f.claimZ.Has(z) && (!f.hasPodReqs || f.podZ.Has(z)) && (!f.hasZone || z == f.pinZone)
}

func (f *offerFilter) capacityType(ct string) bool {
	return f.claimCT.Has(ct) && (!f.hasPodReqs || f.podCT.Has(ct)) && (!f.hasCT || ct == f.pinCT)
}

// usable reports whether claim c could launch offering o of t: it is usable
// and, when reserved, the reservation has units no other claim holds.
func (r *run) usable(c *claim, t *instancetypes.InstanceType, o instancetypes.Offering) bool {
	if !o.Usable() {
		return false
	}
	if o.CapacityType != instancetypes.Reserved {
		return true
	}
	key := reservationOf(t, o)
	return (c.hasResv && c.resv == key) || r.held[key] < o.ReservedUnits
}

// reserve moves c's hold to the reservation its committed type would launch
// on, if that is a reserved offering, so later claims see the units taken.
func (r *run) reserve(c *claim) {
	if !c.pl.reserved {
		return
	}
	if key, ok := c.release(); ok {
		r.held[key]--
	}
	t := c.pl.types[c.cheap]
	zone, ct := c.reqs.Get(requirements.LabelZone), c.reqs.Get(requirements.LabelCapacityType)
	for _, o := range t.Offerings {
		if r.usable(c, t, o) && zone.Has(o.Zone) && ct.Has(o.CapacityType.String()) {
			if o.CapacityType == instancetypes.Reserved {
				c.hold(reservationOf(t, o), o.ReservedUnits)
				r.held[c.resv]++
			}
			return
		}
	}
}

// zoneCT is a zone and a capacity type an offering may launch in.
type zoneCT struct{ zone, ct string }

// maskOffers fills offerPairs and offerMask, so that an offer filter tests
// a type with one AND instead of a pass over its offerings, and the pairs
// by zone, by capacity type and as type sets (allowedPairs, narrow).
func (pl *pool) maskOffers() {
	if pl.reserved {
		return
	}
	index := map[zoneCT]int{}
	masks := make([]uint64, len(pl.types))
	for t, it := range pl.types {
		for _, o := range it.Offerings {
			if !o.Usable() {
				continue
			}
			p := zoneCT{o.Zone, o.CapacityType.String()}
			i, ok := index[p]
			if !ok {
				if i = len(index); i == 64 {
					pl.offerPairs = nil
					return
				}
				index[p] = i
				pl.offerPairs = append(pl.offerPairs, p)
			}
			masks[t] |= 1 << i
		}
	}
	pl.offerMask = masks
	for i, p := range pl.offerPairs {
		pl.pairZones, pl.zonePairs = addPair(pl.pairZones, pl.zonePairs, p.zone, i)
		pl.pairCTs, pl.ctPairs = addPair(pl.pairCTs, pl.ctPairs, p.ct, i)
	}
	pl.pairTypes = make([]bitset.Set, len(pl.offerPairs))
	for i := range pl.pairTypes {
		pl.pairTypes[i] = bitset.New(len(pl.types))
	}
	for t, m := range masks {
		for ; m != 0; m &= m - 1 {
			pl.pairTypes[bits.TrailingZeros64(m)].Add(t)
		}
	}
}

// addPair records pair i under its zone or capacity type v: keys are the
// distinct values, pairs[k] the pairs of keys[k].
func addPair(keys []string, pairs []uint64, v string, i int) ([]string, []uint64) {
	k := slices.Index(keys, v)
	if k < 0 {
		keys, pairs, k = append(keys, v), append(pairs, 0), len(keys)
	}
	pairs[k] |= 1 << i
	return keys, pairs
}

// narrow removes from cand the types admits rejects, a word at a time,
// using buf (as long as cand) for the pairs' union. It reports whether
// every type of cand is admitted now: true for an inactive filter (which
// admits all) and where the pool has offerMask, false otherwise (admits
// must then ask each type).
func (f *offerFilter) narrow(cand, buf bitset.Set) bool {
	if !f.active {
		return true
	}
	if f.c.pl.offerMask == nil {
		return false
	}
	buf.Clear()
	for p := f.pairs; p != 0; p &= p - 1 {
		buf.Or(f.c.pl.pairTypes[bits.TrailingZeros64(p)])
	}
	cand.And(buf)
	return true
}
