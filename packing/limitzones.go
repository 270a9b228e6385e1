package packing

import "github.com/nodeplan/nodeplan/requirements"

// poolZones are the zones and capacity types pool pl can launch a node
// in: a usable offering of one of its types whose zone and capacity type
// its requirements allow, each pair once, in the order first seen.
func (pl *pool) poolZones() []zoneCT {
	zone, ct := pl.reqs.Get(requirements.LabelZone), pl.reqs.Get(requirements.LabelCapacityType)
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
// and the pool's poolZones, and whether some bound pool has such a zone. A bound pool's capacity spent in
// a zone another pool also reaches can starve a zone only it reaches, and
// with it every zone-spread pod held to that zone's count.
func (r *run) ownZones(bound []bool) ([]map[string]bool, [][]zoneCT, bool) {
	pairs := make([][]zoneCT, len(r.s.pools))
	others := map[string]bool{}
	for pi, pl := range r.s.pools {
		pairs[pi] = pl.poolZones()
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
	for _, p := range r.needs.pairs[c.pi] {
		if !own[p.zone] && f.zone(p.zone) && f.capacityType(p.ct) {
			return false
		}
	}
	return true
}
