package kube

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/nodeplan/nodeplan/packing"
	"github.com/nodeplan/nodeplan/requirements"
	corev1 "k8s.io/api/core/v1"
	storagev1 "k8s.io/api/storage/v1"
)

// inTreeDrivers maps in-tree volume plugin names to the CSI drivers that
// replaced them, as k8s.io/csi-translation-lib's plugins name them
// (GetCSINameFromInTreeName, which Karpenter's driverFromSC calls).
var inTreeDrivers = map[string]string{
	"kubernetes.io/aws-ebs":         "ebs.csi.aws.com",
	"kubernetes.io/gce-pd":          "pd.csi.storage.gke.io",
	"kubernetes.io/cinder":          "cinder.csi.openstack.org",
	"kubernetes.io/azure-disk":      "disk.csi.azure.com",
	"kubernetes.io/azure-file":      "file.csi.azure.com",
	"kubernetes.io/vsphere-volume":  "csi.vsphere.vmware.com",
	"kubernetes.io/portworx-volume": "pxd.portworx.com",
}

// csiDriverName is a StorageClass provisioner as a CSI driver name: an
// in-tree plugin's translated, any other as it is.
func csiDriverName(provisioner string) string {
	if d, ok := inTreeDrivers[provisioner]; ok {
		return d
	}
	return provisioner
}

// volumeDriver is the CSI driver of a PersistentVolume, as Karpenter's
// driverFromVolume reads it: spec.csi.driver, ebs.csi.aws.com for an
// in-tree awsElasticBlockStore volume, else "" (NFS, local, hostPath…: not
// counted against attach limits).
func volumeDriver(spec *corev1.PersistentVolumeSpec) string {
	switch {
	case spec.CSI != nil:
		return spec.CSI.Driver
	case spec.AWSElasticBlockStore != nil:
		return inTreeDrivers["kubernetes.io/aws-ebs"]
	}
	return ""
}

// noteDefault records sc when it is the default StorageClass newest so
// far (the first by name among equals).
func (v *volumes) noteDefault(sc *storagev1.StorageClass) {
	if sc.Annotations[annDefaultClass] != "true" {
		return
	}
	newer := sc.CreationTimestamp.After(v.defaultAt.Time)
	same := sc.CreationTimestamp.Equal(&v.defaultAt) && sc.Name < v.defaultClass
	if v.defaultClass == "" || newer || same {
		v.defaultClass, v.defaultAt = sc.Name, sc.CreationTimestamp
	}
}

// addCSINode reads a CSINode's attach limits, as Karpenter's cluster
// state does (populateVolumeLimits): per driver, allocatable.count; a
// driver without allocatable has no limit, one whose count is unset has 0.
func (b *builder) addCSINode(n *storagev1.CSINode, _ *object) error {
	limits := map[string]int32{}
	for i, d := range n.Spec.Drivers {
		field := fmt.Sprintf("spec.drivers[%d]", i)
		if d.Name == "" {
			return wrap("CSINode", "", n.Name, atField(field+".name", fmt.Errorf("is empty")))
		}
		if slices.ContainsFunc(n.Spec.Drivers[:i], func(o storagev1.CSINodeDriver) bool { return o.Name == d.Name }) {
			return wrap("CSINode", "", n.Name, atField(field+".name", fmt.Errorf("%q is named twice", d.Name)))
		}
		if d.Allocatable == nil {
			continue
		}
		count := ptrOr(d.Allocatable.Count, 0)
		if count < 0 {
			return wrap("CSINode", "", n.Name, atField(field+".allocatable.count", fmt.Errorf("%d is negative", count)))
		}
		limits[d.Name] = count
	}
	if b.volumes.limits == nil {
		b.volumes.limits = map[string]map[string]int32{}
	}
	b.volumes.limits[n.Name] = limits
	b.volumes.csiNodes = append(b.volumes.csiNodes, n.Name)
	return nil
}

func ptrOr[T any](p *T, def T) T {
	if p == nil {
		return def
	}
	return *p
}

// limitNodes gives each node its CSINode's attach limits and warns about
// CSINodes of nodes not in the input.
func (b *builder) limitNodes() {
	names := make(map[string]bool, len(b.nodes))
	for i := range b.nodes {
		n := &b.nodes[i]
		names[n.Name] = true
		if l, ok := b.volumes.limits[n.Name]; ok {
			n.VolumeLimits = l
		}
	}
	for _, name := range b.volumes.csiNodes {
		if !names[name] {
			b.skips.add("CSINode", "its Node is not in the input", name)
		}
	}
}

// storage reports whether the input holds any PersistentVolumeClaim,
// PersistentVolume or StorageClass: then the pods' claims are checked as
// Karpenter checks them; without any, the input is taken for manifests
// without storage objects (see [volumes.resolve]).
func (v *volumes) storage() bool {
	return len(v.claims) > 0 || len(v.pvs) > 0 || len(v.classes) > 0
}

