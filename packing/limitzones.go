package packing

import (
	"cmp"
	"slices"

	"github.com/nodeplan/nodeplan/requirements"
)

// launchZones are the zones and capacity types pool pl can launch a node
// in: a usable offering of one of its types whose zone and capacity type
// its requirements allow, each pair once, in the order first seen.
// compilePool keeps them as pool.zones.
func (pl *pool) launchZones() []zoneCT {
	zone, ct := pl.reqs.Get(requirements.LabelZone), pl.reqs.Get(requirements.LabelCapacityType)
	if pl.offerMask == nil {
		return pl.scanZones(zone, ct)
	}
	var out []zoneCT // offerPairs are every usable pair, first seen: those the pool allows, in that order
	for _, p := range pl.offerPairs {
		if zone.Has(p.zone) && ct.Has(p.ct) {
			out = append(out, p)
		}
	}
	return out
}

// scanZones is launchZones read from every offering.
func (pl *pool) scanZones(zone, ct requirements.Requirement) []zoneCT {
	seen := map[zoneCT]bool{}
	var out []zoneCT
	for _, t := range pl.types {
		for _, o := range t.Offerings {
			p := zoneCT{o.Zone, o.CapacityType.String()}
			if o.Usable() && zone.Has(p.zone) && ct.Has(p.ct) && !seen[p] {
				seen[p] = true
				out = append(out, p)
			}
		}
	}
	return out
}

// ownZones returns, per pool, the zones a bound pool reaches and no
// unbound pool does (nil for an unbound pool or one with no such zone)
// and the pool's zones, and whether some bound pool has such a zone. A bound pool's capacity spent in
// a zone another pool also reaches can starve a zone only it reaches, and
// with it every zone-spread pod held to that zone's count.
func (r *run) ownZones(bound []bool) ([]map[string]bool, [][]zoneCT, bool) {
	pairs := make([][]zoneCT, len(r.s.pools))
	others := map[string]bool{}
	for pi, pl := range r.s.pools {
		pairs[pi] = pl.zones
		if !bound[pi] {
			for _, p := range pairs[pi] {
				others[p.zone] = true
			}
		}
	}
	own := make([]map[string]bool, len(r.s.pools))
	found := false
	for pi := range r.s.pools {
		if !bound[pi] {
			continue
		}
		for _, p := range pairs[pi] {
			if !others[p.zone] {
				if own[pi] == nil {
					own[pi] = map[string]bool{}
				}
				own[pi][p.zone], found = true, true
			}
		}
	}
	return own, pairs, found
}

// keepsOwnZone reports whether pod v may join claim c with pins under the
// rerun's zone reservation (needOrder.own): always, unless c's pool has
// own zones and the pod is not needy; then only when every zone c could
// launch in, with the pod and pins, is one of them.
func (r *run) keepsOwnZone(v view, c *claim, pins []pin) bool {
	if r.needs == nil || r.needs.own == nil || r.needs.own[c.pi] == nil || r.needs.needy[v.i] {
		return true
	}
	own := r.needs.own[c.pi]
	f := r.newOfferFilter(v, c, pins)
	f.readReqs() // which newOfferFilter reads only for a pool without offerMask
	for _, p := range r.needs.pairs[c.pi] {
		if !own[p.zone] && f.zone(p.zone) && f.capacityType(p.ct) {
			return false
		}
	}
	return true
}

// zoneOrders are the reruns that try a full pool's capacity in one zone
// at a time: for each pool whose limits r exhausted (see fullPools), one
// rerun per zone in which the pool's claims stay in that zone, so that
// the other pools serve the rest. When no pod's topology counts zones,
// zones the other pools reach alike (the same pools and capacity types)
// are alike to every pod, and only the first of them is tried; a pool
// whose zones are all alike is not.
func (r *run) zoneOrders(full []bool) []*needOrder {
	if full == nil {
		return nil
	}
	counted := slices.ContainsFunc(r.s.counters, func(c counterDef) bool { return c.key == requirements.LabelZone })
	pairs := make([][]zoneCT, len(r.s.pools))
	for pi, pl := range r.s.pools {
		pairs[pi] = pl.zones
	}
	var out []*needOrder
	var needy []bool
	for pi := range r.s.pools {
		if !full[pi] {
			continue
		}
		zones := distinctZones(pairs, pi, counted)
		if len(zones) < 2 {
			continue
		}
		if needy == nil {
			needy, _ = r.needyPods(full)
		}
		for _, z := range zones {
			own := make([]map[string]bool, len(r.s.pools))
			own[pi] = map[string]bool{z: true}
			out = append(out, &needOrder{needy: needy, own: own, pairs: pairs})
		}
	}
	return out
}

// distinctZones are the zones of pool pi worth a rerun each, in the order
// first seen: all of them when topology counts zones (counted), else the
// first of each set that the other pools reach alike.
func distinctZones(pairs [][]zoneCT, pi int, counted bool) []string {
	type poolCT struct {
		pool int
		ct   string
	}
	reach := func(z string) []poolCT {
		var out []poolCT
		for pj, ps := range pairs {
			for _, p := range ps {
				if pj != pi && p.zone == z {
					out = append(out, poolCT{pj, p.ct})
				}
			}
		}
		slices.SortFunc(out, func(a, b poolCT) int { return cmp.Or(cmp.Compare(a.pool, b.pool), cmp.Compare(a.ct, b.ct)) })
		return out
	}
	var zones []string
	var reached [][]poolCT
	for _, p := range pairs[pi] {
		if slices.Contains(zones, p.zone) {
			continue
		}
		rz := reach(p.zone)
		if !counted && slices.ContainsFunc(reached, func(o []poolCT) bool { return slices.Equal(o, rz) }) {
			continue
		}
		zones, reached = append(zones, p.zone), append(reached, rz)
	}
	return zones
}

// fullPools reports, per pool with limits, whether its limits leave no
// room for a new claim for some pod r placed on another pool's claim that
// the pool would take but for them; nil when no pool's do.
func (r *run) fullPools() []bool {
	var full []bool
	for pi, pl := range r.s.pools {
		if len(pl.np.Limits) == 0 {
			continue
		}
		for i, w := range r.where {
			if w.kind != onClaim || r.claims[w.index].pi == pi {
				continue
			}
			v := r.view(i)
			if r.diagnosePool(v, pi, v.info.pod.Key()).Kind == LimitExceeded {
				if full == nil {
					full = make([]bool, len(r.s.pools))
				}
				full[pi] = true
				break
			}
		}
	}
	return full
}
