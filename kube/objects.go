package kube

import (
	appsv1 "k8s.io/api/apps/v1"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	schedulingv1 "k8s.io/api/scheduling/v1"
	storagev1 "k8s.io/api/storage/v1"
	karpv1 "sigs.k8s.io/karpenter/pkg/apis/v1"
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
	LimitRanges            []corev1.LimitRange
	NodePools              []karpv1.NodePool
	NodeClaims             []karpv1.NodeClaim
	EC2NodeClasses         []EC2NodeClass
}
