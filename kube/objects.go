package kube

import (
	"github.com/nodeplan/nodeplan/packing"
	appsv1 "k8s.io/api/apps/v1"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	schedulingv1 "k8s.io/api/scheduling/v1"
	storagev1 "k8s.io/api/storage/v1"
	autoscalingv1beta1 "sigs.k8s.io/karpenter/pkg/apis/autoscaling/v1beta1"
	karpv1 "sigs.k8s.io/karpenter/pkg/apis/v1"
	"sigs.k8s.io/karpenter/pkg/apis/v1alpha1"
)

// Objects are a cluster's objects as typed values: what a controller's
// informers hold, what a live read lists, and what [Load] decodes
// manifests into. [FromObjects] builds the snapshot from them; Load is a
// decoder in front of it. Within a kind the order is the caller's (a live
// read lists by namespace and name, as the API server does); the snapshot
// does not depend on the order of the kinds.
//
// EC2NodeClasses are nodeplan's own typed mirror of the
// karpenter.k8s.aws/v1 schema ([EC2NodeClass]): the AWS provider's Go
// module requires a Karpenter newer than v1.14.1, which nodeplan follows.
//
// The zero Objects holds nothing. Nothing in it is modified.
type Objects struct {
	Pods                   []corev1.Pod
	Nodes                  []corev1.Node
	DaemonSets             []appsv1.DaemonSet
	Deployments            []appsv1.Deployment
	ReplicaSets            []appsv1.ReplicaSet
	StatefulSets           []appsv1.StatefulSet
	Jobs                   []batchv1.Job
	PodDisruptionBudgets   []policyv1.PodDisruptionBudget
	PriorityClasses        []schedulingv1.PriorityClass
	PersistentVolumeClaims []corev1.PersistentVolumeClaim
	PersistentVolumes      []corev1.PersistentVolume
	StorageClasses         []storagev1.StorageClass
	CSINodes               []storagev1.CSINode
	LimitRanges            []corev1.LimitRange
	NodePools              []karpv1.NodePool
	NodeClaims             []karpv1.NodeClaim
	EC2NodeClasses         []EC2NodeClass
	NodeOverlays           []v1alpha1.NodeOverlay
	// CapacityBuffers and the PodTemplates they may refer to are read
	// for the buffers' headroom (package buffer).
	CapacityBuffers []autoscalingv1beta1.CapacityBuffer
	PodTemplates    []corev1.PodTemplate
}

// FromObjects builds the snapshot [Load] builds, from typed objects
// instead of manifests: the same conversion, checks and warnings, kind by
// kind in the order of the fields of Objects, each kind in its order. A
// NodePool's NillableDurations that are nil are Never, as in Karpenter
// (the API server writes the CRD's defaults for absent ones). The objects'
// kind and apiVersion (TypeMeta, which informers leave empty) are not
// read.
//
// Errors are *ObjectError values naming the kind, namespace/name and field
// (no file: wrap them to say where the objects came from); a second object
// of the same kind, namespace and name wraps [ErrDuplicate]; the Cluster's
// later errors ([Cluster.Problem], [Cluster.Drift]) are *ObjectError
// values too. Warnings name objects without a file. objs is not modified;
// the Cluster may share maps and slices of objs that nodeplan only reads.
// The complexity is linear in the objects.
func FromObjects(objs Objects) (Cluster, error) {
	b := builder{in: snapshot{Objects: objs}}
	b.in.pools = make([]NodePool, len(objs.NodePools))
	for i := range objs.NodePools {
		b.in.pools[i] = nodePoolOf(&objs.NodePools[i])
	}
	b.in.claims = make([]nodeClaimManifest, len(objs.NodeClaims))
	for i := range objs.NodeClaims {
		b.in.claims[i] = nodeClaimOf(&objs.NodeClaims[i])
	}
	b.in.NodePools, b.in.NodeClaims = nil, nil
	return b.build()
}

// snapshot is what one Cluster is built from: Objects, but NodePools and
// NodeClaims in this package's types (pools and claims; Objects' are
// unused), and where Load read each object.
type snapshot struct {
	Objects
	pools  []NodePool
	claims []nodeClaimManifest
	// pods are the facts of each pod and converted their conversions
	// (takePod), in the order of the pods: Load takes them as it reads
	// each pod, and FromObjects from Objects.Pods.
	pods      []podFacts
	converted []packing.Pod
	// pre are the pods predecode decoded, by the order of their objects;
	// nil when it did not run.
	pre []predecoded
	// at are where Load read each object, by kind, in the order of the
	// kind's slice; nil from FromObjects.
	at map[string][]*object
}

// origin returns where Load read the i-th object of kind, or nil.
func (s *snapshot) origin(kind string, i int) *object {
	if at := s.at[kind]; i < len(at) {
		return at[i]
	}
	return nil
}
