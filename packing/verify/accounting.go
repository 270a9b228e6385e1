package verify

import "github.com/nodeplan/nodeplan/packing"

// checkAccounting reports pods lost, duplicated or out of range, and
// unschedulable pods without a reason (rule 1).
func (v *verifier) checkAccounting() {
	seen := make([]int, len(v.p.Pods))
	for _, b := range v.plan.Bindings {
		v.count(seen, b.Pod, "a binding to node "+b.Node)
	}
	for i := range v.plan.NodeClaims {
		c := &v.plan.NodeClaims[i]
		for _, pod := range c.Pods {
			v.count(seen, pod, "claim "+c.Name)
		}
	}
	for _, u := range v.plan.Unschedulable {
		v.count(seen, u.Pod, "the unschedulable list")
		v.checkReason(u)
	}
	v.reportSeen(seen)
}

// count adds one appearance of pod i, reporting an index out of range.
func (v *verifier) count(seen []int, i int, where string) {
	if !v.validPod(i) {
		v.add(RuleUnknownPod, -1, "", "%s refers to pod index %d, but the problem has %d pods", where, i, len(v.p.Pods))
		return
	}
	seen[i]++
}

func (v *verifier) checkReason(u packing.Unschedulable) {
	if v.validPod(u.Pod) && u.Reason.Message == "" {
		v.add(RuleMissingReason, u.Pod, "", "%s is unschedulable with no reason message", v.podName(u.Pod))
	}
}

func (v *verifier) reportSeen(seen []int) {
	for i, n := range seen {
		switch {
		case n == 0:
			v.add(RulePodLost, i, "", "%s is neither bound, on a claim, nor unschedulable", v.podName(i))
		case n > 1:
			v.add(RulePodDuplicated, i, "", "%s appears %d times in the plan; it must appear once", v.podName(i), n)
		}
	}
}

// checkOrder reports a Plan.Order that does not list exactly the placed
// pods, each once.
func (v *verifier) checkOrder() {
	placed := v.placedSet()
	listed := make([]int, len(v.p.Pods))
	for pos, i := range v.plan.Order {
		if !v.validPod(i) || !placed[i] {
			v.add(RuleOrderMismatch, v.podRef(i), "", "Order[%d] lists %s, which is not placed on a node or claim", pos, v.podName(i))
			continue
		}
		listed[i]++
	}
	for i, n := range listed {
		if placed[i] && n != 1 {
			v.add(RuleOrderMismatch, i, "", "Order lists placed %s %d times; it must list it once", v.podName(i), n)
		}
	}
}

// placedSet marks the pods that a binding or a claim places, whether or not
// the binding's node is valid.
func (v *verifier) placedSet() []bool {
	placed := make([]bool, len(v.p.Pods))
	mark := func(i int) {
		if v.validPod(i) {
			placed[i] = true
		}
	}
	for _, b := range v.plan.Bindings {
		mark(b.Pod)
	}
	for i := range v.plan.NodeClaims {
		for _, pod := range v.plan.NodeClaims[i].Pods {
			mark(pod)
		}
	}
	return placed
}
