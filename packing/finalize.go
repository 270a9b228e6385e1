package packing

import (
	"cmp"
	"maps"
	"slices"
	"strings"

	"github.com/nodeplan/nodeplan/instancetypes"
	"github.com/nodeplan/nodeplan/internal/bitset"
	"github.com/nodeplan/nodeplan/internal/sat"
	"github.com/nodeplan/nodeplan/requirements"
)

// DefaultMaxInstanceTypes caps a NodeClaim's candidate types, as Karpenter.
const DefaultMaxInstanceTypes = 600

// reservation names a capacity reservation of one type in one zone.
type reservation struct{ typ, zone, id string }

// plan turns the run's state into a Plan.
func (r *run) plan() Plan { return r.render(r.settle()) }

// settlement is the offering every claim launches with, its candidate
// types, and the plan's price and unschedulable count: all a strategy is
// judged by, before the Plan's objects are built.
type settlement struct {
	claims        []settled
	price         instancetypes.Price
	unschedulable int
}

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
		if w == -1 {
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
		if o := priced[i]; o.t == c.cheap || r.withinLimits(c, o.t) {
			chosen = o
			break
		}
	}
	r.chargeLimits(c, chosen.t) // later claims see this claim at its chosen type
	c.cheap = chosen.t
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

// render builds the Plan of a settled run.
func (r *run) render(st settlement) Plan {
	p := Plan{Order: slices.Clone(r.order), Price: st.price}
	for _, i := range r.order {
		if w := r.where[i]; w >= 0 {
			p.Bindings = append(p.Bindings, Binding{Pod: i, Node: r.nodes[w].n.Name})
		}
	}
	p.NodeClaims = make([]NodeClaim, len(r.claims))
	for i, c := range r.claims {
		p.NodeClaims[i] = r.nodeClaim(c, st.claims[i])
	}
	for _, i := range r.s.order {
		if r.where[i] == -1 {
			p.Unschedulable = append(p.Unschedulable, Unschedulable{Pod: i, Reason: r.fails[i]})
		}
	}
	return p
}

// option is a candidate type of a claim with its offering.
type option struct {
	t   int
	off instancetypes.Offering
}

func (r *run) nodeClaim(c *claim, sc settled) NodeClaim {
	typ := c.pl.types[sc.chosen.t]
	nc := NodeClaim{Name: c.name, NodePool: c.pl.np.Name, InstanceType: typ.Name, Offering: sc.chosen.off,
		Pods: slices.Clone(c.pods), Requests: c.used.Add(c.pl.daemon[sc.chosen.t]), Requirements: c.reqs}
	nc.InstanceTypes = make([]string, len(sc.types))
	for i, t := range sc.types {
		nc.InstanceTypes[i] = c.pl.types[t].Name
	}
	nc.Labels = nodeClaimLabels(c, typ, sc.chosen.off)
	nc.Taints = append(slices.Clone(c.pl.np.Taints), c.pl.np.StartupTaints...)
	return nc
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
	if r.limitsSlack(c) {
		return priced, r.truncate(c, priced, all)
	}
	idx := make([]int32, 0, len(all))
	for _, i := range all {
		if t := priced[i].t; t == c.cheap || r.withinLimits(c, t) {
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

// labeled reports whether the claim's node carries a label for req: a
// single value, or any custom (not well-known) key, given a value that
// satisfies every pod on the claim as Karpenter does.
func labeled(req requirements.Requirement) bool {
	switch {
	case req.Key() == requirements.LabelHostname:
		return false
	case req.Operator() == requirements.In && req.Len() == 1:
		return true
	}
	return !requirements.IsWellKnown(req.Key())
}

// nodeClaimLabels are the labels the node will carry: the pool's, the
// single-valued requirements, and the chosen type's and offering's.
func nodeClaimLabels(c *claim, t *instancetypes.InstanceType, off instancetypes.Offering) []requirements.Label {
	l := map[string]string{}
	maps.Copy(l, c.pl.np.Labels)
	for req := range c.reqs.All() {
		if !labeled(req) {
			continue
		}
		if v, ok := req.Any(); ok {
			l[req.Key()] = v
		}
	}
	for req := range t.Requirements.All() {
		if req.Operator() == requirements.In && req.Len() == 1 {
			l[req.Key()], _ = req.Any()
		}
	}
	l[requirements.LabelInstanceType] = t.Name
	l[requirements.LabelZone] = off.Zone
	l[requirements.LabelCapacityType] = off.CapacityType.String()
	l[requirements.LabelNodePool] = c.pl.np.Name
	out := make([]requirements.Label, 0, len(l))
	for _, k := range slices.Sorted(maps.Keys(l)) {
		out = append(out, requirements.Label{Key: k, Value: l[k]})
	}
	return out
}