// podVolumes is what resolve found of a pod's volumes: the claims it
// mounts and, by index, the volume names of the generic ephemeral ones
// of a workload's template, whose claims are named for each pod
// ([podVolumes.forPod]).
type podVolumes struct {
	reqs      []requirements.Set // the volumes' requirements (packing.Volumes.Requirements)
	vols      []packing.Volume
	ephemeral []string
}

// ephemeralPod stands for the pod's name in the claim of a template's
// generic ephemeral volume until claimsFor names it.
const ephemeralPod = "<pod>"

// forPod returns the volumes of the pod named pod, in namespace ns, whose
// volumes (or whose template's) p holds: new ones, so that no two pods
// share them, with its claims ([podVolumes.claimsFor]) and p's
// requirements; nil when it has neither.
func (p podVolumes) forPod(ns, pod string) *packing.Volumes {
	if len(p.vols) == 0 && len(p.reqs) == 0 {
		return nil
	}
	return &packing.Volumes{Claims: p.claimsFor(ns, pod), Requirements: p.reqs}
}

// claimsFor returns the claims of the pod named pod of a template whose
// volumes p holds: its ephemeral claims named <pod>-<volume>. It returns
// p.vols itself when there are none.
func (p podVolumes) claimsFor(ns, pod string) []packing.Volume {
	if len(p.ephemeral) == 0 {
		return p.vols
	}
	out := slices.Clone(p.vols)
	for i, name := range p.ephemeral {
		if name != "" {
			out[i].Claim = objectName(ns, pod+"-"+name)
			out[i].Invalid = strings.ReplaceAll(out[i].Invalid, ephemeralPod, pod)
		}
	}
	return out
}

// resolve returns the node requirements of a pod's volumes, as
// Karpenter's volume topology computes them (a claim bound to a
// PersistentVolume takes the volume's required node affinity, an unbound
// one its StorageClass's allowedTopologies; each volume's terms are
// alternatives, crossed with the other volumes' ([volumes.cross])), its
// claims with their CSI drivers and, for a pending pod, what Karpenter's
// ValidatePersistentVolumeClaims rejects (packing.Volume.Invalid).
//
// Without any storage object in the input ([volumes.storage]), a pod's
// claims are only recorded for one warning (missing names it, example
// names the pod) and the pod is planned without them. pod names the pod
// for a generic ephemeral volume's claim (<pod>-<volume>); "" for a
// workload's template, whose pods do not exist yet, so that an ephemeral
// volume's claim will be of its template's StorageClass. kind is what the
// warning counts (Pod, workload). vols are the pod's spec.volumes, which
// resolve does not modify.
func (v *volumes) resolve(vols []corev1.Volume, kind, ns, pod string, pending bool, example func(missing string) string) podVolumes {
	var out podVolumes
	strict, conflict := v.storage(), ""
	for i := range vols {
		vol := &vols[i]
		r := v.volume(vol, ns, pod)
		if r.claim == "" {
			continue
		}
		if !strict {
			v.unknown.add(kind, whyVolumeUnknown, example(r.need))
			continue
		}
		pv := packing.Volume{Driver: r.driver, Claim: r.claim}
		if ok := out.cross(r.alts); !ok && conflict == "" {
			conflict = r.claim
		}
		if pending {
			pv.Invalid = r.invalid
		}
		out.vols = append(out.vols, pv)
		if pod == "" && vol.Ephemeral != nil {
			for len(out.ephemeral) < len(out.vols)-1 { // by index of vols, "" for the others
				out.ephemeral = append(out.ephemeral, "")
			}
			out.ephemeral = append(out.ephemeral, vol.Name)
		}
	}
	if conflict != "" && pending && len(out.vols) > 0 {
		out.vols[0].Invalid = cmp.Or(out.vols[0].Invalid, "the zones (or other node labels) its volumes allow exclude each other, "+
			"from claim "+conflict+" on, so no node can use them all")
	}
	return out
}

// cross makes p's requirements the pairs of its alternatives and alts
// whose requirements intersect, as Karpenter's
// mergeVolumeRequirementAlternatives does; alts itself when p has none,
// and p's unchanged when alts is empty. It reports false when every pair
// contradicts itself: Karpenter then keeps them all, and no node can
// take the pod; nodeplan keeps p's alternatives as they were (the
// caller makes the pod's volume invalid).
func (p *podVolumes) cross(alts []requirements.Set) bool {
	switch {
	case len(alts) == 0:
		return true
	case p.reqs == nil:
		p.reqs = alts
		return true
	}
	var out []requirements.Set
	for _, a := range p.reqs {
		for _, x := range alts {
			if m := a.Intersect(x); !requirements.Contradicts(m, a, x) {
				out = append(out, m)
			}
		}
	}
	if len(out) == 0 {
		return false
	}
	p.reqs = out
	return true
}

