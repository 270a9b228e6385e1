package kube

import (
	"slices"

	corev1 "k8s.io/api/core/v1"
	storagev1 "k8s.io/api/storage/v1"
)

// volumes are the PersistentVolumeClaims, PersistentVolumes and
// StorageClasses Load read, for the node requirements of the pods' volumes
// ([volumes.terms]). The zero volumes holds none.
type volumes struct {
	claims  map[ref]claimRef                     // by namespace and name
	pvs     map[string][]corev1.NodeSelectorTerm // spec.nodeAffinity.required of each PersistentVolume (nil: none)
	classes map[string][]corev1.NodeSelectorTerm // allowedTopologies of each StorageClass, as In terms
	unknown skipLog                              // pods whose volume topology is unknown
}

// claimRef is what a PersistentVolumeClaim says about where its volume is:
// the PersistentVolume bound to it, else its StorageClass.
type claimRef struct {
	volume, class string
}

func (b *builder) addPVC(pvc *corev1.PersistentVolumeClaim, _ *object) error {
	c := claimRef{volume: pvc.Spec.VolumeName, class: ptrValue(pvc.Spec.StorageClassName)}
	if b.volumes.claims == nil {
		b.volumes.claims = map[ref]claimRef{}
	}
	b.volumes.claims[ref{"PersistentVolumeClaim", namespace(pvc.Namespace), pvc.Name}] = c
	return nil
}

// persistentVolume reads a PersistentVolume's required node affinity,
// checked as a pod's is. A local or hostPath volume's hostname
// requirements are dropped, as Karpenter drops them (a new node cannot
// be the old host); a term left empty makes the volume unconstrained.
func (b *builder) addPV(pv *corev1.PersistentVolume, _ *object) error {
	var ts []corev1.NodeSelectorTerm
	if a := pv.Spec.NodeAffinity; a != nil && a.Required != nil {
		if _, err := terms(a.Required.NodeSelectorTerms); err != nil {
			return wrap("PersistentVolume", "", pv.Name, atField("spec.nodeAffinity.required", err))
		}
		ts = a.Required.NodeSelectorTerms
		if pv.Spec.Local != nil || pv.Spec.HostPath != nil {
			ts = withoutHostname(ts)
		}
	}
	if b.volumes.pvs == nil {
		b.volumes.pvs = map[string][]corev1.NodeSelectorTerm{}
	}
	b.volumes.pvs[pv.Name] = ts
	return nil
}

// withoutHostname returns ts without their hostname requirements, or nil
// when that leaves a term empty (it admits every node).
func withoutHostname(ts []corev1.NodeSelectorTerm) []corev1.NodeSelectorTerm {
	out := make([]corev1.NodeSelectorTerm, 0, len(ts))
	for _, t := range ts {
		exprs := slices.DeleteFunc(slices.Clone(t.MatchExpressions), func(e corev1.NodeSelectorRequirement) bool {
			return e.Key == corev1.LabelHostname
		})
		if len(exprs) == 0 && len(t.MatchFields) == 0 {
			return nil
		}
		out = append(out, corev1.NodeSelectorTerm{MatchExpressions: exprs, MatchFields: t.MatchFields})
	}
	return out
}

// storageClass reads a StorageClass's allowedTopologies, each term's
// label expressions as In requirements, checked as a pod's node affinity.
func (b *builder) addStorageClass(sc *storagev1.StorageClass, _ *object) error {
	var ts []corev1.NodeSelectorTerm
	for _, t := range sc.AllowedTopologies {
		var exprs []corev1.NodeSelectorRequirement
		for _, e := range t.MatchLabelExpressions {
			exprs = append(exprs, corev1.NodeSelectorRequirement{Key: e.Key, Operator: corev1.NodeSelectorOpIn, Values: e.Values})
		}
		if len(exprs) > 0 {
			ts = append(ts, corev1.NodeSelectorTerm{MatchExpressions: exprs})
		}
	}
	if _, err := terms(ts); err != nil {
		return wrap("StorageClass", "", sc.Name, atField("allowedTopologies", err))
	}
	if b.volumes.classes == nil {
		b.volumes.classes = map[string][]corev1.NodeSelectorTerm{}
	}
	b.volumes.classes[sc.Name] = ts
	return nil
}

