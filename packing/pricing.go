package packing

import (
	"cmp"
	"encoding/binary"
	"slices"
	"strings"

	"github.com/nodeplan/nodeplan/instancetypes"
	"github.com/nodeplan/nodeplan/requirements"
)

// reservation names a capacity reservation of one type in one zone.
type reservation struct{ typ, zone, id string }

// option is a candidate type of a claim at one of its offerings:
// pool.types[t].Offerings[oi] (none when oi is -1), whose price is kept
// beside them, since lists are sorted and walked by it. It holds no
// pointer, so the price lists cost the collector nothing to scan.
type option struct {
	t     int
	price instancetypes.Price
	oi    int32
}

// offering is o's offering in pool pl; the zero Offering when o has none.
func (o option) offering(pl *pool) instancetypes.Offering {
	if o.oi < 0 {
		return instancetypes.Offering{}
	}
	return pl.types[o.t].Offerings[o.oi]
}

// priced lists every type of c's pool at its cheapest offering under c's
// zone and capacity-type requirements, cheapest first. Claims with the same
// requirements on those keys share the list, unless reservations are in play.
func (r *run) priced(c *claim, units map[reservation]int) []option {
	return r.pricedBy(c.pl, c.pi, c.reqs, units)
}

// pricedBy is priced for a claim of pool pl (index pi) with requirements
// reqs. For a pool without reserved offerings the list depends on the
// problem alone, and is kept in the memo; for one with, it depends on the
// units left, and is neither read from the memo nor stored in it.
func (r *run) pricedBy(pl *pool, pi int, reqs requirements.Set, units map[reservation]int) []option {
	zone, ct := reqs.Get(requirements.LabelZone), reqs.Get(requirements.LabelCapacityType)
	r.scratch.key = priceKey(r.scratch.key[:0], pi, zone, ct)
	if opts, ok := r.memo.prices[string(r.scratch.key)]; ok && !pl.reserved {
		return opts
	}
	opts := make([]option, 0, len(pl.types))
	for t, it := range pl.types {
		if oi := cheapestOffering(it, zone, ct, units, r.held); oi >= 0 {
			opts = append(opts, option{t: t, price: it.Offerings[oi].Price, oi: int32(oi)})
		}
	}
	opts = slices.Clip(opts)
	slices.SortFunc(opts, func(a, b option) int {
		return cmp.Or(cmp.Compare(a.price, b.price), strings.Compare(pl.types[a.t].Name, pl.types[b.t].Name))
	})
	if !pl.reserved {
		r.memo.prices[string(r.scratch.key)] = opts
	}
	return opts
}

// priceKey appends to b the key of a price list: the pool's index and the
// zone and capacity-type requirements, exactly (see keys.go).
func priceKey(b []byte, pi int, zone, ct requirements.Requirement) []byte {
	b = binary.AppendUvarint(b, uint64(pi))
	b, _ = zone.AppendBinary(b)
	b, _ = ct.AppendBinary(b)
	return b
}

// cheapestOffering is the index of the cheapest usable offering of t in
// the zones and capacity types allowed, counting the reservation units
// earlier claims took; -1 when none is.
func cheapestOffering(t *instancetypes.InstanceType, zone, ct requirements.Requirement, units, held map[reservation]int) int {
	for i, o := range t.Offerings {
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
		return i
	}
	return -1
}

func reservationOf(t *instancetypes.InstanceType, o instancetypes.Offering) reservation {
	return reservation{t.Name, o.Zone, o.ReservationID}
}
