package sidebyside

import (
	"maps"
	"slices"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	v1 "sigs.k8s.io/karpenter/pkg/apis/v1"
	"sigs.k8s.io/karpenter/pkg/cloudprovider"
	"sigs.k8s.io/karpenter/pkg/scheduling"
	"sigs.k8s.io/karpenter/pkg/test"

	"github.com/nodeplan/nodeplan/benchmarks/workload"
	"github.com/nodeplan/nodeplan/resources"
)

// creationTime is the creation timestamp of every converted pod, so that
// Karpenter's queue breaks ties between equal pods by UID alone.
var creationTime = metav1.Unix(1_700_000_000, 0)

// instanceTypes converts the catalog. A label key that some types carry and
// a type lacks gets a DoesNotExist requirement on that type, as Karpenter's
// fake types do for `special`.
func instanceTypes(its []workload.InstanceType) []*cloudprovider.InstanceType {
	extra := map[string]bool{}
	for _, it := range its {
		for k := range it.Labels {
			extra[k] = true
		}
	}
	keys := slices.Sorted(maps.Keys(extra))
	out := make([]*cloudprovider.InstanceType, 0, len(its))
	for _, it := range its {
		out = append(out, instanceType(it, keys))
	}
	return out
}

func instanceType(it workload.InstanceType, extraKeys []string) *cloudprovider.InstanceType {
	capacity := corev1.ResourceList{
		corev1.ResourceCPU:    *resource.NewMilliQuantity(it.CPUMilli, resource.DecimalSI),
		corev1.ResourceMemory: *resource.NewQuantity(it.MemoryBytes, resource.BinarySI),
		corev1.ResourcePods:   *resource.NewQuantity(it.Pods, resource.DecimalSI),
	}
	if it.GPU > 0 {
		capacity[corev1.ResourceName(resources.GPU)] = *resource.NewQuantity(it.GPU, resource.DecimalSI)
	}
	return &cloudprovider.InstanceType{
		Name:         it.Name,
		Requirements: typeRequirements(it, extraKeys),
		Offerings:    offerings(it.Offerings),
		Capacity:     capacity,
		Overhead: &cloudprovider.InstanceTypeOverhead{KubeReserved: corev1.ResourceList{
			corev1.ResourceCPU:    *resource.NewMilliQuantity(it.OverheadCPUMilli, resource.DecimalSI),
			corev1.ResourceMemory: *resource.NewQuantity(it.OverheadMemoryBytes, resource.BinarySI),
		}},
	}
}

func typeRequirements(it workload.InstanceType, extraKeys []string) scheduling.Requirements {
	var zones, capacityTypes []string
	for _, o := range it.Offerings {
		if o.Available {
			zones = append(zones, o.Zone)
			capacityTypes = append(capacityTypes, o.CapacityType)
		}
	}
	reqs := scheduling.NewRequirements(
		scheduling.NewRequirement(corev1.LabelInstanceTypeStable, corev1.NodeSelectorOpIn, it.Name),
		scheduling.NewRequirement(corev1.LabelArchStable, corev1.NodeSelectorOpIn, it.Arch),
		scheduling.NewRequirement(corev1.LabelOSStable, corev1.NodeSelectorOpIn, it.OS...),
		scheduling.NewRequirement(corev1.LabelTopologyZone, corev1.NodeSelectorOpIn, zones...),
		scheduling.NewRequirement(v1.CapacityTypeLabelKey, corev1.NodeSelectorOpIn, capacityTypes...),
	)
	for _, k := range extraKeys {
		if v, ok := it.Labels[k]; ok {
			reqs.Add(scheduling.NewRequirement(k, corev1.NodeSelectorOpIn, v))
		} else {
			reqs.Add(scheduling.NewRequirement(k, corev1.NodeSelectorOpDoesNotExist))
		}
	}
	return reqs
}

func offerings(ofs []workload.Offering) cloudprovider.Offerings {
	out := make(cloudprovider.Offerings, 0, len(ofs))
	for _, o := range ofs {
		out = append(out, &cloudprovider.Offering{
			Requirements: scheduling.NewLabelRequirements(map[string]string{
				v1.CapacityTypeLabelKey:  o.CapacityType,
				corev1.LabelTopologyZone: o.Zone,
			}),
			Price:     o.PricePerHour,
			Available: o.Available,
		})
	}
	return out
}

// nodePool converts a NodePool through Karpenter's test constructor, which
// fills in the node class reference and the ready status conditions.
func nodePool(np workload.NodePool) *v1.NodePool {
	limits := v1.Limits{}
	if np.LimitsCPUMilli > 0 {
		limits[corev1.ResourceCPU] = *resource.NewMilliQuantity(np.LimitsCPUMilli, resource.DecimalSI)
	}
	if np.LimitsMemoryBytes > 0 {
		limits[corev1.ResourceMemory] = *resource.NewQuantity(np.LimitsMemoryBytes, resource.BinarySI)
	}
	out := v1.NodePool{ObjectMeta: metav1.ObjectMeta{Name: np.Name}}
	out.Spec.Limits = limits
	out.Spec.Weight = weight(np.Weight)
	out.Spec.Template.Spec.Requirements = poolRequirements(np.Requirements)
	out.Spec.Template.Spec.Taints = taints(np.Taints)
	return test.NodePool(out)
}

func weight(w int32) *int32 {
	if w == 0 {
		return nil
	}
	return &w
}