// constrain adds to spec's required node affinity the node requirements
// of its volumes, as Karpenter's volume topology does: a claim bound to a
// PersistentVolume takes the volume's required node affinity, an unbound
// one its StorageClass's allowedTopologies; each volume's terms are
// alternatives, ANDed into every term the pod has. A claim, volume or
// class that is not in the input leaves the volume unconstrained and
// is recorded for one warning (missing names it, example names the pod).
// pod names the pod for a generic ephemeral volume's claim
// (<pod>-<volume>); "" for a workload's template, whose pods do not exist
// yet, so that an ephemeral volume's claim will be of its template's
// StorageClass. kind is what the warning counts (Pod, workload). spec is
// Load's own copy.
func (v *volumes) constrain(spec *corev1.PodSpec, kind, ns, pod string, example func(missing string) string) {
	for i := range spec.Volumes {
		ts, missing := v.volumeTerms(&spec.Volumes[i], ns, pod)
		if missing != "" {
			v.unknown.add(kind, whyVolumeUnknown, example(missing))
			continue
		}
		if len(ts) > 0 {
			and(spec, ts)
		}
	}
}

// whyVolumeUnknown is the warning about pods whose volume topology is
// unknown.
const whyVolumeUnknown = "a PersistentVolumeClaim, PersistentVolume or StorageClass their volumes need is not in the input, " +
	"so they are planned without the zones those volumes allow"

// volumeTerms returns the node selector terms a volume requires (nil for
// none), or what the manifests lack to know them.
func (v *volumes) volumeTerms(vol *corev1.Volume, ns, pod string) (ts []corev1.NodeSelectorTerm, missing string) {
	var name string
	switch {
	case vol.PersistentVolumeClaim != nil:
		name = vol.PersistentVolumeClaim.ClaimName
	case vol.Ephemeral != nil && pod != "":
		name = pod + "-" + vol.Name
	case vol.Ephemeral != nil && vol.Ephemeral.VolumeClaimTemplate != nil:
		return v.classTerms(claimRef{class: ptrValue(vol.Ephemeral.VolumeClaimTemplate.Spec.StorageClassName)})
	default:
		return nil, ""
	}
	c, ok := v.claims[ref{"PersistentVolumeClaim", ns, name}]
	if !ok {
		return nil, "PersistentVolumeClaim " + name
	}
	return v.classTerms(c)
}

// classTerms returns the terms of a claim's PersistentVolume, else of its
// StorageClass (none when it names neither), or what the manifests lack.
func (v *volumes) classTerms(c claimRef) (ts []corev1.NodeSelectorTerm, missing string) {
	if c.volume != "" {
		if ts, ok := v.pvs[c.volume]; ok {
			return ts, ""
		}
		return nil, "PersistentVolume " + c.volume
	}
	if c.class != "" {
		if ts, ok := v.classes[c.class]; ok {
			return ts, ""
		}
		return nil, "StorageClass " + c.class
	}
	return nil, ""
}

// and makes spec's required node affinity the terms t ∧ x for t its terms
// and x the alternatives ts; when it has no terms, ts. An empty term of
// spec's, which matches no node, stays as it is.
func and(spec *corev1.PodSpec, ts []corev1.NodeSelectorTerm) {
	var a corev1.Affinity // copies: spec's pointers may be the caller's
	if spec.Affinity != nil {
		a = *spec.Affinity
	}
	na := new(corev1.NodeAffinity)
	if a.NodeAffinity != nil {
		*na = *a.NodeAffinity
	}
	a.NodeAffinity, spec.Affinity = na, &a
	var own []corev1.NodeSelectorTerm
	if r := na.RequiredDuringSchedulingIgnoredDuringExecution; r != nil {
		own = r.NodeSelectorTerms
	}
	if len(own) == 0 {
		na.RequiredDuringSchedulingIgnoredDuringExecution = &corev1.NodeSelector{NodeSelectorTerms: slices.Clone(ts)}
		return
	}
	out := make([]corev1.NodeSelectorTerm, 0, len(own)*len(ts))
	for _, t := range own {
		if len(t.MatchExpressions) == 0 && len(t.MatchFields) == 0 {
			out = append(out, t)
			continue
		}
		for _, x := range ts {
			out = append(out, corev1.NodeSelectorTerm{
				MatchExpressions: slices.Concat(t.MatchExpressions, x.MatchExpressions),
				MatchFields:      slices.Concat(t.MatchFields, x.MatchFields)})
		}
	}
	na.RequiredDuringSchedulingIgnoredDuringExecution = &corev1.NodeSelector{NodeSelectorTerms: out}
}

// ptrValue returns *p, or "" for nil.
func ptrValue(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}
