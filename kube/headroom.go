package kube

import (
	"slices"

	"github.com/nodeplan/nodeplan/buffer"
	"github.com/nodeplan/nodeplan/packing"
)

// BufferHeadroom is one CapacityBuffer in a [Report]: what it asks for
// and where a plan holds its virtual pods.
type BufferHeadroom struct {
	Namespace string `json:"namespace"`
	Name      string `json:"name"`
	// Ready is the ReadyForProvisioning condition; Reason its reason
	// (Resolved, ResolutionFailed, PodTemplateNotFound,
	// ScalableRefNotFound) and Error why it is not ready.
	Ready  bool   `json:"ready"`
	Reason string `json:"reason"`
	Error  string `json:"error,omitempty"`
	// Replicas is how many virtual pods the buffer asks for.
	Replicas int32 `json:"replicas"`
	// OnExistingNodes, OnNewNodeClaims and Failed count its pods held on
	// existing (or in-flight) nodes, on the plan's NodeClaims, and
	// nowhere.
	OnExistingNodes int `json:"onExistingNodes"`
	OnNewNodeClaims int `json:"onNewNodeClaims"`
	Failed          int `json:"failed"`
	// Nodes and NodeClaims name where its pods are held, once each, in
	// the order of the pods.
	Nodes      []string `json:"nodes,omitempty"`
	NodeClaims []string `json:"nodeClaims,omitempty"`
	// Provisioning is the Provisioning condition's reason Karpenter would
	// write, and Message its message ("" when it leaves it unchanged).
	Provisioning string `json:"provisioning"`
	Message      string `json:"message,omitempty"`
}

// Headroom reports each buffer of bufs (a [Cluster]'s Buffers) in plan,
// solved from p ([Cluster.Problem]), in the order of bufs; nil for none.
// O(buffers + len(plan.Headroom)).
func Headroom(bufs []buffer.Result, p *packing.Problem, plan *packing.Plan) []BufferHeadroom {
	if len(bufs) == 0 {
		return nil
	}
	sums := buffer.Summarize(bufs, p.Pods, *plan)
	out := make([]BufferHeadroom, len(bufs))
	index := make(map[string]int, len(bufs))
	for i, s := range sums {
		out[i] = BufferHeadroom{Namespace: s.Namespace, Name: s.Name, Ready: bufs[i].Ready(), Reason: s.Reason.String(),
			Replicas: s.Replicas, OnExistingNodes: s.OnNodes, OnNewNodeClaims: s.OnClaims, Failed: s.Failed,
			Provisioning: s.Provisioning.String(), Message: s.Message}
		if bufs[i].Err != nil {
			out[i].Error = bufs[i].Err.Error()
		}
		index[packing.ObjectKey(s.Namespace, s.Name)] = i
	}
	for _, h := range plan.Headroom {
		if h.Pod < 0 || h.Pod >= len(p.Pods) {
			continue
		}
		i, ok := index[packing.ObjectKey(p.Pods[h.Pod].Namespace, p.Pods[h.Pod].Buffer)]
		switch {
		case !ok:
		case h.Node != "":
			if !slices.Contains(out[i].Nodes, h.Node) {
				out[i].Nodes = append(out[i].Nodes, h.Node)
			}
		case h.NodeClaim != "":
			if !slices.Contains(out[i].NodeClaims, h.NodeClaim) {
				out[i].NodeClaims = append(out[i].NodeClaims, h.NodeClaim)
			}
		}
	}
	return out
}
