package instancetypes

import (
	"github.com/nodeplan/nodeplan/requirements"
	"github.com/nodeplan/nodeplan/resources"
)

// InstanceType is a machine shape a node can be launched as: the labels it
// satisfies, its resources, and the offerings it can be bought through.
//
// Requirements holds the labels the type satisfies: instance-type, arch, os,
// the provider labels, and zone and capacity-type In the values of its
// available offerings. Allocatable is Capacity minus Overhead, computed once
// by [New]. Offerings are sorted by price, then capacity type (reserved,
// spot, on-demand), then zone.
//
// An InstanceType obtained from a [Catalog] is shared and must not be
// modified; its methods are safe for concurrent use.
type InstanceType struct {
	Name         string
	Requirements requirements.Set
	Capacity     resources.List
	Overhead     resources.List // kube-reserved + system-reserved + eviction threshold
	Allocatable  resources.List
	Offerings    []Offering
	// src, for a type of a catalog file, is how its capacity and overhead
	// were built; nil for a type given to [New] with its own.
	src *source
}

// Cheapest returns the cheapest usable ([Offering.Usable]) offering whose
// zone and capacity type satisfy reqs, and false when there is none. Ties go
// to the order of Offerings. Reserved offerings come first only through their
// price, as in Karpenter, whose providers price reserved capacity near zero.
// The complexity is O(len(Offerings)); it does not allocate.
func (t *InstanceType) Cheapest(reqs requirements.Set) (Offering, bool) {
	zone, ct := reqs.Get(requirements.LabelZone), reqs.Get(requirements.LabelCapacityType)
	for _, o := range t.Offerings {
		if o.Usable() && zone.Has(o.Zone) && ct.Has(o.CapacityType.String()) {
			return o, true
		}
	}
	return Offering{}, false
}

// WorstLaunchPrice returns Karpenter's worst-case launch price: among the
// usable offerings compatible with reqs, take the first capacity type present
// in the order reserved, spot, on-demand, and return the price of its most
// expensive offering. It returns false when no offering is compatible.
// Consolidation compares candidates by this price. It does not allocate.
func (t *InstanceType) WorstLaunchPrice(reqs requirements.Set) (Price, bool) {
	zone, ct := reqs.Get(requirements.LabelZone), reqs.Get(requirements.LabelCapacityType)
	best, bestRank := Price(0), 3
	for _, o := range t.Offerings {
		if !o.Usable() || !zone.Has(o.Zone) || !ct.Has(o.CapacityType.String()) {
			continue
		}
		switch r := o.CapacityType.launchRank(); {
		case r < bestRank:
			best, bestRank = o.Price, r
		case r == bestRank:
			best = max(best, o.Price)
		}
	}
	return best, bestRank < 3
}

// minPrice is the price of the cheapest usable offering, MaxPrice when none.
func (t *InstanceType) minPrice() Price {
	for _, o := range t.Offerings {
		if o.Usable() {
			return o.Price
		}
	}
	return MaxPrice
}
