package packing

import (
	"github.com/nodeplan/nodeplan/instancetypes"
	"github.com/nodeplan/nodeplan/internal/sat"
)

// settlement is the offering every claim launches with, its candidate
// types, and the plan's price and unschedulable count: all a strategy is
// judged by, before the Plan's objects are built.
type settlement struct {
	claims        []settled
	price         instancetypes.Price
	unschedulable int
}

// settled is one claim settled: the offering it launches with and its
// candidate types.
type settled struct {
	chosen option
	types  []int // candidate type indices, cheapest first
}

// settle picks, claim by claim in order, each claim's offering: the
// cheapest the limits and the earlier claims' reservation units allow.
func (r *run) settle() settlement {
	var st settlement
	units := map[reservation]int{}
	for _, c := range r.claims {
		sc := r.settleClaim(c, units)
		st.price = sat.Add(st.price, sc.chosen.off.Price)
		st.claims = append(st.claims, sc)
	}
	for _, w := range r.where {
		if w.kind == unplaced {
			st.unschedulable++
		}
	}
	return st
}

func (r *run) settleClaim(c *claim, units map[reservation]int) settled {
	if c.hasResv { // the claim's own hold is free for it to use
		if _, seen := units[c.resv]; !seen {
			units[c.resv] = c.resvUnits - r.held[c.resv]
		}
		units[c.resv]++
	}
	priced, idx := r.options(c, units)
	chosen := option{t: c.cheap}
	chosen.off, _ = c.pl.types[c.cheap].Cheapest(c.reqs)
	for _, i := range idx { // the cheapest option the limits allow
		if o := priced[i]; o.t == c.cheap || r.use.within(c, o.t) {
			chosen = o
			break
		}
	}
	r.use.charge(c, chosen.t) // later claims see this claim at its chosen type
	c.retype(chosen.t)
	if chosen.off.CapacityType == instancetypes.Reserved {
		units[reservationOf(c.pl.types[chosen.t], chosen.off)]--
	}
	sc := settled{chosen: chosen, types: []int{chosen.t}}
	if len(idx) > 0 {
		sc.types = make([]int, len(idx))
		for i, j := range idx {
			sc.types[i] = priced[j].t
		}
	}
	return sc
}
