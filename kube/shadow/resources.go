package shadow

import (
	"encoding/json"
	"fmt"

	"github.com/nodeplan/nodeplan/kube"
	appsv1 "k8s.io/api/apps/v1"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	schedulingv1 "k8s.io/api/scheduling/v1"
	storagev1 "k8s.io/api/storage/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	karpv1 "sigs.k8s.io/karpenter/pkg/apis/v1"
)

// resource is one kind of object nodeplan shadow reads: where the API
// serves it and the field of kube.Objects it goes to.
type resource struct {
	gvr  schema.GroupVersionResource
	kind string
	// decode converts the JSON of an object (as an unstructured map) to
	// its typed value, a pointer.
	decode func(u map[string]any) (any, error)
	// add appends the typed object (a pointer decode returned) to objs.
	add func(objs *kube.Objects, obj any)
}

// typed returns the resource of the kube.Objects field field.
func typed[T any](group, version, plural, kind string, field func(*kube.Objects) *[]T) resource {
	return resource{
		gvr:  schema.GroupVersionResource{Group: group, Version: version, Resource: plural},
		kind: kind,
		decode: func(u map[string]any) (any, error) {
			data, err := json.Marshal(u)
			if err != nil {
				return nil, err
			}
			v := new(T)
			if err := json.Unmarshal(data, v); err != nil {
				return nil, fmt.Errorf("%s: %w", kind, err)
			}
			return v, nil
		},
		add: func(objs *kube.Objects, obj any) { *field(objs) = append(*field(objs), *obj.(*T)) },
	}
}

// apiVersion is the group/version of r.
func (r *resource) apiVersion() string { return r.gvr.GroupVersion().String() }

// resources are the kinds a snapshot is built from (kube.Objects), in its
// order.
var resources = []resource{
	typed("", "v1", "pods", "Pod", func(o *kube.Objects) *[]corev1.Pod { return &o.Pods }),
	typed("", "v1", "nodes", "Node", func(o *kube.Objects) *[]corev1.Node { return &o.Nodes }),
	typed("apps", "v1", "daemonsets", "DaemonSet", func(o *kube.Objects) *[]appsv1.DaemonSet { return &o.DaemonSets }),
	typed("apps", "v1", "deployments", "Deployment", func(o *kube.Objects) *[]appsv1.Deployment { return &o.Deployments }),
	typed("apps", "v1", "replicasets", "ReplicaSet", func(o *kube.Objects) *[]appsv1.ReplicaSet { return &o.ReplicaSets }),
	typed("apps", "v1", "statefulsets", "StatefulSet", func(o *kube.Objects) *[]appsv1.StatefulSet { return &o.StatefulSets }),
	typed("batch", "v1", "jobs", "Job", func(o *kube.Objects) *[]batchv1.Job { return &o.Jobs }),
	typed("policy", "v1", "poddisruptionbudgets", "PodDisruptionBudget", func(o *kube.Objects) *[]policyv1.PodDisruptionBudget { return &o.PodDisruptionBudgets }),
	typed("scheduling.k8s.io", "v1", "priorityclasses", "PriorityClass", func(o *kube.Objects) *[]schedulingv1.PriorityClass { return &o.PriorityClasses }),
	typed("", "v1", "persistentvolumeclaims", "PersistentVolumeClaim", func(o *kube.Objects) *[]corev1.PersistentVolumeClaim { return &o.PersistentVolumeClaims }),
	typed("", "v1", "persistentvolumes", "PersistentVolume", func(o *kube.Objects) *[]corev1.PersistentVolume { return &o.PersistentVolumes }),
	typed("storage.k8s.io", "v1", "storageclasses", "StorageClass", func(o *kube.Objects) *[]storagev1.StorageClass { return &o.StorageClasses }),
	typed("", "v1", "limitranges", "LimitRange", func(o *kube.Objects) *[]corev1.LimitRange { return &o.LimitRanges }),
	typed("karpenter.sh", "v1", "nodepools", "NodePool", func(o *kube.Objects) *[]karpv1.NodePool { return &o.NodePools }),
	typed("karpenter.sh", "v1", "nodeclaims", "NodeClaim", func(o *kube.Objects) *[]karpv1.NodeClaim { return &o.NodeClaims }),
	typed("karpenter.k8s.aws", "v1", "ec2nodeclasses", kube.KindEC2NodeClass, func(o *kube.Objects) *[]kube.EC2NodeClass { return &o.EC2NodeClasses }),
}
