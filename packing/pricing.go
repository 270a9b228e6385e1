package packing

import (
	"cmp"
	"slices"
	"strings"

	"github.com/nodeplan/nodeplan/instancetypes"
	"github.com/nodeplan/nodeplan/internal/bitset"
	"github.com/nodeplan/nodeplan/requirements"
)

// DefaultMaxInstanceTypes caps a NodeClaim's candidate types, as Karpenter.
const DefaultMaxInstanceTypes = 600

// reservation names a capacity reservation of one type in one zone.
type reservation struct{ typ, zone, id string }

// option is a candidate type of a claim with its offering.
type option struct {
	t   int
	off instancetypes.Offering
}

// options lists, as positions in the priced list, the claim's types that
// hold its pods, each at its cheapest usable offering, cheapest first,
// capped unless the cap would break minValues.
func (r *run) options(c *claim, units map[reservation]int) ([]option, []int32) {
	priced := r.priced(c, units)
	all := make([]int32, 0, min(len(priced), c.cand.Len()))
	for i, o := range priced {
		if c.cand.Has(o.t) {
			all = append(all, int32(i))
		}
	}
	if r.use.slack(c) {
		return priced, r.truncate(c, priced, all)
	}
	idx := make([]int32, 0, len(all))
	for _, i := range all {
		if t := priced[i].t; t == c.cheap || r.use.within(c, t) {
			idx = append(idx, i)
		}
	}
	// Fallbacks that later claims pushed over the limits are dropped, unless
	// that would break minValues.
	if c.pl.minValues && !satisfiesMinValues(c.pl, c.reqs, optionSet(c, priced, idx)) {
		idx = all
	}
	return priced, r.truncate(c, priced, idx)
}

func (r *run) truncate(c *claim, priced []option, idx []int32) []int32 {
	limit := cmp.Or(r.s.opts.MaxInstanceTypes, DefaultMaxInstanceTypes)
	if len(idx) <= limit {
		return idx
	}
	short := idx[:limit]
	if c.pl.minValues && !satisfiesMinValues(c.pl, c.reqs, optionSet(c, priced, short)) {
		return idx
	}
	return short
}

func optionSet(c *claim, priced []option, idx []int32) bitset.Set {
	b := bitset.New(len(c.pl.types))
	for _, i := range idx {
		b.Add(priced[i].t)
	}
	return b
}

// priced lists every type of c's pool at its cheapest offering under c's
// zone and capacity-type requirements, cheapest first. Claims with the same
// requirements on those keys share the list, unless reservations are in play.
func (r *run) priced(c *claim, units map[reservation]int) []option {
	return r.pricedBy(c.pl, c.pi, c.reqs, units)
}

// pricedBy is priced for a claim of pool pl (index pi) with requirements
// reqs.
func (r *run) pricedBy(pl *pool, pi int, reqs requirements.Set, units map[reservation]int) []option {
	zone, ct := reqs.Get(requirements.LabelZone), reqs.Get(requirements.LabelCapacityType)
	key := priceKey{pi, zone.String(), ct.String()}
	if opts, ok := r.prices[key]; ok && !pl.reserved {
		return opts
	}
	var opts []option
	for t, it := range pl.types {
		if off, ok := cheapestOffering(it, zone, ct, units, r.held); ok {
			opts = append(opts, option{t, off})
		}
	}
	slices.SortFunc(opts, func(a, b option) int {
		return cmp.Or(cmp.Compare(a.off.Price, b.off.Price), strings.Compare(pl.types[a.t].Name, pl.types[b.t].Name))
	})
	r.prices[key] = opts
	return opts
}

type priceKey struct {
	pool     int
	zone, ct string
}

// cheapestOffering is the cheapest usable offering of t in the zones and
// capacity types allowed, counting the reservation units earlier claims took.
func cheapestOffering(t *instancetypes.InstanceType, zone, ct requirements.Requirement, units, held map[reservation]int) (instancetypes.Offering, bool) {
	for _, o := range t.Offerings {
		if !o.Usable() || !zone.Has(o.Zone) || !ct.Has(o.CapacityType.String()) {
			continue
		}
		if o.CapacityType == instancetypes.Reserved {
			key := reservationOf(t, o)
			if _, seen := units[key]; !seen {
				units[key] = o.ReservedUnits - held[key]
			}
			if units[key] <= 0 {
				continue
			}
		}
		return o, true
	}
	return instancetypes.Offering{}, false
}

func reservationOf(t *instancetypes.InstanceType, o instancetypes.Offering) reservation {
	return reservation{t.Name, o.Zone, o.ReservationID}
}
