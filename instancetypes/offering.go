package instancetypes

import (
	"cmp"
	"strings"

	"github.com/nodeplan/nodeplan/requirements"
)

// Offering is one way to buy an instance type: a zone, a capacity type and
// an hourly price, with whether it can be launched now. Reserved offerings
// also name their capacity reservation and the instances it has left.
//
// Offering is a comparable value type. The zero Offering is an unavailable
// on-demand offering in no zone at price zero.
type Offering struct {
	Zone          string
	CapacityType  CapacityType
	Price         Price
	Available     bool
	ReservationID string // reserved offerings only
	ReservedUnits int    // reserved offerings only: instances the reservation has left
}

// Usable reports whether o can be launched: it is available and, when it is
// reserved, its reservation has units left.
func (o Offering) Usable() bool {
	return o.Available && (o.CapacityType != Reserved || o.ReservedUnits > 0)
}

// Compatible reports whether o satisfies reqs on the zone and capacity-type
// labels, as Karpenter matches an offering's requirements: a key reqs does
// not constrain admits every offering. It does not allocate.
func (o Offering) Compatible(reqs requirements.Set) bool {
	return reqs.Get(requirements.LabelZone).Has(o.Zone) &&
		reqs.Get(requirements.LabelCapacityType).Has(o.CapacityType.String())
}

// compareOfferings is the deterministic order of an instance type's
// offerings: price, then Karpenter's launch preference of the capacity type
// (reserved, spot, on-demand), then zone, then reservation id.
func compareOfferings(a, b Offering) int {
	return cmp.Or(
		cmp.Compare(a.Price, b.Price),
		cmp.Compare(a.CapacityType.launchRank(), b.CapacityType.launchRank()),
		strings.Compare(a.Zone, b.Zone),
		strings.Compare(a.ReservationID, b.ReservationID),
	)
}

// OfferingKey names the offerings of one instance type in one zone and
// capacity type, as an insufficient-capacity error or a spot interruption
// reports them. It is comparable.
type OfferingKey struct {
	InstanceType, Zone string
	CapacityType       CapacityType
}
