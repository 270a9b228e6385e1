package verify

import (
	"slices"

	"github.com/nodeplan/nodeplan/packing"
)

// checkVolumes reports placed pending pods that mount a claim Karpenter
// rejects (it does not validate the claims of Displaced pods), and
// existing nodes whose attach limits the plan breaks.
func (v *verifier) checkVolumes() {
	for i, h := range v.placedOn {
		if h == nil || v.p.Pods[i].Displaced {
			continue
		}
		for _, vol := range claims(v.p.Pods[i].Volumes) {
			if vol.Invalid != "" {
				v.add(RuleInvalidVolume, i, h.name, "%s is placed on %s %s though Karpenter provisions nothing for it: %s",
					v.podName(i), h.kind(), h.name, vol.Invalid)
			}
		}
	}
	for _, h := range v.nodeHosts() {
		if h.node.VolumeLimits != nil && len(h.pods) > 0 {
			v.checkAttach(h)
		}
	}
}

// checkAttach replays the pending pods placed on node h, in plan order,
// as Karpenter's ExceedsLimits admits them: each may join only while the
// distinct claims of the node's pods and its own stay, for every limited
// driver, within the limit. New claims have no limits.
func (v *verifier) checkAttach(h *host) {
	held := map[string][]string{}
	for j := range h.node.Pods {
		addClaims(held, h.node.VolumeLimits, claims(h.node.Pods[j].Volumes))
	}
	for _, i := range h.pods {
		addClaims(held, h.node.VolumeLimits, claims(v.p.Pods[i].Volumes))
		for _, d := range sortedKeys(held) {
			if limit := h.node.VolumeLimits[d]; len(held[d]) > int(limit) {
				v.add(RuleAttachLimit, i, h.name, "%s joins node %s, which then attaches %d volumes of CSI driver %s, over its limit of %d",
					v.podName(i), h.name, len(held[d]), d, limit)
			}
		}
	}
}

// addClaims adds to held, by driver, the claims of vols whose driver
// limits names.
func addClaims(held map[string][]string, limits map[string]int32, vols []packing.Volume) {
	for _, vol := range vols {
		if _, ok := limits[vol.Driver]; !ok || vol.Driver == "" || slices.Contains(held[vol.Driver], vol.Claim) {
			continue
		}
		held[vol.Driver] = append(held[vol.Driver], vol.Claim)
	}
}

// claims returns the claims of vols, nil for none.
func claims(vols *packing.Volumes) []packing.Volume {
	if vols == nil {
		return nil
	}
	return vols.Claims
}

func sortedKeys(m map[string][]string) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// checkVolumeRequirements reports pending pod i on h, of labels, when h
// meets none of the alternatives of its volumes' requirements.
func (v *verifier) checkVolumeRequirements(i int, h *host, labels map[string]string) {
	vols := v.p.Pods[i].Volumes
	if vols == nil || len(vols.Requirements) == 0 {
		return
	}
	vr := vols.Requirements
	var first error
	for _, alt := range vr {
		err := alt.Matches(labels)
		if err == nil {
			return
		}
		if first == nil {
			first = err
		}
	}
	v.add(RuleNodeAffinity, i, h.name, "%s on %s %s: no requirement of its volumes met: %v", v.podName(i), h.kind(), h.name, first)
}
