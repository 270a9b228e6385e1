package kube

import (
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	karpv1 "sigs.k8s.io/karpenter/pkg/apis/v1"
)

// nodePoolOf converts a karpenter.sh/v1 NodePool of Karpenter's Go types
// into this package's [NodePool], field by field, for the fields nodeplan
// reads; the values are checked later, as a decoded NodePool's are
// ([FromNodePool]). A nil NillableDuration is Karpenter's Never (the API
// server writes the CRD's defaults, 720h and 0s, for absent ones). Durations
// are written as they were read (NillableDuration's Raw) or in their
// shortest form ("48h", not "48h0m0s"). It does not modify np and shares
// nothing with it.
func nodePoolOf(np *karpv1.NodePool) NodePool {
	s, t := &np.Spec, &np.Spec.Template
	return NodePool{APIVersion: KarpenterAPIVersion, Kind: KindNodePool, Metadata: metaOf(&np.ObjectMeta),
		Spec: NodePoolSpec{
			Template: NodeClaimTemplate{
				Metadata: ObjectMeta{Labels: maps.Clone(t.Labels), Annotations: maps.Clone(t.Annotations)},
				Spec: NodeClaimSpec{Taints: slices.Clone(t.Spec.Taints), StartupTaints: slices.Clone(t.Spec.StartupTaints),
					Requirements: requirementsOf(t.Spec.Requirements), NodeClassRef: nodeClassRefOf(t.Spec.NodeClassRef),
					TerminationGracePeriod: metaDuration(t.Spec.TerminationGracePeriod), ExpireAfter: nillable(t.Spec.ExpireAfter)},
			},
			Disruption: Disruption{ConsolidateAfter: nillable(s.Disruption.ConsolidateAfter),
				ConsolidationPolicy: string(s.Disruption.ConsolidationPolicy), Budgets: budgetsOf(s.Disruption.Budgets)},
			Limits: maps.Clone(corev1.ResourceList(s.Limits)), Weight: clonePtr(s.Weight), Replicas: clonePtr(s.Replicas),
		},
		Status: NodePoolStatus{Conditions: poolConditions(&np.Status)},
	}
}

// nodeClaimOf converts a karpenter.sh/v1 NodeClaim of Karpenter's Go
// types into the manifest Load decodes: its metadata, requirements,
// taints and the status nodeplan reads. It does not modify nc; the
// manifest shares its metadata's maps.
func nodeClaimOf(nc *karpv1.NodeClaim) nodeClaimManifest {
	m := nodeClaimManifest{Metadata: nc.ObjectMeta,
		Spec: NodeClaimSpec{Taints: slices.Clone(nc.Spec.Taints), StartupTaints: slices.Clone(nc.Spec.StartupTaints),
			Requirements: requirementsOf(nc.Spec.Requirements)},
		Status: nodeClaimStatus{NodeName: nc.Status.NodeName, ProviderID: nc.Status.ProviderID, ImageID: nc.Status.ImageID,
			Allocatable: maps.Clone(nc.Status.Allocatable)}}
	for _, c := range nc.Status.Conditions {
		m.Status.Conditions = append(m.Status.Conditions, metav1.Condition(c))
	}
	return m
}

func metaOf(m *metav1.ObjectMeta) ObjectMeta {
	return ObjectMeta{Name: m.Name, Namespace: m.Namespace, Labels: maps.Clone(m.Labels), Annotations: maps.Clone(m.Annotations),
		DeletionTimestamp: m.DeletionTimestamp.DeepCopy()}
}

func requirementsOf(rs []karpv1.NodeSelectorRequirementWithMinValues) []Requirement {
	if rs == nil {
		return nil
	}
	out := make([]Requirement, len(rs))
	for i, r := range rs {
		out[i] = Requirement{Key: r.Key, Operator: string(r.Operator), Values: slices.Clone(r.Values), MinValues: clonePtr(r.MinValues)}
	}
	return out
}

func nodeClassRefOf(r *karpv1.NodeClassReference) *NodeClassReference {
	if r == nil {
		return nil
	}
	return &NodeClassReference{Group: r.Group, Kind: r.Kind, Name: r.Name}
}

func budgetsOf(bs []karpv1.Budget) []Budget {
	if bs == nil {
		return nil
	}
	out := make([]Budget, len(bs))
	for i, b := range bs {
		out[i] = Budget{Nodes: b.Nodes, Schedule: clonePtr(b.Schedule), Duration: metaDuration(b.Duration)}
		for _, r := range b.Reasons {
			out[i].Reasons = append(out[i].Reasons, string(r))
		}
	}
	return out
}

func poolConditions(s *karpv1.NodePoolStatus) []Condition {
	var out []Condition
	for _, c := range s.Conditions {
		out = append(out, Condition{Type: c.Type, Status: string(c.Status), Reason: c.Reason, Message: c.Message})
	}
	return out
}

// nillable writes d as Karpenter reads it, from Duration (nil is Never):
// in the text the YAML said it (Raw) when that text still means Duration
// (a caller may change Duration on its copy and leave Raw as the server
// sent it), else in its shortest form.
func nillable(d karpv1.NillableDuration) string {
	if d.Duration == nil {
		return Never
	}
	if s, err := strconv.Unquote(string(d.Raw)); err == nil {
		if raw, err := time.ParseDuration(s); err == nil && raw == *d.Duration {
			return s
		}
	}
	return shortDuration(*d.Duration)
}

func metaDuration(d *metav1.Duration) string {
	if d == nil {
		return ""
	}
	return shortDuration(d.Duration)
}

// shortDuration is d.String() without its zero minutes and seconds after
// hours or minutes: 48h, 1h30m, 10m, 30s, 0s.
func shortDuration(d time.Duration) string {
	s := d.String()
	if t, ok := strings.CutSuffix(s, "m0s"); ok {
		s = t + "m"
	}
	if t, ok := strings.CutSuffix(s, "h0m"); ok {
		s = t + "h"
	}
	return s
}

func clonePtr[T any](p *T) *T {
	if p == nil {
		return nil
	}
	return new(*p)
}
