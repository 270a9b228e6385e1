package live

import (
	"fmt"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"

	appsv1 "k8s.io/api/apps/v1"
	batchv1 "k8s.io/api/batch/v1"
	policyv1 "k8s.io/api/policy/v1"
	schedulingv1 "k8s.io/api/scheduling/v1"
	storagev1 "k8s.io/api/storage/v1"
	"sigs.k8s.io/json"
	autoscalingv1beta1 "sigs.k8s.io/karpenter/pkg/apis/autoscaling/v1beta1"
	karpv1 "sigs.k8s.io/karpenter/pkg/apis/v1"
	"sigs.k8s.io/karpenter/pkg/apis/v1alpha1"

	"github.com/nodeplan/nodeplan/internal/enum"
	"github.com/nodeplan/nodeplan/kube"
)

// scope says where a resource is listed from.
type scope uint8

const (
	// clusterScoped resources have no namespace.
	clusterScoped scope = iota
	// everyNamespace resources are listed in every namespace, whatever
	// Options.Namespace says: they bear on every node (DaemonSets, the
	// budgets and volumes of bound pods).
	everyNamespace
	// narrowed resources are listed in Options.Namespace when it is set:
	// the workloads whose pending pods are planned.
	narrowed
	// podScope is the pods': bound pods (spec.nodeName set) from every
	// namespace, pending ones from Options.Namespace when it is set.
	podScope
)

// String names the scope as the package doc does.
func (s scope) String() string { return enum.String(s, "scope", scopeNames[:]) }

var scopeNames = [...]string{"cluster-scoped", "every namespace", "Options.Namespace", "bound: every namespace, pending: Options.Namespace"}

// missing says what a resource the server does not serve (404: its CRD is
// not installed) means.
type missing uint8

const (
	// missingError: an error, as for any other failed list.
	missingError missing = iota
	// missingKarpenter: Karpenter is not installed (ErrNoKarpenter).
	missingKarpenter
	// missingWarn: another provider's cluster; none are read, one warning.
	missingWarn
	// missingQuiet: an optional Karpenter API behind a feature gate
	// (NodeOverlay, CapacityBuffer): without its CRD no object of the
	// kind can exist, so none are read and nothing is said.
	missingQuiet
)

// resource is one kind Read lists: where its collection is and how a
// page of it decodes. The table of them, [kinds], is what the shipped
// ClusterRole must grant (a test checks it).
type resource struct {
	group, version, name, kind string
	scope                      scope
	missing                    missing
	// strict: a field the Go type lacks is named in a warning (a newer
	// server's field). Off for EC2NodeClass, which kube mirrors in part.
	strict bool
}

// kind is a resource and how its list is stored in kube.Objects.
type kind struct {
	resource
	read func(r *reader, objs *kube.Objects) error
	// object, add and decode serve [Kinds]: a new object of the kind,
	// adding one to its slice, and decoding one.
	object func() any
	add    func(objs *kube.Objects, obj any)
	decode func(data []byte) (any, []string, error)
}

// Kind is one kind of [kube.Objects] as the API server serves it, for a
// caller that watches the kinds [Read] lists (nodeplan shadow's
// informers): one list of kinds for both.
type Kind struct {
	Resource schema.GroupVersionResource
	Kind     string
	// Karpenter's own kinds (NodePools, NodeClaims): a server without
	// them has no Karpenter ([ErrNoKarpenter]). Optional kinds may be
	// absent: EC2NodeClasses (another provider's cluster) with a warning,
	// the Quiet ones without a word. Another absent kind is an error.
	Karpenter, Optional bool
	// Quiet optional kinds (NodeOverlays, CapacityBuffers: Karpenter APIs
	// behind a feature gate) may be absent without a warning, as Read
	// says nothing of them: without the CRD no object of the kind exists.
	Quiet bool
	// New returns a new zero object of the kind, a pointer to decode into.
	New func() any
	// Add appends obj, a pointer New returned, to its slice of objs.
	Add func(objs *kube.Objects, obj any)
	// Decode decodes the JSON of one object of the kind as Read decodes
	// a list's items (case-sensitive field names, integers kept exact):
	// a pointer as New returns, and the paths of the fields its Go type
	// lacks (for the kinds Read warns of them; none for EC2NodeClasses).
	// An error is JSON the type cannot hold.
	Decode func(data []byte) (obj any, unknown []string, err error)
}

// Kinds returns every kind Read lists, in its order. It allocates the
// result.
func Kinds() []Kind {
	var out []Kind
	for _, k := range kinds() {
		out = append(out, Kind{Resource: schema.GroupVersionResource{Group: k.group, Version: k.version, Resource: k.name},
			Kind: k.kind, Karpenter: k.missing == missingKarpenter, Optional: k.missing == missingWarn || k.missing == missingQuiet,
			Quiet: k.missing == missingQuiet, New: k.object, Add: k.add, Decode: k.decode})
	}
	return out
}

