package packing

import (
	"encoding/binary"
	"maps"
	"slices"

	"github.com/nodeplan/nodeplan/instancetypes"
	"github.com/nodeplan/nodeplan/internal/parallel"
	"github.com/nodeplan/nodeplan/requirements"
)

// plan turns the run's state into a Plan, from st, its judged settlement
// (run.judge): the same Plan as rendering its full settlement (run.settle;
// TestJudgeAsSettle). A claim judge settled by its walk has no type list
// in st; its candidate types are listed from its price list as settleClaim
// lists them for such a claim (see typeNames).
func (r *run) plan(st settlement) Plan {
	lists := make([][]option, len(r.claims))
	units := map[reservation]int{}
	for i, c := range r.claims {
		if st.claims[i].types == nil {
			lists[i] = r.priced(c, units)
		}
	}
	return r.render(st, lists)
}

// renderChunk is how many claims a goroutine renders at a time.
const renderChunk = 256

// typeNames are the names of the first MaxInstanceTypes of c's candidate
// types in the order of priced, c's price list, or of all when the cap
// would break minValues (settleClaim's list for a claim with slack limits
// and no reservations); chosen's alone when there is none.
func (r *run) typeNames(c *claim, priced []option, chosen int) []string {
	limit := r.maxTypes()
	if c.pl.hasMinValues() {
		limit = len(r.truncate(c, priced, candidates(c, priced)))
	}
	names := make([]string, 0, min(limit, c.cand.Len()))
	for _, o := range priced {
		if len(names) == limit {
			break
		}
		if c.cand.Has(o.t) {
			names = append(names, c.pl.names[o.t])
		}
	}
	if len(names) == 0 {
		return []string{c.pl.names[chosen]}
	}
	return names
}

// render builds the Plan of a settled run: its claims on up to GOMAXPROCS
// goroutines, each into its own slot. lists holds, for a claim without a
// type list in st, its price list (see plan); nil for a full settlement.
func (r *run) render(st settlement, lists [][]option) Plan {
	p := Plan{Order: slices.Clone(r.order), Price: st.price}
	for _, i := range r.order {
		if w := r.where[i]; w.kind == onNode {
			p.Bindings = append(p.Bindings, Binding{Pod: i, Node: r.nodes[w.index].n.Name})
		}
	}
	p.NodeClaims = make([]NodeClaim, len(r.claims))
	parallel.Range(len(r.claims), renderChunk, func() func(lo, hi int) {
		rc := renderCache{names: map[string][]string{}, labels: map[string][]requirements.Label{}}
		return func(lo, hi int) {
			for i := lo; i < hi; i++ {
				var priced []option
				if lists != nil {
					priced = lists[i]
				}
				p.NodeClaims[i] = r.nodeClaim(r.claims[i], st.claims[i], priced, &rc)
			}
		}
	})
	for _, i := range r.s.order {
		if r.where[i].kind == unplaced {
			p.Unschedulable = append(p.Unschedulable, Unschedulable{Pod: i, Reason: r.failure(i)})
		}
	}
	p.separateHeadroom(r.s.prob.Pods)
	return p
}

// renderCache is what a rendering goroutine keeps from claim to claim:
// the type names of judged claims by price list and candidates, handed
// out shared (see NodeClaim.InstanceTypes), and the labels by pool,
// requirements, type and offering, each handed out as a copy; key is the
// buffer keys are built in.
type renderCache struct {
	names  map[string][]string
	labels map[string][]requirements.Label
	key    []byte
}

// typeNames is run.typeNames, from the cache when a claim with the same
// price list (pool, zone and capacity-type requirements), candidates and
// type (and requirements, under minValues) asked before: such claims share
// one slice.
func (rc *renderCache) typeNames(r *run, c *claim, priced []option, chosen int) []string {
	rc.key = priceKey(rc.key[:0], c.pi, c.reqs.Get(requirements.LabelZone), c.reqs.Get(requirements.LabelCapacityType))
	for _, w := range c.cand {
		rc.key = binary.LittleEndian.AppendUint64(rc.key, w)
	}
	rc.key = binary.AppendUvarint(rc.key, uint64(chosen))
	if c.pl.hasMinValues() { // the cap holds unless it breaks c's minValues
		rc.key, _ = c.reqs.AppendBinary(rc.key)
	}
	if names, ok := rc.names[string(rc.key)]; ok {
		return names // shared, read-only (NodeClaim.InstanceTypes)
	}
	names := slices.Clip(r.typeNames(c, priced, chosen)) // an append copies
	rc.names[string(rc.key)] = names
	return names
}

// nodeClaimLabels is nodeClaimLabels, from the cache when a claim of the
// same pool and requirements asked before for the same type and offering.
func (rc *renderCache) nodeClaimLabels(c *claim, t int, off instancetypes.Offering) []requirements.Label {
	rc.key = binary.AppendUvarint(rc.key[:0], uint64(c.pi))
	rc.key, _ = c.reqs.AppendBinary(rc.key)
	rc.key = binary.AppendUvarint(rc.key, uint64(t))
	rc.key = appendKeyString(rc.key, off.Zone)
	rc.key = append(rc.key, byte(off.CapacityType))
	if labels, ok := rc.labels[string(rc.key)]; ok {
		return slices.Clone(labels)
	}
	labels := nodeClaimLabels(c, c.pl.types[t], off)
	rc.labels[string(rc.key)] = labels // later claims get copies
	return labels
}

func (r *run) nodeClaim(c *claim, sc settled, priced []option, rc *renderCache) NodeClaim {
	typ := c.pl.types[sc.chosen.t]
	name := c.name // render runs on several goroutines: it names c without the memo
	if name == "" {
		name = nameOf(c.pl, c.id)
	}
	off := sc.chosen.offering(c.pl)
	nc := NodeClaim{Name: name, NodePool: c.pl.np.Name, InstanceType: typ.Name, Offering: off,
		Pods: slices.Clone(c.pods), Requests: c.used.Add(c.pl.daemon[sc.chosen.t]), Requirements: c.reqs}
	if sc.types == nil {
		nc.InstanceTypes = rc.typeNames(r, c, priced, sc.chosen.t)
	} else {
		nc.InstanceTypes = make([]string, len(sc.types))
		for i, t := range sc.types {
			nc.InstanceTypes[i] = c.pl.names[t]
		}
	}
	nc.Labels = rc.nodeClaimLabels(c, sc.chosen.t, off)
	nc.Taints = append(slices.Clone(c.pl.np.Taints), c.pl.np.StartupTaints...)
	return nc
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
