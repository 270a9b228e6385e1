package kube

import (
	"errors"
	"slices"

	"github.com/nodeplan/nodeplan/requirements"
	corev1 "k8s.io/api/core/v1"
	storagev1 "k8s.io/api/storage/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// volumes are the PersistentVolumeClaims, PersistentVolumes,
// StorageClasses and CSINodes Load read, for the node requirements, CSI
// drivers and validity of the pods' volumes ([volumes.resolve]) and the
// nodes' attach limits. The zero volumes holds none.
type volumes struct {
	claims  map[ref]claimInfo
	pvs     map[string]pvInfo
	classes map[string]classInfo
	// defaultClass is the StorageClass a claim without storageClassName
	// takes, as the DefaultStorageClass admission plugin gives it: the
	// newest marked default (then the first by name); "" for none.
	defaultClass string
	defaultAt    metav1.Time
	limits       map[string]map[string]int32 // CSINode attach limits by node name
	csiNodes     []string                    // CSINode names, in input order
	unknown      skipLog                     // pods whose volume topology is unknown
}

// claimInfo is what a PersistentVolumeClaim says about its volume.
type claimInfo struct {
	volume        string  // spec.volumeName
	class         *string // spec.storageClassName; nil: unset
	deleting      bool    // metadata.deletionTimestamp is set
	lost          bool    // status.phase Lost
	bindCompleted bool    // the pv.kubernetes.io/bind-completed annotation
}

// pvInfo is what a PersistentVolume says: its required node affinity
// (nil: none), its CSI driver ("" for none) and whether it is deleted.
type pvInfo struct {
	alts     []requirements.Set
	driver   string
	deleting bool
}

// classInfo is what a StorageClass says: its allowedTopologies as In
// terms, its provisioner as a CSI driver name, and whether it binds
// Immediate.
type classInfo struct {
	alts      []requirements.Set
	driver    string
	immediate bool
}

// annBindCompleted marks a claim the PersistentVolume controller bound;
// Karpenter (and kube-scheduler) count a claim with a volumeName but
// without it as unbound.
const annBindCompleted = "pv.kubernetes.io/bind-completed"

// annDefaultClass marks the default StorageClass.
const annDefaultClass = "storageclass.kubernetes.io/is-default-class"

func (b *builder) addPVC(pvc *corev1.PersistentVolumeClaim, _ *object) error {
	_, bound := pvc.Annotations[annBindCompleted]
	c := claimInfo{volume: pvc.Spec.VolumeName, class: pvc.Spec.StorageClassName, deleting: pvc.DeletionTimestamp != nil,
		lost: pvc.Status.Phase == corev1.ClaimLost, bindCompleted: bound}
	if b.volumes.claims == nil {
		b.volumes.claims = map[ref]claimInfo{}
	}
	b.volumes.claims[ref{"PersistentVolumeClaim", namespace(pvc.Namespace), pvc.Name}] = c
	return nil
}

// persistentVolume reads a PersistentVolume's required node affinity,
// checked as a pod's is. A local or hostPath volume's hostname
// requirements are dropped, as Karpenter drops them (a new node cannot
// be the old host; [localAlternatives]).
func (b *builder) addPV(pv *corev1.PersistentVolume, _ *object) error {
	var alts []requirements.Set
	if a := pv.Spec.NodeAffinity; a != nil && a.Required != nil {
		ts := a.Required.NodeSelectorTerms
		if _, err := terms(ts); err != nil {
			return wrap("PersistentVolume", "", pv.Name, atField("spec.nodeAffinity.required", err))
		}
		var err error
		if pv.Spec.Local != nil || pv.Spec.HostPath != nil {
			alts, err = localAlternatives(ts)
		} else {
			alts, err = alternatives(ts)
		}
		if err != nil {
			return wrap("PersistentVolume", "", pv.Name, atField("spec.nodeAffinity.required", err))
		}
	}
	if b.volumes.pvs == nil {
		b.volumes.pvs = map[string]pvInfo{}
	}
	b.volumes.pvs[pv.Name] = pvInfo{alts: alts, driver: volumeDriver(&pv.Spec), deleting: pv.DeletionTimestamp != nil}
	return nil
}

// localAlternatives reads a local or hostPath volume's terms as
// alternatives, in order, one per term, without their hostname
// requirements, as Karpenter's volume topology does
// (volumetopology.go:204-215): a term whose expressions were all on the
// hostname becomes the zero requirements.Set, which admits every node, in
// its own place among the others, which keep their requirements (the
// pod's node is tried against them in this order). A term without
// expressions, or one that contradicts itself, is left out; when every
// term is, it is an error, as for [alternatives].
func localAlternatives(ts []corev1.NodeSelectorTerm) ([]requirements.Set, error) {
	var out []requirements.Set
	for _, t := range ts {
		exprs := slices.DeleteFunc(slices.Clone(t.MatchExpressions), func(e corev1.NodeSelectorRequirement) bool {
			return e.Key == corev1.LabelHostname
		})
		if len(t.MatchExpressions) > 0 && len(exprs) == 0 && len(t.MatchFields) == 0 {
			out = append(out, requirements.Set{})
			continue
		}
		alts, err := alternatives([]corev1.NodeSelectorTerm{{MatchExpressions: exprs, MatchFields: t.MatchFields}})
		if err != nil {
			continue // checked for syntax by the caller: this term contradicts itself
		}
		out = append(out, alts...)
	}
	if len(ts) > 0 && len(out) == 0 {
		return nil, errors.New("every term contradicts itself, so no node can use the volume")
	}
	return out, nil
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
	alts, err := alternatives(ts)
	if err != nil {
		return wrap("StorageClass", "", sc.Name, atField("allowedTopologies", err))
	}
	if b.volumes.classes == nil {
		b.volumes.classes = map[string]classInfo{}
	}
	b.volumes.classes[sc.Name] = classInfo{alts: alts, driver: csiDriverName(sc.Provisioner),
		immediate: sc.VolumeBindingMode != nil && *sc.VolumeBindingMode == storagev1.VolumeBindingImmediate}
	b.volumes.noteDefault(sc)
	return nil
}

// alternatives reads node selector terms as requirement sets, one per
// term, checked as a pod's node affinity; nil for no terms. A term that
// contradicts itself is left out; when every term does, which admits no
// node, it is an error.
func alternatives(ts []corev1.NodeSelectorTerm) ([]requirements.Set, error) {
	if len(ts) == 0 {
		return nil, nil
	}
	exprs, err := terms(ts)
	if err != nil {
		return nil, err
	}
	na, err := requirements.NewNodeAffinity(nil, exprs, nil)
	if err != nil {
		return nil, err
	}
	if alts := na.Alternatives(); len(alts) > 0 {
		return alts, nil
	}
	return nil, errors.New("every term contradicts itself, so no node can use the volume")
}

// ptrValue returns *p, or "" for nil.
func ptrValue(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}