// kinds lists every kind of kube.Objects, in the order Read lists them:
// Karpenter's first, so that a cluster without it fails before the long
// lists.
func kinds() []kind {
	return []kind{
		into(resource{"karpenter.sh", "v1", "nodepools", "NodePool", clusterScoped, missingKarpenter, true}, func(o *kube.Objects) *[]karpv1.NodePool { return &o.NodePools }, metaKey),
		into(resource{"karpenter.sh", "v1", "nodeclaims", "NodeClaim", clusterScoped, missingKarpenter, true}, func(o *kube.Objects) *[]karpv1.NodeClaim { return &o.NodeClaims }, metaKey),
		into(resource{"karpenter.k8s.aws", "v1", "ec2nodeclasses", "EC2NodeClass", clusterScoped, missingWarn, false}, func(o *kube.Objects) *[]kube.EC2NodeClass { return &o.EC2NodeClasses }, nodeClassKey),
		into(resource{"karpenter.sh", "v1alpha1", "nodeoverlays", "NodeOverlay", clusterScoped, missingQuiet, true}, func(o *kube.Objects) *[]v1alpha1.NodeOverlay { return &o.NodeOverlays }, metaKey),
		into(resource{"", "v1", "nodes", "Node", clusterScoped, missingError, true}, func(o *kube.Objects) *[]corev1.Node { return &o.Nodes }, metaKey),
		into(resource{"", "v1", "pods", "Pod", podScope, missingError, true}, func(o *kube.Objects) *[]corev1.Pod { return &o.Pods }, metaKey),
		into(resource{"apps", "v1", "daemonsets", "DaemonSet", everyNamespace, missingError, true}, func(o *kube.Objects) *[]appsv1.DaemonSet { return &o.DaemonSets }, metaKey),
		into(resource{"apps", "v1", "deployments", "Deployment", narrowed, missingError, true}, func(o *kube.Objects) *[]appsv1.Deployment { return &o.Deployments }, metaKey),
		into(resource{"apps", "v1", "replicasets", "ReplicaSet", narrowed, missingError, true}, func(o *kube.Objects) *[]appsv1.ReplicaSet { return &o.ReplicaSets }, metaKey),
		into(resource{"apps", "v1", "statefulsets", "StatefulSet", narrowed, missingError, true}, func(o *kube.Objects) *[]appsv1.StatefulSet { return &o.StatefulSets }, metaKey),
		into(resource{"batch", "v1", "jobs", "Job", narrowed, missingError, true}, func(o *kube.Objects) *[]batchv1.Job { return &o.Jobs }, metaKey),
		into(resource{"policy", "v1", "poddisruptionbudgets", "PodDisruptionBudget", everyNamespace, missingError, true}, func(o *kube.Objects) *[]policyv1.PodDisruptionBudget { return &o.PodDisruptionBudgets }, metaKey),
		into(resource{"scheduling.k8s.io", "v1", "priorityclasses", "PriorityClass", clusterScoped, missingError, true}, func(o *kube.Objects) *[]schedulingv1.PriorityClass { return &o.PriorityClasses }, metaKey),
		into(resource{"", "v1", "persistentvolumeclaims", "PersistentVolumeClaim", everyNamespace, missingError, true}, func(o *kube.Objects) *[]corev1.PersistentVolumeClaim { return &o.PersistentVolumeClaims }, metaKey),
		into(resource{"", "v1", "persistentvolumes", "PersistentVolume", clusterScoped, missingError, true}, func(o *kube.Objects) *[]corev1.PersistentVolume { return &o.PersistentVolumes }, metaKey),
		into(resource{"storage.k8s.io", "v1", "storageclasses", "StorageClass", clusterScoped, missingError, true}, func(o *kube.Objects) *[]storagev1.StorageClass { return &o.StorageClasses }, metaKey),
		into(resource{"", "v1", "limitranges", "LimitRange", everyNamespace, missingError, true}, func(o *kube.Objects) *[]corev1.LimitRange { return &o.LimitRanges }, metaKey),
		into(resource{"", "v1", "podtemplates", "PodTemplate", narrowed, missingError, true}, func(o *kube.Objects) *[]corev1.PodTemplate { return &o.PodTemplates }, metaKey),
		into(resource{autoscalingv1beta1.Group, "v1beta1", "capacitybuffers", kube.KindCapacityBuffer, narrowed, missingQuiet, true}, func(o *kube.Objects) *[]autoscalingv1beta1.CapacityBuffer { return &o.CapacityBuffers }, metaKey),
		into(resource{"storage.k8s.io", "v1", "csinodes", "CSINode", clusterScoped, missingError, true}, func(o *kube.Objects) *[]storagev1.CSINode { return &o.CSINodes }, metaKey),
	}
}

// into is the kind that lists r into the slice field returns, sorted by
// key.
func into[T any](r resource, field func(*kube.Objects) *[]T, key func(*T) objectKey) kind {
	return kind{resource: r, read: func(rd *reader, objs *kube.Objects) error {
		items, err := list(rd, r, key)
		*field(objs) = items
		return err
	}, object: func() any { return new(T) }, add: func(objs *kube.Objects, obj any) { *field(objs) = append(*field(objs), *obj.(*T)) },
		decode: func(data []byte) (any, []string, error) { return decodeObject[T](r, data) }}
}

// decodeObject decodes one object of r, as listQuery decodes a page.
func decodeObject[T any](r resource, data []byte) (*T, []string, error) {
	v := new(T)
	strict, err := json.UnmarshalStrict(data, v, json.DisallowUnknownFields)
	if err != nil {
		return nil, nil, fmt.Errorf("decoding a %s: %w", r.kind, err)
	}
	var unknown []string
	if r.strict {
		for _, e := range strict {
			unknown = append(unknown, describe(r.kind, e, func(int) objectKey { return objectKey{} }))
		}
	}
	return v, unknown, nil
}

// objectKey is an object's namespace and name, the order Read returns.
type objectKey struct{ namespace, name string }

// metaKey is the key of a Kubernetes object.
func metaKey[T any, P interface {
	*T
	v1.Object
}](o *T) objectKey {
	return objectKey{P(o).GetNamespace(), P(o).GetName()}
}

func nodeClassKey(c *kube.EC2NodeClass) objectKey {
	return objectKey{c.Metadata.Namespace, c.Metadata.Name}
}
