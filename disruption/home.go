package disruption

import "github.com/nodeplan/nodeplan/packing"

// PodRef names a pod by namespace and name. The zero PodRef names no pod;
// PodRefs are comparable, so they serve as map keys.
type PodRef struct{ Namespace, Name string }

// Ref returns the PodRef of p.
func Ref(p *packing.Pod) PodRef { return PodRef{Namespace: p.Namespace, Name: p.Name} }

// String returns "namespace/name", as [packing.Pod.Key] does.
func (r PodRef) String() string { return packing.ObjectKey(r.Namespace, r.Name) }

// Home is where a pod displaced by a disruption command goes: an existing
// node, a replacement NodeClaim of the command, or nowhere, with the
// reason. Exactly one of Node, NodeClaim and Unschedulable is set; only a
// forceful drift command leaves a pod Unschedulable. The zero Home names
// no pod and no target.
type Home struct {
	Pod           PodRef
	Node          string
	NodeClaim     string
	Unschedulable string
}
