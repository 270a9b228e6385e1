package packing

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/nodeplan/nodeplan/requirements"
)

// Volume is a PersistentVolumeClaim a pod mounts, as Karpenter's volume
// usage counts it (scheduling/volumeusage.go). Claim is "namespace/name";
// one claim mounted by several pods of a node counts once. Driver is the
// CSI driver that attaches it; "" (no CSI driver, NFS say) is not counted
// against any limit. Invalid, when not empty, says why Karpenter would not
// provision for the pod because of this claim (ValidatePersistentVolumeClaims:
// the claim is missing or being deleted, its volume is missing, its
// StorageClass…): Solve places such a pending pod nowhere and reports it
// unschedulable with kind [InvalidVolume] and this text. Karpenter validates
// the claims of pending pods only (GetPendingPods), not of the pods a
// consolidation simulation moves, so the Invalid of a bound pod or of a
// [Pod].Displaced one is not read. The zero Volume is an unnamed claim of
// no driver.
type Volume struct {
	Driver, Claim string
	Invalid       string
}

// Volumes are the PersistentVolumeClaims a pod mounts and the node
// requirements they bring. A [Pod] holds them by pointer, nil for a pod
// that mounts no PersistentVolumeClaim, which keeps the Pod small to copy
// (consolidation copies pods for every what-if); nodeplan reads them
// through the pointer and never modifies them, so pods may share one. The
// zero Volumes, like nil, is no claim and no requirement.
type Volumes struct {
	// Claims are the PersistentVolumeClaims the pod mounts, for CSI
	// attach limits ([Node.VolumeLimits]) and Karpenter's claim
	// validation ([Volume.Invalid]); nil for none.
	Claims []Volume
	// Requirements are the node requirements of the pod's volumes,
	// alternatives (ORed), as Karpenter's volume topology gives them: the
	// pod's node must meet [Pod.NodeAffinity] and one of them. Unlike
	// NodeAffinity, they do not narrow the domains a topology spread
	// counts under nodeAffinityPolicy Honor, as Karpenter adds them to the
	// NodeClaim's requirements only. nil: none.
	Requirements []requirements.Set
}

// claims returns v's claims; nil for a nil v.
func (v *Volumes) claims() []Volume {
	if v == nil {
		return nil
	}
	return v.Claims
}

// reqs returns v's requirements; nil for a nil v.
func (v *Volumes) reqs() []requirements.Set {
	if v == nil {
		return nil
	}
	return v.Requirements
}

// attachUse is an existing node's attach limits and the claims its pods
// hold per driver, for the drivers it limits. over is set when the claims
// already exceed a limit: then, as Karpenter's ExceedsLimits checks the
// union of every driver, no pending pod joins the node. A nil *attachUse is
// a node without limits.
type attachUse struct {
	limits map[string]int32
	claims map[string]map[string]struct{} // by driver, only the drivers limited
	over   bool
}

// newAttachUse returns n's attach use from its bound pods, or nil when n
// has no limits. Every bound pod counts, terminating ones too, as
// Karpenter's cluster state counts every non-terminal pod of the node.
func newAttachUse(n *Node) *attachUse {
	if n.VolumeLimits == nil {
		return nil
	}
	u := &attachUse{limits: n.VolumeLimits, claims: map[string]map[string]struct{}{}}
	for j := range n.Pods {
		u.add(n.Pods[j].Volumes.claims())
	}
	return u
}

// clone returns a copy of u that shares no set with it; nil for a nil u.
// The limits, never changed, are shared.
func (u *attachUse) clone() *attachUse {
	if u == nil {
		return nil
	}
	c := &attachUse{limits: u.limits, claims: make(map[string]map[string]struct{}, len(u.claims)), over: u.over}
	for driver, set := range u.claims {
		c.claims[driver] = maps.Clone(set)
	}
	return c
}

// add counts vols, those of a pod that joins the node.
func (u *attachUse) add(vols []Volume) {
	for _, vol := range vols {
		limit, ok := u.limits[vol.Driver]
		if vol.Driver == "" || !ok {
			continue
		}
		set := u.claims[vol.Driver]
		if set == nil {
			set = map[string]struct{}{}
			u.claims[vol.Driver] = set
		}
		set[vol.Claim] = struct{}{}
		if len(set) > int(limit) {
			u.over = true
		}
	}
}

// admits reports whether a pod with vols may join the node: the claims
// already there and the pod's, per driver, stay within every limit. It is
// O(len(vols)²) and allocates nothing; a pod without volumes costs one
// check.
func (u *attachUse) admits(vols []Volume) bool {
	if u == nil {
		return true
	}
	if u.over {
		return false
	}
	_, _, ok := u.exceeded(vols)
	return !ok
}

// exceeded returns the first driver of vols whose limit the pod would
// break, with the count it would reach, and true; false when none.
func (u *attachUse) exceeded(vols []Volume) (driver string, count int, ok bool) {
	for i, vol := range vols {
		limit, limited := u.limits[vol.Driver]
		if vol.Driver == "" || !limited || firstOfDriver(vols, i) != i {
			continue
		}
		n := len(u.claims[vol.Driver]) + u.newClaims(vols, i)
		if n > int(limit) {
			return vol.Driver, n, true
		}
	}
	return "", 0, false
}

// firstOfDriver is the index of the first volume of vols[i]'s driver.
func firstOfDriver(vols []Volume, i int) int {
	for j := range i {
		if vols[j].Driver == vols[i].Driver {
			return j
		}
	}
	return i
}

// newClaims counts the distinct claims of vols[i]'s driver, from i on,
// that the node does not hold yet.
func (u *attachUse) newClaims(vols []Volume, i int) int {
	d, held, n := vols[i].Driver, u.claims[vols[i].Driver], 0
	for k := i; k < len(vols); k++ {
		if vols[k].Driver != d || seenClaim(vols[i:k], vols[k]) {
			continue
		}
		if _, ok := held[vols[k].Claim]; !ok {
			n++
		}
	}
	return n
}

