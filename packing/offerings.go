package packing

import (
	"slices"

	"github.com/nodeplan/nodeplan/instancetypes"
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
	pinZone, pinCT  string
	hasPodReqs      bool
	hasZone, hasCT  bool
	r               *run
	c               *claim
}

// newOfferFilter builds the filter for pod v joining c with pins; it is
// inactive when the pod and pins add nothing the claim has not checked.
func (r *run) newOfferFilter(v view, c *claim, pins []pin, extra ...pin) offerFilter {
	f := offerFilter{claimZ: c.reqs.Get(requirements.LabelZone), claimCT: c.reqs.Get(requirements.LabelCapacityType), r: r, c: c}
	if !slices.Contains(c.sigs, v.sig) {
		f.podZ, f.podCT = v.reqs.Get(requirements.LabelZone), v.reqs.Get(requirements.LabelCapacityType)
		f.hasPodReqs = v.reqs.Has(requirements.LabelZone) || v.reqs.Has(requirements.LabelCapacityType)
	}
	for _, p := range pins {
		f.pin(p)
	}
	for _, p := range extra {
		f.pin(p)
	}
	f.active = f.hasPodReqs || f.hasZone || f.hasCT || c.pl.reserved
	return f
}

func (f *offerFilter) pin(p pin) {
	switch p.key {
	case requirements.LabelZone:
		f.pinZone, f.hasZone = p.value, true
	case requirements.LabelCapacityType:
		f.pinCT, f.hasCT = p.value, true
	}
}

// admits reports whether t has a usable offering the filter allows.
func (f *offerFilter) admits(t *instancetypes.InstanceType) bool {
	if !f.active {
		return true
	}
	for _, o := range t.Offerings {
		if f.r.usable(f.c, t, o) && f.zone(o.Zone) && f.capacityType(o.CapacityType.String()) {
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
	if c.hasResv {
		r.held[c.resv]--
		c.hasResv = false
	}
	t := c.pl.types[c.cheap]
	zone, ct := c.reqs.Get(requirements.LabelZone), c.reqs.Get(requirements.LabelCapacityType)
	for _, o := range t.Offerings {
		if r.usable(c, t, o) && zone.Has(o.Zone) && ct.Has(o.CapacityType.String()) {
			if o.CapacityType == instancetypes.Reserved {
				c.resv, c.hasResv, c.resvUnits = reservationOf(t, o), true, o.ReservedUnits
				r.held[c.resv]++
			}
			return
		}
	}
}
