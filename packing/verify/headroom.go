package verify

import (
	"cmp"
	"slices"

	"github.com/nodeplan/nodeplan/packing"
)

// withHeadroom returns plan with its buffer pods ([packing.Plan.Headroom])
// put back where they are held, so that every other check judges them as
// any pod: a binding, a claim's pod, an unschedulable pod, and a place in
// Order at their Step. It reports a headroom entry naming a real pod, a
// buffer pod placed outside Headroom, an entry held in no or several
// places, a claim the plan lacks, and a bad Step. It does not modify plan.
func (v *verifier) withHeadroom() packing.Plan {
	plan := v.plan
	v.checkBufferPlacements()
	if len(plan.Headroom) == 0 {
		return plan
	}
	plan.NodeClaims = slices.Clone(plan.NodeClaims)
	plan.Bindings = slices.Clone(plan.Bindings)
	plan.Unschedulable = slices.Clone(plan.Unschedulable)
	claims := make(map[string]int, len(plan.NodeClaims))
	for c := range plan.NodeClaims {
		claims[plan.NodeClaims[c].Name] = c
	}
	var placed []packing.Headroom
	for _, h := range plan.Headroom {
		if v.restore(&plan, claims, h) {
			placed = append(placed, h)
		}
	}
	plan.Order = v.mergeOrder(plan.Order, placed)
	return plan
}

// checkBufferPlacements reports a buffer pod bound, on a claim, listed in
// Order or unschedulable outside Plan.Headroom.
func (v *verifier) checkBufferPlacements() {
	outside := func(i int, where string) {
		if v.validPod(i) && v.p.Pods[i].Buffer != "" {
			v.add(RuleHeadroom, i, "", "buffer %s is %s; it must appear only in Headroom", v.podName(i), where)
		}
	}
	for _, b := range v.plan.Bindings {
		outside(b.Pod, "bound to node "+b.Node)
	}
	for _, nc := range v.plan.NodeClaims {
		for _, i := range nc.Pods {
			outside(i, "on claim "+nc.Name)
		}
	}
	for _, u := range v.plan.Unschedulable {
		outside(u.Pod, "in the unschedulable list")
	}
	for _, i := range v.plan.Order {
		outside(i, "in Order")
	}
}

// restore puts headroom entry h back into plan and reports whether it is
// placed (on a node or a claim); a bad entry is reported and left out.
func (v *verifier) restore(plan *packing.Plan, claims map[string]int, h packing.Headroom) bool {
	switch {
	case !v.validPod(h.Pod):
		v.add(RuleUnknownPod, -1, "", "headroom refers to pod index %d, but the problem has %d pods", h.Pod, len(v.p.Pods))
		return false
	case v.p.Pods[h.Pod].Buffer == "":
		v.add(RuleHeadroom, h.Pod, "", "%s is in Headroom but is not a buffer pod", v.podName(h.Pod))
		return false
	case held(h) != 1:
		v.add(RuleHeadroom, h.Pod, "", "headroom of %s must be held on one node, one claim, or be unschedulable; it names %d", v.podName(h.Pod), held(h))
		return false
	case h.Unschedulable:
		plan.Unschedulable = append(plan.Unschedulable, packing.Unschedulable{Pod: h.Pod, Reason: h.Reason})
		return false
	case h.Node != "":
		plan.Bindings = append(plan.Bindings, packing.Binding{Pod: h.Pod, Node: h.Node})
		return true
	}
	c, ok := claims[h.NodeClaim]
	if !ok {
		v.add(RuleUnknownNode, h.Pod, h.NodeClaim, "headroom of %s names claim %s, which the plan lacks", v.podName(h.Pod), h.NodeClaim)
		return false
	}
	nc := &plan.NodeClaims[c]
	nc.Pods = append(slices.Clone(nc.Pods), h.Pod)
	return true
}

// held counts the places h names.
func held(h packing.Headroom) int {
	n := 0
	for _, b := range []bool{h.Node != "", h.NodeClaim != "", h.Unschedulable} {
		if b {
			n++
		}
	}
	return n
}

// mergeOrder inserts the placed headroom pods into order at their Steps,
// in Step order; a Step out of range or taken twice is reported and the
// pod goes at the end.
func (v *verifier) mergeOrder(order []int, placed []packing.Headroom) []int {
	placed = slices.Clone(placed)
	slices.SortStableFunc(placed, func(a, b packing.Headroom) int { return cmp.Compare(a.Step, b.Step) })
	total := len(order) + len(placed)
	out := make([]int, 0, total)
	var late []int
	k := 0
	for _, h := range placed {
		if h.Step < len(out) || h.Step >= total {
			v.add(RuleOrderMismatch, h.Pod, "", "headroom of %s has Step %d, not a free position in 0..%d", v.podName(h.Pod), h.Step, total-1)
			late = append(late, h.Pod)
			continue
		}
		for len(out) < h.Step && k < len(order) {
			out = append(out, order[k])
			k++
		}
		out = append(out, h.Pod)
	}
	out = append(out, order[k:]...)
	return append(out, late...)
}
