package buffer

import (
	"github.com/nodeplan/nodeplan/internal/enum"
	"github.com/nodeplan/nodeplan/packing"
	"github.com/nodeplan/nodeplan/resources"
)

// Buffer is a CapacityBuffer's spec (autoscaling.x-k8s.io/v1beta1): the
// workload shape to keep room for and how many of it. Exactly one of
// PodTemplate and Scalable should be set; with both, PodTemplate wins, as
// in Karpenter. The zero Buffer has neither and resolves to
// ResolutionFailed.
type Buffer struct {
	Namespace, Name string
	// PodTemplate is spec.podTemplateRef.name: a PodTemplate in Namespace.
	// "" is unset.
	PodTemplate string
	// Scalable is spec.scalableRef; nil is unset.
	Scalable *ScalableRef
	// Replicas is spec.replicas when HasReplicas.
	Replicas    int32
	HasReplicas bool
	// Percentage is spec.percentage when HasPercentage: a share of the
	// Scalable workload's replicas (ignored with PodTemplate).
	Percentage    int32
	HasPercentage bool
	// Limits is spec.limits per resource name, in the units of
	// [resources.List] (cpu in millicores, memory in bytes); a nil map is
	// unset. A name present with 0 is a limit of 0.
	Limits map[resources.Name]int64
}

// Key returns "namespace/name". O(len).
func (b *Buffer) Key() string { return packing.ObjectKey(b.Namespace, b.Name) }

// ScalableRef is spec.scalableRef: a workload whose pod template and
// replicas the buffer follows.
type ScalableRef struct {
	// APIGroup is "" or "apps"; "" means "apps".
	APIGroup string
	// Kind is Deployment, StatefulSet or ReplicaSet.
	Kind string
	Name string
}

// Kind is a kind of object a buffer refers to. The zero Kind is
// PodTemplate.
type Kind uint8

const (
	// PodTemplate is a core/v1 PodTemplate (spec.podTemplateRef).
	PodTemplate Kind = iota
	// Deployment is an apps/v1 Deployment.
	Deployment
	// StatefulSet is an apps/v1 StatefulSet.
	StatefulSet
	// ReplicaSet is an apps/v1 ReplicaSet.
	ReplicaSet
)

var kindNames = [...]string{"PodTemplate", "Deployment", "StatefulSet", "ReplicaSet"}

// String returns the Kubernetes kind.
func (k Kind) String() string { return enum.String(k, "Kind", kindNames[:]) }

// Target names the object a buffer refers to. Targets are comparable and
// key [Workloads].
type Target struct {
	Kind            Kind
	Namespace, Name string
}

// String returns "Kind namespace/name".
func (t Target) String() string {
	return t.Kind.String() + " " + packing.ObjectKey(t.Namespace, t.Name)
}

// Workload is what a [Target] resolves to: the pod template as a pending
// pod (its effective requests, labels and scheduling constraints; name
// and namespace are replaced) and, for a scalable workload, its
// spec.replicas.
type Workload struct {
	Template packing.Pod
	// Replicas is the workload's spec.replicas when HasReplicas; an unset
	// spec.replicas counts as 1, as Kubernetes defaults it. Unused for a
	// PodTemplate.
	Replicas    int32
	HasReplicas bool
}

// Workloads are the objects a host could find, by target. A target
// missing from the map is not found.
type Workloads map[Target]Workload