// seenClaim reports whether vols hold vol's driver and claim.
func seenClaim(vols []Volume, vol Volume) bool {
	for _, o := range vols {
		if o.Driver == vol.Driver && o.Claim == vol.Claim {
			return true
		}
	}
	return false
}

// why says, for a pod with vols, which limit keeps it off node.
func (u *attachUse) why(node string, vols []Volume) string {
	if d, n, ok := u.exceeded(vols); ok {
		return fmt.Sprintf("node %s would attach %d volumes of CSI driver %s, over its limit of %d", node, n, d, u.limits[d])
	}
	for _, d := range sortedDrivers(u.limits) {
		if n := len(u.claims[d]); n > int(u.limits[d]) {
			return fmt.Sprintf("node %s already attaches %d volumes of CSI driver %s, over its limit of %d", node, n, d, u.limits[d])
		}
	}
	return ""
}

func sortedDrivers(m map[string]int32) []string {
	out := make([]string, 0, len(m))
	for d := range m {
		out = append(out, d)
	}
	slices.Sort(out)
	return out
}

// invalidVolume returns the reasons Karpenter would not provision for p
// because of its volumes, joined, or "" when there are none. A Displaced
// pod has none: Karpenter validates the claims of pending pods only
// (K/controllers/disruption/helpers.go:72-98).
func invalidVolume(p *Pod) string {
	if p.Displaced {
		return ""
	}
	var why []string
	for _, vol := range p.Volumes.claims() {
		if vol.Invalid != "" {
			why = append(why, vol.Invalid)
		}
	}
	return strings.Join(why, "; ")
}

// volumeReason is the Reason of a pod whose volumes Karpenter rejects.
func volumeReason(p *Pod, why string) Reason {
	return Reason{Kind: InvalidVolume, Message: fmt.Sprintf(
		"pod %s: Karpenter provisions no node for it: %s", p.Key(), why)}
}

// attachReason turns best, why the pod of v fits no NodePool, into an
// [AttachLimit] reason when some existing node would take the pod but for
// its attach limits; else it returns best.
func (r *run) attachReason(v view, best Reason) Reason {
	vols := v.info.pod.Volumes.claims()
	if len(vols) == 0 {
		return best
	}
	for _, nd := range r.nodes {
		if nd.attach.admits(vols) || !r.fitsNodeExceptAttach(v, nd) {
			continue
		}
		best.Kind = AttachLimit
		best.Message = fmt.Sprintf("pod %s: %s (as Karpenter counts CSINode allocatable); no new node either: %s",
			v.info.pod.Key(), nd.attach.why(nd.n.Name, vols), best.Message)
		return best
	}
	return best
}

// fitsNodeExceptAttach is [run.fitsNode] without nd's attach limits: it
// asks fitsNode about a copy of nd without them. The copy shares nd's
// slices and maps, which fitsNode only reads. attachReason runs once per
// unschedulable pod, off the hot path.
func (r *run) fitsNodeExceptAttach(v view, nd *nodeT) bool {
	free := *nd
	free.attach = nil
	return r.fitsNode(v, &free)
}

// checkVolumes checks a pod's volumes: a counted volume (of a driver)
// names its claim.
func checkVolumes(is issues, vols []Volume) issues {
	for j, vol := range vols {
		if vol.Driver != "" && vol.Claim == "" {
			is.add(at("volumes.claims", j, "claim"), "is empty for driver %q", vol.Driver)
		}
	}
	return is
}

// checkVolumeLimits checks a node's attach limits: named drivers,
// non-negative counts.
func checkVolumeLimits(is issues, limits map[string]int32) issues {
	for _, d := range sortedDrivers(limits) {
		switch {
		case d == "":
			is.add("volumeLimits", "names an empty driver")
		case limits[d] < 0:
			is.add(fmt.Sprintf("volumeLimits[%q]", d), "%d is negative", limits[d])
		}
	}
	return is
}

// volumeAlternatives returns the alternatives a pod's node must meet, its
// own alternatives each ANDed with each of its volumes' (vols), pairs
// that contradict each other left out; and, per alternative, its own
// part, which topology spread's nodeAffinityPolicy Honor reads. Without
// volume requirements it returns own itself and nil, allocating nothing.
func volumeAlternatives(own, vols []requirements.Set) (alts, parts []requirements.Set) {
	if len(vols) == 0 {
		return own, nil
	}
	for _, a := range own {
		for _, x := range vols {
			if m := a.Intersect(x); !requirements.Contradicts(m, a, x) {
				alts, parts = append(alts, m), append(parts, a)
			}
		}
	}
	return alts, parts
}

// ownAlt is the pod's own part of alternative i (see podInfo.own).
func (info *podInfo) ownAlt(i int) requirements.Set {
	if info.own == nil {
		return info.alts[i]
	}
	return info.own[i]
}

// noAlternative is the reason of a pod that no node can match: its
// required node affinity contradicts itself, or its volumes' requirements
// contradict it.
func noAlternative(p *Pod) Reason {
	if len(p.Volumes.reqs()) > 0 && len(p.NodeAffinity.Alternatives()) > 0 {
		return Reason{Kind: Incompatible, Message: fmt.Sprintf(
			"pod %s: the zones (or other node labels) its volumes allow contradict its nodeSelector and required node affinity, so no node can match",
			p.Key())}
	}
	return Reason{Kind: Incompatible, Message: fmt.Sprintf(
		"pod %s: every required node-affinity term contradicts itself or the nodeSelector, so no node can match", p.Key())}
}
