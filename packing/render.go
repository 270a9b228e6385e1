package packing

import (
	"maps"
	"slices"

	"github.com/nodeplan/nodeplan/instancetypes"
	"github.com/nodeplan/nodeplan/internal/parallel"
	"github.com/nodeplan/nodeplan/requirements"
)

// plan turns the run's state into a Plan, from st, its judged settlement
// (run.judge): the judged claims' candidate types are listed first (see
// complete).
func (r *run) plan(st settlement) Plan { return r.render(r.complete(st)) }

// renderChunk is how many claims a goroutine lists or renders at a time.
const renderChunk = 256

// complete turns st, r's judged settlement, into its full settlement (the
// one settle computes: TestJudgeAsSettle): the claims judge settled by
// its walk get their candidate types, the first MaxInstanceTypes of their
// candidates in price order (settleClaim's list for a claim with slack
// limits and no minValues or reservations). The price lists are read in
// order, the candidates listed on up to GOMAXPROCS goroutines.
func (r *run) complete(st settlement) settlement {
	out := st
	out.claims = slices.Clone(st.claims)
	lists := make([][]option, len(r.claims))
	units := map[reservation]int{}
	for i, c := range r.claims {
		if st.claims[i].types == nil {
			lists[i] = r.priced(c, units)
		}
	}
	parallel.Range(len(r.claims), renderChunk, func() func(lo, hi int) {
		return func(lo, hi int) {
			for i := lo; i < hi; i++ {
				if st.claims[i].types == nil {
					out.claims[i].types = r.typeList(r.claims[i], lists[i], st.claims[i].chosen.t)
				}
			}
		}
	})
	return out
}

// typeList is the first MaxInstanceTypes of c's candidate types in the
// order of priced, c's price list; chosen alone when there is none.
func (r *run) typeList(c *claim, priced []option, chosen int) []int {
	limit := r.maxTypes()
	types := make([]int, 0, min(limit, c.cand.Len()))
	for _, o := range priced {
		if len(types) == limit {
			break
		}
		if c.cand.Has(o.t) {
			types = append(types, o.t)
		}
	}
	if len(types) == 0 {
		return []int{chosen}
	}
	return types
}

// render builds the Plan of a settled run: its claims on up to GOMAXPROCS
// goroutines, each into its own slot.
func (r *run) render(st settlement) Plan {
	p := Plan{Order: slices.Clone(r.order), Price: st.price}
	for _, i := range r.order {
		if w := r.where[i]; w.kind == onNode {
			p.Bindings = append(p.Bindings, Binding{Pod: i, Node: r.nodes[w.index].n.Name})
		}
	}
	p.NodeClaims = make([]NodeClaim, len(r.claims))
	parallel.Range(len(r.claims), renderChunk, func() func(lo, hi int) {
		return func(lo, hi int) {
			for i := lo; i < hi; i++ {
				p.NodeClaims[i] = r.nodeClaim(r.claims[i], st.claims[i])
			}
		}
	})
	for _, i := range r.s.order {
		if r.where[i].kind == unplaced {
			p.Unschedulable = append(p.Unschedulable, Unschedulable{Pod: i, Reason: r.fails[i]})
		}
	}
	p.separateHeadroom(r.s.prob.Pods)
	return p
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
