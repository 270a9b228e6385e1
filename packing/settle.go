package packing

import (
	"cmp"

	"github.com/nodeplan/nodeplan/instancetypes"
	"github.com/nodeplan/nodeplan/internal/bitset"
	"github.com/nodeplan/nodeplan/internal/sat"
	"github.com/nodeplan/nodeplan/requirements"
)

// settlement is the offering every claim launches with, its candidate
// types, and the plan's price and unschedulable count: all a strategy is
// judged by, before the Plan's objects are built. A judged settlement
// (run.judge) may leave a claim's candidate types out: run.plan lists them
// as it renders (see typeNames). settle, the full settlement, is the
// reference the tests hold plan and judge to.
type settlement struct {
	claims        []settled
	price         instancetypes.Price
	unschedulable int
}

// settled is one claim settled: the offering it launches with and its
// candidate types (nil when judged).
type settled struct {
	chosen option
	types  []int // candidate type indices, cheapest first
}

// settling is settle's working state: the reservation units left to the
// claims still to settle, and the pools' use (see usage) with the claims
// settled so far at their chosen types, a copy of the run's.
type settling struct {
	units map[reservation]int
	use   usage
}

// settle picks, claim by claim in order, each claim's offering: the
// cheapest the limits and the earlier claims' reservation units allow. It
// only computes: the run, its claims and their NodePools' use are as they
// were, and render builds the Plan from the settlement. The one thing it
// writes is, for pools without reserved offerings, the memo's price lists
// (see pricedBy), which depend on the problem alone.
func (r *run) settle() settlement { return r.settleWith(false) }

// judge is settle for comparing passes: the same offerings and price,
// without the claims' candidate type lists, which only render reads; a
// claim whose pool's limits are slack and that has no reservations is
// settled by a walk that stops at its offering (TestJudgeAsSettle). (With
// slack limits every candidate is allowed, so settle too takes the
// cheapest, whatever minValues makes it list.) Render a judged run with plan.
func (r *run) judge() settlement { return r.settleWith(true) }

func (r *run) settleWith(judging bool) settlement {
	var st settlement
	w := settling{units: map[reservation]int{}, use: r.use.clone()}
	for _, c := range r.claims {
		var sc settled
		if judging && w.use.slack(c) && !c.pl.reserved && !c.hasResv {
			sc = r.judgeClaim(c, &w)
		} else {
			sc = r.settleClaim(c, &w)
		}
		st.price = sat.Add(st.price, sc.chosen.price)
		st.claims = append(st.claims, sc)
	}
	for _, w := range r.where {
		if w.kind == unplaced {
			st.unschedulable++
		}
	}
	return st
}

// settleClaim settles c, after the claims before it, and records in w the
// reservation units and the capacity its choice takes.
func (r *run) settleClaim(c *claim, w *settling) settled {
	units := w.units
	if c.hasResv { // the claim's own hold is free for it to use
		if _, seen := units[c.resv]; !seen {
			units[c.resv] = c.resvUnits - r.held[c.resv]
		}
		units[c.resv]++
	}
	priced, idx := r.options(c, w)
	chosen := ownOffering(c)
	for _, i := range idx { // the cheapest option the limits allow
		if o := priced[i]; allowed(c, w, o.t) {
			chosen = o
			break
		}
	}
	w.use.charge(c.pi, c.pl, c.cheap, chosen.t) // later claims see this claim at its chosen type
	if off := chosen.offering(c.pl); off.CapacityType == instancetypes.Reserved {
		units[reservationOf(c.pl.types[chosen.t], off)]--
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

// judgeClaim is settleClaim's offering for a claim of a pool with slack
// limits and no reserved offerings: the first of its first
// MaxInstanceTypes candidates, in price order, that is its cheapest type
// or within the limits, found without listing the others.
func (r *run) judgeClaim(c *claim, w *settling) settled {
	limit := r.maxTypes()
	chosen := ownOffering(c)
	seen := 0
	for _, o := range r.priced(c, w.units) {
		if !c.cand.Has(o.t) {
			continue
		}
		if seen++; seen > limit {
			break
		}
		if allowed(c, w, o.t) {
			chosen = o
			break
		}
	}
	w.use.charge(c.pi, c.pl, c.cheap, chosen.t)
	return settled{chosen: chosen}
}

// ownOffering is c's committed type at its cheapest offering: what c
// settles on when no candidate the limits allow is listed.
func ownOffering(c *claim) option {
	zone, ct := c.reqs.Get(requirements.LabelZone), c.reqs.Get(requirements.LabelCapacityType)
	for i, off := range c.pl.types[c.cheap].Offerings { // as InstanceType.Cheapest
		if off.Usable() && zone.Has(off.Zone) && ct.Has(off.CapacityType.String()) {
			return option{t: c.cheap, price: off.Price, oi: int32(i)}
		}
	}
	return option{t: c.cheap, oi: -1}
}

// allowed reports whether c may settle on type t: its committed type, or
// one within its pool's limits given the claims settled before it.
func allowed(c *claim, w *settling, t int) bool { return t == c.cheap || w.use.within(c, t) }

// maxTypes is the cap on a claim's candidate types.
func (r *run) maxTypes() int { return cmp.Or(r.s.opts.MaxInstanceTypes, DefaultMaxInstanceTypes) }

// DefaultMaxInstanceTypes caps a NodeClaim's candidate types, as Karpenter.
const DefaultMaxInstanceTypes = 600

// options lists, as positions in the priced list, the claim's types that
// hold its pods, each at its cheapest usable offering, cheapest first,
// capped unless the cap would break minValues.
func (r *run) options(c *claim, w *settling) ([]option, []int32) {
	priced := r.priced(c, w.units)
	all := candidates(c, priced)
	if w.use.slack(c) {
		return priced, r.truncate(c, priced, all)
	}
	idx := make([]int32, 0, len(all))
	for _, i := range all {
		if t := priced[i].t; t == c.cheap || w.use.within(c, t) {
			idx = append(idx, i)
		}
	}
	// Fallbacks that later claims pushed over the limits are dropped, unless
	// that would break minValues.
	if c.pl.hasMinValues() && !satisfiesMinValues(c.pl, c.reqs, optionSet(c, priced, idx)) {
		idx = all
	}
	return priced, r.truncate(c, priced, idx)
}

// candidates lists, as positions in priced, c's candidate types.
func candidates(c *claim, priced []option) []int32 {
	all := make([]int32, 0, min(len(priced), c.cand.Len()))
	for i, o := range priced {
		if c.cand.Has(o.t) {
			all = append(all, int32(i))
		}
	}
	return all
}

// truncate caps idx, positions in priced of c's types, at MaxInstanceTypes
// unless the cap would break minValues.
func (r *run) truncate(c *claim, priced []option, idx []int32) []int32 {
	limit := r.maxTypes()
	if len(idx) <= limit {
		return idx
	}
	short := idx[:limit]
	if c.pl.hasMinValues() && !satisfiesMinValues(c.pl, c.reqs, optionSet(c, priced, short)) {
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
