package guide

import (
	"fmt"
	"slices"
	"time"

	"github.com/nodeplan/nodeplan/packing"
	"github.com/nodeplan/nodeplan/requirements"
)

// complete returns g, a plan for p that leaves out the pods missed (and
// perhaps others), with the missed pods placed where a solve of them alone
// puts them: on the room g's NodeClaims leave (launched as in-flight
// nodes, holding their pods), on existing nodes (holding the pods g binds
// there) or on new NodeClaims. A claim that takes pods becomes the node
// it was launched as (see narrowed). g is returned as it is when it
// places buffer pods, whose headroom this does not carry over, or binds a
// pod to a node p lacks. g is not modified.
func complete(p packing.Problem, g packing.Plan, missed []int, o packing.Options) (packing.Plan, error) {
	if len(g.Headroom) > 0 {
		return g, nil
	}
	r := p
	r.Nodes = slices.Clone(p.Nodes)
	byNode := map[string]int{}
	for i, n := range r.Nodes {
		byNode[n.Name] = i
	}
	for _, b := range g.Bindings {
		i, ok := byNode[b.Node]
		if !ok {
			return g, nil
		}
		n := &r.Nodes[i]
		n.Pods = append(slices.Clip(n.Pods), p.Pods[b.Pod])
	}
	claims := map[string]int{}
	for i, c := range g.NodeClaims {
		claims[c.Name] = i
		r.Nodes = append(r.Nodes, p.Launched(c, time.Time{}))
	}
	r.Pods = make([]packing.Pod, len(missed))
	for i, k := range missed {
		r.Pods[i] = p.Pods[k]
	}
	h, err := packing.Solve(r, o)
	if err != nil {
		return packing.Plan{}, fmt.Errorf("guide: placing the pods a pinned solve left out: %w", err)
	}
	return merge(p, g, h, missed, claims), nil
}

// merge returns g with h's placements of the missed pods added (h's pod
// i is missed[i]); claims are g's claims' indexes by name.
func merge(p packing.Problem, g, h packing.Plan, missed []int, claims map[string]int) packing.Plan {
	out := g
	out.NodeClaims = slices.Clone(g.NodeClaims)
	out.Bindings = slices.Clone(g.Bindings)
	grown := map[int]bool{}
	for _, b := range h.Bindings {
		k := missed[b.Pod]
		ci, ok := claims[b.Node]
		if !ok {
			out.Bindings = append(out.Bindings, packing.Binding{Pod: k, Node: b.Node})
			continue
		}
		c := &out.NodeClaims[ci]
		if !grown[ci] {
			grown[ci] = true
			*c = narrowed(*c)
		}
		c.Pods = append(c.Pods, k)
		c.Requests = c.Requests.Add(p.Pods[k].Requests.OnePod())
	}
	for _, c := range h.NodeClaims {
		c.Pods = mapped(c.Pods, missed)
		out.NodeClaims = append(out.NodeClaims, c)
	}
	out.Order = append(slices.Clone(g.Order), mapped(h.Order, missed)...)
	out.Unschedulable = slices.DeleteFunc(slices.Clone(g.Unschedulable), func(u packing.Unschedulable) bool {
		_, found := slices.BinarySearch(missed, u.Pod)
		return found
	})
	for _, u := range h.Unschedulable {
		u.Pod = missed[u.Pod]
		out.Unschedulable = append(out.Unschedulable, u)
	}
	slices.SortFunc(out.Unschedulable, func(a, b packing.Unschedulable) int { return a.Pod - b.Pod })
	out.Price = g.Price + h.Price
	return out
}

// narrowed returns c as the node complete launched it as, for a claim
// that takes more pods: its chosen type the only candidate (a cheaper one
// may not hold them) and its requirements narrowed to its type, its
// offering's zone and capacity type, and every label it has, the labels
// the pods were placed against. A host that launches it from its
// requirements then launches that node. c's slices are not modified.
func narrowed(c packing.NodeClaim) packing.NodeClaim {
	c.Pods = slices.Clone(c.Pods)
	c.InstanceTypes = []string{c.InstanceType}
	pins := []requirements.Requirement{
		requirements.MustNew(requirements.LabelInstanceType, requirements.In, c.InstanceType),
		requirements.MustNew(requirements.LabelZone, requirements.In, c.Offering.Zone),
		requirements.MustNew(requirements.LabelCapacityType, requirements.In, c.Offering.CapacityType.String()),
	}
	for _, l := range c.Labels {
		if r, err := requirements.New(l.Key, requirements.In, l.Value); err == nil {
			pins = append(pins, r)
		}
	}
	c.Requirements = c.Requirements.Add(pins...)
	return c
}

// mapped returns pods, indexes into of (the left-out pods of a plan, the
// pods of a problem's part), as the indexes of holds there.
func mapped(pods, of []int) []int {
	out := make([]int, len(pods))
	for i, k := range pods {
		out[i] = of[k]
	}
	return out
}
