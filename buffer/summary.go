package buffer

import (
	"fmt"

	"github.com/nodeplan/nodeplan/packing"
)

// Summary is where one buffer's pods went in a plan: how many are held on
// existing or in-flight nodes, how many need a new NodeClaim, how many fit
// nowhere, and the Provisioning condition Karpenter would write.
type Summary struct {
	Namespace, Name string
	Reason          Reason
	Replicas        int32
	// OnNodes, OnClaims and Failed count the buffer's pods in
	// [packing.Plan.Headroom]; Holders names the nodes and claims that
	// hold them, as [packing.Headroom.Placement] spells them, in pod
	// order, with repeats.
	OnNodes, OnClaims, Failed int
	Holders                   []string
	Provisioning              Provisioning
	// Message is the condition's message, Karpenter's wording; "" for
	// Unchanged.
	Message string
}

// Summarize reports each result's pods in plan, solved from a problem
// whose pods are pods (plan's Headroom indexes them), in the order of
// results. A buffer pod is matched to its result by namespace and
// [packing.Pod.Buffer]. The Provisioning reason follows Karpenter's
// computeProvisioningCondition: not ready → NotReadyForProvisioning; 0
// replicas → BufferEmpty; none of its pods in the plan → Unchanged; any
// on a claim or failed → RequiresNewCapacity; all on nodes →
// FitsExistingCapacity. It does not modify its arguments.
// O(results + len(Headroom)).
func Summarize(results []Result, pods []packing.Pod, plan packing.Plan) []Summary {
	out := make([]Summary, len(results))
	index := make(map[string]int, len(results))
	for i := range results {
		r := &results[i]
		out[i] = Summary{Namespace: r.Namespace, Name: r.Name, Reason: r.Reason, Replicas: r.Replicas}
		index[r.Key()] = i
	}
	for _, h := range plan.Headroom {
		if h.Pod < 0 || h.Pod >= len(pods) {
			continue
		}
		if i, ok := index[packing.ObjectKey(pods[h.Pod].Namespace, pods[h.Pod].Buffer)]; ok {
			out[i].count(h)
		}
	}
	for i := range out {
		out[i].Provisioning, out[i].Message = out[i].condition()
	}
	return out
}

// count adds one headroom entry.
func (s *Summary) count(h packing.Headroom) {
	switch {
	case h.Unschedulable:
		s.Failed++
	case h.NodeClaim != "":
		s.OnClaims++
	default:
		s.OnNodes++
	}
	if !h.Unschedulable {
		s.Holders = append(s.Holders, h.Placement())
	}
}

// condition is the Provisioning reason and message.
func (s *Summary) condition() (Provisioning, string) {
	switch {
	case s.Reason != Resolved:
		return NotReadyForProvisioning, "Buffer is not ReadyForProvisioning"
	case s.Replicas == 0:
		return BufferEmpty, "Buffer has zero desired replicas"
	case s.OnNodes+s.OnClaims+s.Failed == 0:
		return Unchanged, ""
	case s.OnClaims > 0 || s.Failed > 0:
		return RequiresNewCapacity, fmt.Sprintf("%d/%d virtual pods required new capacity, %d failed", s.OnClaims, s.Replicas, s.Failed)
	case s.OnNodes == int(s.Replicas):
		return FitsExistingCapacity, fmt.Sprintf("All %d virtual pods fit on existing capacity", s.Replicas)
	}
	return Unchanged, ""
}