// whyVolumeUnknown is the warning about pods whose claims are not read,
// the input having no storage objects.
const whyVolumeUnknown = "the input has no PersistentVolumeClaims, PersistentVolumes or StorageClasses, so they are planned " +
	"without the zones and attach limits of their volumes; Karpenter provisions nothing for a pod until its claims exist " +
	"(add them: kubectl get pvc,pv,storageclasses,csinodes -A -o yaml)"

// resolved is one volume of a pod: its claim ("namespace/name"; "" for a
// volume of no claim), node terms, CSI driver, and why Karpenter rejects
// it ("" when it does not).
type resolved struct {
	claim   string
	need    string // what it needs, for the warning: "PersistentVolumeClaim data"
	alts    []requirements.Set
	driver  string
	invalid string
}

// volume resolves one volume of a pod in namespace ns named pod ("" for a
// template).
func (v *volumes) volume(vol *corev1.Volume, ns, pod string) resolved {
	switch {
	case vol.PersistentVolumeClaim != nil:
		r := v.claim(ns, vol.PersistentVolumeClaim.ClaimName)
		r.need = "PersistentVolumeClaim " + vol.PersistentVolumeClaim.ClaimName
		return r
	case vol.Ephemeral != nil && pod != "":
		r := v.claim(ns, pod+"-"+vol.Name)
		r.need = "PersistentVolumeClaim " + pod + "-" + vol.Name
		return r
	case vol.Ephemeral != nil:
		var class *string
		if t := vol.Ephemeral.VolumeClaimTemplate; t != nil {
			class = t.Spec.StorageClassName
		}
		// The claim the ephemeral controller will create: unbound, of the
		// template's class; named for each pod by podVolumes.claimsFor.
		r := v.unbound(objectName(ns, ephemeralPod+"-"+vol.Name), class)
		r.need = "the StorageClass of volume " + vol.Name
		return r
	}
	return resolved{}
}

// claim resolves the claim ns/name, checked as ValidatePersistentVolumeClaims
// checks it (controllers/provisioning/scheduling/volumetopology.go).
func (v *volumes) claim(ns, name string) resolved {
	key := objectName(ns, name)
	c, ok := v.claims[ref{"PersistentVolumeClaim", ns, name}]
	switch {
	case !ok:
		return resolved{claim: key, invalid: "PersistentVolumeClaim " + key + " is not in the input"}
	case c.deleting:
		return resolved{claim: key, invalid: "PersistentVolumeClaim " + key + " is being deleted"}
	case c.lost:
		return resolved{claim: key, invalid: fmt.Sprintf("PersistentVolumeClaim %s is Lost: its PersistentVolume %q is gone", key, c.volume)}
	case c.volume != "":
		return v.bound(key, c)
	}
	return v.unbound(key, c.class)
}

// bound resolves a claim bound to a PersistentVolume.
func (v *volumes) bound(key string, c claimInfo) resolved {
	pv, ok := v.pvs[c.volume]
	r := resolved{claim: key, alts: pv.alts, driver: pv.driver}
	switch {
	case !ok:
		r.invalid = fmt.Sprintf("PersistentVolume %s of PersistentVolumeClaim %s is not in the input", c.volume, key)
	case pv.deleting:
		r.invalid = fmt.Sprintf("PersistentVolume %s of PersistentVolumeClaim %s is being deleted", c.volume, key)
	case !c.bindCompleted:
		r.invalid = fmt.Sprintf("PersistentVolumeClaim %s names PersistentVolume %s but lacks the %s annotation, so it counts as unbound",
			key, c.volume, annBindCompleted)
	}
	return r
}

// unbound resolves a claim not bound yet, of StorageClass class (nil:
// unset, the default class).
func (v *volumes) unbound(key string, class *string) resolved {
	name := ptrOr(class, v.defaultClass)
	sc, ok := v.classes[name]
	r := resolved{claim: key, alts: sc.alts, driver: sc.driver}
	switch {
	case name == "" && class == nil:
		r.invalid = fmt.Sprintf("PersistentVolumeClaim %s is unbound and names no StorageClass, and no StorageClass in the input is the default", key)
	case name == "":
		r.invalid = fmt.Sprintf("PersistentVolumeClaim %s is unbound and its storageClassName is \"\"", key)
	case !ok:
		r.invalid = fmt.Sprintf("StorageClass %s of PersistentVolumeClaim %s is not in the input", name, key)
	case sc.immediate:
		r.invalid = fmt.Sprintf("PersistentVolumeClaim %s is unbound and its StorageClass %s binds Immediate: Karpenter waits for the volume to be bound",
			key, name)
	}
	return r
}