func poolRequirements(reqs []workload.Requirement) []v1.NodeSelectorRequirementWithMinValues {
	out := make([]v1.NodeSelectorRequirementWithMinValues, 0, len(reqs))
	for _, r := range reqs {
		req := v1.NodeSelectorRequirementWithMinValues{
			Key: r.Key, Operator: corev1.NodeSelectorOperator(r.Operator), Values: slices.Clone(r.Values),
		}
		if r.MinValues > 0 {
			req.MinValues = &r.MinValues
		}
		out = append(out, req)
	}
	return out
}

func taints(ts []workload.Taint) []corev1.Taint {
	var out []corev1.Taint
	for _, t := range ts {
		out = append(out, corev1.Taint{Key: t.Key, Value: t.Value, Effect: corev1.TaintEffect(t.Effect)})
	}
	return out
}

// pods converts the pending pods. Every pod gets one container holding its
// requests, the fixed creation time and a UID derived from its name.
func pods(ps []workload.Pod) []*corev1.Pod {
	out := make([]*corev1.Pod, 0, len(ps))
	for _, p := range ps {
		out = append(out, pod(p))
	}
	return out
}

func pod(p workload.Pod) *corev1.Pod {
	return &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{
			Namespace: p.Namespace, Name: p.Name, Labels: maps.Clone(p.Labels),
			UID: types.UID(p.UID()), CreationTimestamp: creationTime,
		},
		Spec: corev1.PodSpec{
			NodeSelector:              maps.Clone(p.NodeSelector),
			Affinity:                  affinity(p),
			TopologySpreadConstraints: spreads(p.TopologySpread),
			Containers: []corev1.Container{{
				Name:      "main",
				Image:     test.DefaultImage,
				Resources: corev1.ResourceRequirements{Requests: podRequests(p)},
			}},
		},
	}
}

// podRequests are the pod's cpu and memory requests, plus nvidia.com/gpu
// when it asks for GPUs.
func podRequests(p workload.Pod) corev1.ResourceList {
	out := corev1.ResourceList{
		corev1.ResourceCPU:    *resource.NewMilliQuantity(p.CPUMilli, resource.DecimalSI),
		corev1.ResourceMemory: *resource.NewQuantity(p.MemoryBytes, resource.BinarySI),
	}
	if p.GPU > 0 {
		out[corev1.ResourceName(resources.GPU)] = *resource.NewQuantity(p.GPU, resource.DecimalSI)
	}
	return out
}

func spreads(ss []workload.Spread) []corev1.TopologySpreadConstraint {
	var out []corev1.TopologySpreadConstraint
	for _, s := range ss {
		when := corev1.ScheduleAnyway
		if s.DoNotSchedule {
			when = corev1.DoNotSchedule
		}
		out = append(out, corev1.TopologySpreadConstraint{
			MaxSkew: s.MaxSkew, TopologyKey: s.Key, WhenUnsatisfiable: when,
			LabelSelector: &metav1.LabelSelector{MatchLabels: maps.Clone(s.Selector)},
		})
	}
	return out
}

func affinity(p workload.Pod) *corev1.Affinity {
	a := &corev1.Affinity{NodeAffinity: nodeAffinity(p.PreferredNodeAffinity)}
	if req, pref := affinityTerms(p.PodAffinity); req != nil || pref != nil {
		a.PodAffinity = &corev1.PodAffinity{
			RequiredDuringSchedulingIgnoredDuringExecution:  req,
			PreferredDuringSchedulingIgnoredDuringExecution: pref,
		}
	}
	if req, pref := affinityTerms(p.PodAntiAffinity); req != nil || pref != nil {
		a.PodAntiAffinity = &corev1.PodAntiAffinity{
			RequiredDuringSchedulingIgnoredDuringExecution:  req,
			PreferredDuringSchedulingIgnoredDuringExecution: pref,
		}
	}
	if a.NodeAffinity == nil && a.PodAffinity == nil && a.PodAntiAffinity == nil {
		return nil
	}
	return a
}

func affinityTerms(ts []workload.AffinityTerm) ([]corev1.PodAffinityTerm, []corev1.WeightedPodAffinityTerm) {
	var req []corev1.PodAffinityTerm
	var pref []corev1.WeightedPodAffinityTerm
	for _, t := range ts {
		term := corev1.PodAffinityTerm{
			TopologyKey:   t.TopologyKey,
			LabelSelector: &metav1.LabelSelector{MatchLabels: maps.Clone(t.Selector)},
		}
		if t.Weight == 0 {
			req = append(req, term)
		} else {
			pref = append(pref, corev1.WeightedPodAffinityTerm{Weight: t.Weight, PodAffinityTerm: term})
		}
	}
	return req, pref
}

func nodeAffinity(terms []workload.PreferredTerm) *corev1.NodeAffinity {
	if len(terms) == 0 {
		return nil
	}
	na := &corev1.NodeAffinity{}
	for _, t := range terms {
		na.PreferredDuringSchedulingIgnoredDuringExecution = append(na.PreferredDuringSchedulingIgnoredDuringExecution,
			corev1.PreferredSchedulingTerm{Weight: t.Weight, Preference: corev1.NodeSelectorTerm{
				MatchExpressions: selectorRequirements(t.Requirements),
			}})
	}
	return na
}

func selectorRequirements(reqs []workload.Requirement) []corev1.NodeSelectorRequirement {
	out := make([]corev1.NodeSelectorRequirement, 0, len(reqs))
	for _, r := range reqs {
		out = append(out, corev1.NodeSelectorRequirement{
			Key: r.Key, Operator: corev1.NodeSelectorOperator(r.Operator), Values: slices.Clone(r.Values),
		})
	}
	return out
}
