package packing

import (
	"cmp"
	"slices"
)

// Headroom is where Solve put one buffer pod ([Pod.Buffer]), the virtual
// pod a CapacityBuffer asks room for: held on an existing or in-flight node
// (Node), on a NodeClaim of the plan (NodeClaim, its Name), or nowhere
// (Unschedulable, with Reason). Exactly one of the three holds.
//
// A buffer pod is solved as any pending pod, in the same pass and order,
// so it takes room, counts for topology spread and pod (anti-)affinity, and
// may open a NodeClaim of its own (whose price is in [Plan.Price]); but it
// is reported only here, as Karpenter removes its virtual pods from the
// scheduling results and nominates no node for them. The zero Headroom
// is a pod 0 held nowhere with no reason; it is not a valid entry.
type Headroom struct {
	// Pod is the buffer pod's index in [Problem.Pods].
	Pod int
	// Node names the existing or in-flight node that holds the pod.
	Node string
	// NodeClaim names the plan's NodeClaim that holds the pod.
	NodeClaim string
	// Unschedulable says the pod fits nowhere; Reason says why.
	Unschedulable bool
	Reason        Reason
	// Step is the pod's position among all pods the solver placed, buffer
	// pods included: [Plan.Order] with the placed buffer pods put back at
	// their Steps is the order in which every topology constraint holds.
	// It is -1 for an unschedulable pod.
	Step int
}

// Placement says where the pod went: "node <name>", "nodeclaim <name>" or
// "unschedulable".
func (h Headroom) Placement() string {
	switch {
	case h.Unschedulable:
		return "unschedulable"
	case h.NodeClaim != "":
		return "nodeclaim " + h.NodeClaim
	}
	return "node " + h.Node
}

// checkBound reports a bound pod that claims to be a buffer pod: buffer
// pods are virtual and never bound.
func checkBound(is issues, p *Pod) issues {
	if p.Buffer != "" {
		is.add("buffer", "is %q, but a buffer pod is virtual and is never bound to a node", p.Buffer)
	}
	return is
}

// separateHeadroom moves the buffer pods of pods out of p's bindings,
// claims, order and unschedulable list into p.Headroom, sorted by pod
// index. It modifies p in place (render owns every slice of it) and does
// nothing when no pod is a buffer pod. O(pods in p).
func (p *Plan) separateHeadroom(pods []Pod) {
	if !HasBuffer(pods) {
		return
	}
	isBuffer := func(i int) bool { return pods[i].Buffer != "" }
	step := make(map[int]int)
	for k, i := range p.Order {
		if isBuffer(i) {
			step[i] = k
		}
	}
	p.Order = slices.DeleteFunc(p.Order, isBuffer)
	p.Bindings = slices.DeleteFunc(p.Bindings, func(b Binding) bool {
		if isBuffer(b.Pod) {
			p.Headroom = append(p.Headroom, Headroom{Pod: b.Pod, Node: b.Node, Step: step[b.Pod]})
		}
		return isBuffer(b.Pod)
	})
	for c := range p.NodeClaims {
		nc := &p.NodeClaims[c]
		nc.Pods = slices.DeleteFunc(nc.Pods, func(i int) bool {
			if isBuffer(i) {
				p.Headroom = append(p.Headroom, Headroom{Pod: i, NodeClaim: nc.Name, Step: step[i]})
			}
			return isBuffer(i)
		})
	}
	p.Unschedulable = slices.DeleteFunc(p.Unschedulable, func(u Unschedulable) bool {
		if isBuffer(u.Pod) {
			p.Headroom = append(p.Headroom, Headroom{Pod: u.Pod, Unschedulable: true, Reason: u.Reason, Step: -1})
		}
		return isBuffer(u.Pod)
	})
	slices.SortFunc(p.Headroom, func(a, b Headroom) int { return cmp.Compare(a.Pod, b.Pod) })
}

// HeadroomOnNodes counts, per existing or in-flight node, the buffer pods
// the plan holds there: Karpenter's bufferPodCounts, which keep
// consolidation's emptiness from deleting such a node. Pods held on
// NodeClaims or unschedulable are not counted. It returns nil when no
// buffer pod is on a node. O(len(Headroom)).
func (p Plan) HeadroomOnNodes() map[string]int {
	var out map[string]int
	for _, h := range p.Headroom {
		if h.Node == "" || h.Unschedulable {
			continue
		}
		if out == nil {
			out = map[string]int{}
		}
		out[h.Node]++
	}
	return out
}

// HasBuffer reports whether some pod of pods is a buffer pod
// ([Pod.Buffer] set). It reads the pods in place (a closure over Pod
// values would copy each one) and does not allocate. O(len(pods)).
func HasBuffer(pods []Pod) bool {
	for i := range pods {
		if pods[i].Buffer != "" {
			return true
		}
	}
	return false
}
