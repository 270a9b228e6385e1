package kube

import (
	"fmt"
	"maps"

	"github.com/nodeplan/nodeplan/instancetypes"
	"github.com/nodeplan/nodeplan/packing"
	"github.com/nodeplan/nodeplan/requirements"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
)

// FromNode converts a Node without its pods: status.allocatable (capacity
// when allocatable is empty), labels, taints (spec.unschedulable adds
// node.kubernetes.io/unschedulable:NoSchedule, as the node controller
// does), annotations, and from the labels its NodePool, instance type, zone
// and capacity type (karpenter.sh/capacity-type, else the
// eks.amazonaws.com/capacityType of an EKS managed node group: ON_DEMAND
// on-demand, SPOT spot). A node of a NodePool is initialized once it carries
// karpenter.sh/initialized=true; any other node counts as initialized.
// A deletionTimestamp marks it for deletion. A Ready condition in
// status.conditions whose status is not True (False, Unknown) makes it
// NotReady; a node without one is taken as Ready (a hand-written manifest).
// Price is left 0; see [Cluster.Problem].
//
// FromNode does not modify n. Errors are *ObjectError values.
func FromNode(n *corev1.Node) (packing.Node, error) {
	out, err := fromNode(n)
	return out, wrap("Node", "", n.Name, err)
}

func fromNode(n *corev1.Node) (packing.Node, error) {
	labels := n.Labels
	out := packing.Node{Name: n.Name, Labels: maps.Clone(labels), Annotations: maps.Clone(n.Annotations),
		NodePool: labels[requirements.LabelNodePool], InstanceType: label(labels, requirements.LabelInstanceType),
		Zone: label(labels, requirements.LabelZone), CreationTime: n.CreationTimestamp.Time,
		MarkedForDeletion: n.DeletionTimestamp != nil, NotReady: nodeNotReady(n.Status.Conditions)}
	if err := checkLabels("metadata.labels", labels); err != nil {
		return out, err
	}
	if _, ok := labels[requirements.LabelHostname]; !ok {
		if err := requirements.ValidateValue(n.Name); err != nil {
			return out, atField("metadata.name", fmt.Errorf("stands in for the missing %s label, so must be a label value: %w",
				requirements.LabelHostname, err))
		}
	}
	out.Initialized = out.NodePool == "" || labels[requirements.LabelKarpenterInitialized] == "true"
	if ct, ok := labels[requirements.LabelCapacityType]; ok {
		c, err := instancetypes.ParseCapacityType(ct)
		if err != nil {
			return out, atField("metadata.labels"+key(requirements.LabelCapacityType), err)
		}
		out.CapacityType = c
	} else if c, ok := eksCapacityTypes[labels[labelEKSCapacityType]]; ok {
		out.CapacityType = c
	}
	alloc, field := n.Status.Allocatable, "status.allocatable"
	if len(alloc) == 0 {
		alloc, field = n.Status.Capacity, "status.capacity"
	}
	var err error
	if out.Allocatable, err = list(alloc); err != nil {
		return out, atField(field, err)
	}
	if out.Taints, err = taints(n.Spec.Taints); err != nil {
		return out, atField("spec.taints", err)
	}
	if n.Spec.Unschedulable && !hasTaint(out.Taints, corev1.TaintNodeUnschedulable) {
		out.Taints = append(out.Taints, requirements.Taint{Key: corev1.TaintNodeUnschedulable, Effect: requirements.NoSchedule})
	}
	return out, nil
}

// nodeNotReady reports whether conds has a Ready condition that is not True.
func nodeNotReady(conds []corev1.NodeCondition) bool {
	for _, c := range conds {
		if c.Type == corev1.NodeReady {
			return c.Status != corev1.ConditionTrue
		}
	}
	return false
}

// labelEKSCapacityType is the label EKS managed node groups put on their
// nodes, which carry no karpenter.sh/capacity-type.
const labelEKSCapacityType = "eks.amazonaws.com/capacityType"

// eksCapacityTypes are the values of labelEKSCapacityType nodeplan reads.
// CAPACITY_BLOCK (a node group of Capacity Blocks for ML) is not among
// them: its price is not the catalog's reserved offering's.
var eksCapacityTypes = map[string]instancetypes.CapacityType{"ON_DEMAND": instancetypes.OnDemand, "SPOT": instancetypes.Spot}

// unknownCapacityType says why the capacity type of a node with labels is
// unknown: neither karpenter.sh/capacity-type nor an
// eks.amazonaws.com/capacityType nodeplan reads. It returns nil when the
// type is known ([FromNode] read it).
func unknownCapacityType(labels map[string]string) error {
	if _, ok := labels[requirements.LabelCapacityType]; ok {
		return nil
	}
	v, ok := labels[labelEKSCapacityType]
	if !ok {
		return fmt.Errorf("it has no %s label", requirements.LabelCapacityType)
	}
	if _, ok := eksCapacityTypes[v]; ok {
		return nil
	}
	return fmt.Errorf("it has no %s label, and its %s label is %q, which nodeplan does not read (ON_DEMAND or SPOT)",
		requirements.LabelCapacityType, labelEKSCapacityType, v)
}

// label reads a well-known label under its stable or its deprecated key.
func label(labels map[string]string, key string) string {
	if v, ok := labels[key]; ok {
		return v
	}
	for _, k := range sortedKeys(labels) {
		if k != key && requirements.Normalize(k) == key {
			return labels[k]
		}
	}
	return ""
}

func hasTaint(ts []requirements.Taint, key string) bool {
	for _, t := range ts {
		if t.Key == key {
			return true
		}
	}
	return false
}

// FromDaemonSet converts a DaemonSet's pod template: its effective
// requests, tolerations and node affinity, under its namespace (an empty
// one becomes "default", as [FromPod] does) and name, so that
// [packing.DaemonSet.Owns] finds its pods. [Load] replaces the requests
// with those of the DaemonSet's newest pod when the manifests hold one, as
// Karpenter does. It does not modify ds. Errors are *ObjectError values.
func FromDaemonSet(ds *appsv1.DaemonSet) (packing.DaemonSet, error) {
	ns := namespace(ds.Namespace)
	out, err := fromDaemonSet(ns, ds)
	return out, wrap("DaemonSet", ns, ds.Name, err)
}

func fromDaemonSet(ns string, ds *appsv1.DaemonSet) (packing.DaemonSet, error) {
	out := packing.DaemonSet{Namespace: ns, Name: ds.Name}
	spec := &ds.Spec.Template.Spec
	var err error
	if out.Requests, err = EffectiveRequests(spec); err != nil {
		return out, atField("spec.template", err)
	}
	if out.Tolerations, err = tolerations(spec.Tolerations); err != nil {
		return out, atField("spec.template.spec.tolerations", err)
	}
	out.NodeAffinity, err = nodeAffinity(spec)
	return out, atField("spec.template", err)
}
