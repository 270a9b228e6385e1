package packing

import (
	"maps"
	"slices"

	"github.com/nodeplan/nodeplan/instancetypes"
	"github.com/nodeplan/nodeplan/internal/bitset"
	"github.com/nodeplan/nodeplan/requirements"
)

// pin is one topology key fixed to one value.
type pin struct{ key, value string }

// collectDomains gathers, for every topology key in use, the domains a node
// could be in: the values of existing nodes, and every pool's own values
// and its types' (see poolDomains and the package doc).
func (s *static) collectDomains() map[string][]string {
	sets := map[string]map[string]bool{}
	for _, c := range s.counters {
		sets[c.key] = map[string]bool{}
	}
	s.domainTaints = map[pin][][]requirements.Taint{}
	for key, vals := range sets {
		s.nodeDomains(key, vals)
		for _, pl := range s.pools {
			own := map[string]bool{}
			poolDomains(pl, key, own)
			for v := range own {
				vals[v] = true
				s.addDomainTaints(pin{key, v}, pl.taints)
			}
		}
	}
	out := make(map[string][]string, len(sets))
	for key, vals := range sets {
		out[key] = slices.Sorted(maps.Keys(vals))
	}
	return out
}

func (s *static) nodeDomains(key string, vals map[string]bool) {
	for i := range s.prob.Nodes {
		if v, ok := s.labels[i][key]; ok {
			vals[v] = true
			s.addDomainTaints(pin{key, v}, effectiveTaints(&s.prob.Nodes[i], s))
		}
	}
}

// addDomainTaints records that a node with these taints may be in domain d;
// only the taints that repel (NoSchedule, NoExecute) are kept.
func (s *static) addDomainTaints(d pin, taints []requirements.Taint) {
	hard := slices.DeleteFunc(slices.Clone(taints), func(t requirements.Taint) bool { return t.Effect == requirements.PreferNoSchedule })
	s.domainTaints[d] = append(s.domainTaints[d], hard)
}

// tolerable reports whether a pod with tols could be on some node of domain
// d, as nodeTaintsPolicy Honor counts domains.
func (s *static) tolerable(tols []requirements.Toleration, d pin) bool {
	for _, taints := range s.domainTaints[d] {
		if requirements.Tolerates(tols, taints) == nil {
			return true
		}
	}
	return false
}

func poolDomains(pl *pool, key string, vals map[string]bool) {
	if key == requirements.LabelHostname || pl.conflict != "" || pl.np.Unavailable != "" {
		return
	}
	pr := pl.reqs.Get(key)
	if pr.Operator() == requirements.In { // the pool's own values count, as in Karpenter
		for _, v := range pr.Values() {
			vals[v] = true
		}
	}
	for ti, t := range pl.types {
		tr := t.Requirements.Get(key)
		src := tr
		if !t.Requirements.Has(key) {
			src = pr
		}
		if src.Operator() != requirements.In {
			continue
		}
		for _, v := range src.Values() {
			if pr.Has(v) && tr.Has(v) && (key != requirements.LabelZone || pl.launchableIn(ti, v)) {
				vals[v] = true
			}
		}
	}
}

// launchableIn reports whether the pool's type t has a usable offering in
// zone that the pool's requirements allow: a node of the pool could be
// created there. With offerMask it is one AND: the type's usable pairs,
// those the pool's requirements allow, and the zone's.
func (pl *pool) launchableIn(t int, zone string) bool {
	if pl.offerMask != nil {
		return pl.offerMask[t]&pl.pairs&valuePairs(pl.pairZones, pl.zonePairs, zone) != 0
	}
	return slices.ContainsFunc(pl.types[t].Offerings, func(o instancetypes.Offering) bool {
		return o.Usable() && o.Zone == zone && o.Compatible(pl.reqs)
	})
}

// pinBits computes, for every known domain of every topology key, the types
// of the pool that admit it: pl.pins by (key, value) and pl.pinList by
// key, aligned with domains[key]. A type stating its values with In sets
// its bits by lookup, so a key with many values, each of few types (an
// instance type), costs O(types · log domains), not O(types · domains).
func pinBits(pl *pool, domains map[string][]string) {
	pl.pins, pl.pinList = map[pin]bitset.Set{}, map[string][]bitset.Set{}
	for _, key := range slices.Sorted(maps.Keys(domains)) {
		if key == requirements.LabelHostname {
			continue
		}
		values := domains[key]
		list := make([]bitset.Set, len(values))
		for i := range list {
			list[i] = bitset.New(len(pl.types))
		}
		for t, it := range pl.types {
			setPinBits(list, values, it.Requirements.Get(key), t)
		}
		for i, v := range values {
			pl.pins[pin{key, v}] = list[i]
		}
		pl.pinList[key] = list
	}
}

// setPinBits sets bit t of list[i] for every values[i] that tr admits.
func setPinBits(list []bitset.Set, values []string, tr requirements.Requirement, t int) {
	if tr.Operator() == requirements.In {
		for _, v := range tr.Values() {
			if i, ok := slices.BinarySearch(values, v); ok && tr.Has(v) {
				list[i].Add(t)
			}
		}
		return
	}
	for i, v := range values {
		if tr.Has(v) {
			list[i].Add(t)
		}
	}
}
