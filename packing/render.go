package packing

import (
	"maps"
	"slices"

	"github.com/nodeplan/nodeplan/instancetypes"
	"github.com/nodeplan/nodeplan/requirements"
)

// plan turns the run's state into a Plan.
func (r *run) plan() Plan { return r.render(r.settle()) }

// render builds the Plan of a settled run.
func (r *run) render(st settlement) Plan {
	p := Plan{Order: slices.Clone(r.order), Price: st.price}
	for _, i := range r.order {
		if w := r.where[i]; w.kind == onNode {
			p.Bindings = append(p.Bindings, Binding{Pod: i, Node: r.nodes[w.index].n.Name})
		}
	}
	p.NodeClaims = make([]NodeClaim, len(r.claims))
	for i, c := range r.claims {
		p.NodeClaims[i] = r.nodeClaim(c, st.claims[i])
	}
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
