package overlay

import (
	"github.com/nodeplan/nodeplan/resources"
)

// Overlay is one karpenter.sh/v1alpha1 NodeOverlay: which instance types
// and offerings it selects, and the price or capacity it gives them.
// The zero Overlay, named, selects every instance type and changes
// nothing. Overlay is plain data; Apply does not modify it.
type Overlay struct {
	// Name is metadata.name; it orders overlays of equal weight and names
	// the overlay in the report.
	Name string
	// Requirements select the instance types and offerings, as written
	// in spec.requirements (at most [MaxRequirements]); none selects
	// every type.
	Requirements []Requirement
	// Weight is spec.weight: 1..[MaxWeight], higher applied first; 0 is
	// an unset weight, which Karpenter reads as 0.
	Weight int32
	// Price is spec.price, an absolute hourly price such as "0.5"; ""
	// is unset.
	Price string
	// PriceAdjustment is spec.priceAdjustment: a signed amount ("+0.1",
	// "-2") or a percentage ("+10%", "-15%", "-100%"); "" is unset. At
	// most one of Price and PriceAdjustment is set.
	PriceAdjustment string
	// Capacity is spec.capacity: extended resources that each selected
	// instance type gets, replacing a value it has. It may not name cpu,
	// memory, ephemeral-storage or pods. A resource given as 0 is absent
	// from a [resources.List] and so not modelled (package kube rejects
	// it).
	Capacity resources.List
}

// Requirement is one element of spec.requirements as written: the key,
// the operator's name (In, NotIn, Exists, DoesNotExist, Gt, Lt, Gte, Lte)
// and the values. It is kept as text so that what Karpenter checks at run
// time can be checked the same way.
type Requirement struct {
	Key      string
	Operator string
	Values   []string
}

// MaxWeight is the largest spec.weight the NodeOverlay CRD accepts.
const MaxWeight = 10000

// MaxRequirements is the most spec.requirements the CRD accepts.
const MaxRequirements = 100

// change is the price string the overlay applies: Price, else
// PriceAdjustment, as Karpenter picks it; "" when neither is set.
func (o *Overlay) change() string {
	if o.Price != "" {
		return o.Price
	}
	return o.PriceAdjustment
}
