package verify

import (
	"maps"
	"slices"

	"github.com/nodeplan/nodeplan/packing"
	"github.com/nodeplan/nodeplan/requirements"
)

// checkPodsOn checks node affinity and taints of h's pending pods (rules 4
// and 5).
func (v *verifier) checkPodsOn(h *host) {
	taints, labels := v.enforcedTaints(h), affinityLabels(h)
	for _, i := range h.pods {
		pod := &v.p.Pods[i]
		if err := matchNodeAffinity(pod.NodeAffinity, labels); err != nil {
			v.add(RuleNodeAffinity, i, h.name, "%s on %s %s: node selector or affinity not met: %v", v.podName(i), h.kind(), h.name, err)
		}
		v.checkVolumeRequirements(i, h, labels)
		if err := requirements.Tolerates(pod.Tolerations, taints); err != nil {
			v.add(RuleTaint, i, h.name, "%s on %s %s: %v", v.podName(i), h.kind(), h.name, err)
		}
	}
}

// affinityLabels are the labels node affinity is matched against on h.
// A claim's node gets its hostname when it launches: it has one, but no
// selector can name it, so it stands here as a value no label value
// equals (not valid, not a number).
func affinityLabels(h *host) map[string]string {
	if h.claim == nil {
		return h.labels
	}
	l := maps.Clone(h.labels)
	l[requirements.LabelHostname] = "-unlaunched-"
	return l
}

// matchNodeAffinity checks the node selector and one required alternative.
func matchNodeAffinity(a requirements.NodeAffinity, labels map[string]string) error {
	if err := a.Selector.Matches(labels); err != nil {
		return err
	}
	return a.Matches(labels)
}

// enforcedTaints are the taints a pod placed on h must tolerate.
func (v *verifier) enforcedTaints(h *host) []requirements.Taint {
	if h.claim != nil {
		return claimTaints(h)
	}
	return nodeTaints(h.node, h.pool)
}

// claimTaints are the claim's pool's taints (the claim's own when the pool
// is unknown) less the relaxable PreferNoSchedule ones.
func claimTaints(h *host) []requirements.Taint {
	taints := h.claim.Taints
	if h.pool != nil {
		taints = h.pool.Taints
	}
	return slices.DeleteFunc(slices.Clone(taints), func(t requirements.Taint) bool {
		return t.Effect == requirements.PreferNoSchedule
	})
}

// ephemeralTaints are the taint keys a node in flight carries until it is
// initialized.
var ephemeralTaints = []string{"node.kubernetes.io/not-ready", "node.kubernetes.io/unreachable",
	"node.cloudprovider.kubernetes.io/uninitialized", "karpenter.sh/unregistered"}

// nodeTaints are n's NoSchedule and NoExecute taints, less, for a node not
// yet initialized, its pool's startup taints and the ephemeral ones.
func nodeTaints(n *packing.Node, pool *packing.NodePool) []requirements.Taint {
	var out []requirements.Taint
	for _, t := range n.Taints {
		if t.Effect != requirements.NoSchedule && t.Effect != requirements.NoExecute {
			continue
		}
		if !n.Initialized && (slices.Contains(ephemeralTaints, t.Key) || isStartupTaint(pool, t)) {
			continue
		}
		out = append(out, t)
	}
	return out
}

func isStartupTaint(pool *packing.NodePool, t requirements.Taint) bool {
	return pool != nil && slices.Contains(pool.StartupTaints, t)
}

// usedPort is a host port in use on a host and the pod that binds it:
// pending pod number pod when pending is set, else a pod already bound
// there.
type usedPort struct {
	owner   string
	pending bool
	pod     int
	port    packing.HostPort
}

// checkHostPorts reports each pending pod whose host port clashes with one
// an earlier pod on h binds (rule 8).
func (v *verifier) checkHostPorts(h *host) {
	if len(h.pods) == 0 {
		return
	}
	var used []usedPort
	if h.node != nil {
		for j := range h.node.Pods {
			used = appendPorts(used, &h.node.Pods[j], false, 0)
		}
	}
	for _, i := range h.pods {
		pod := &v.p.Pods[i]
		if u, hp, ok := findClash(used, pod.HostPorts, i); ok {
			v.add(RuleHostPort, i, h.name, "%s on %s %s: host port %d/%s on %s is already bound by %s",
				v.podName(i), h.kind(), h.name, hp.Port, protocol(hp), portIP(hp), u.owner)
		}
		used = appendPorts(used, pod, true, i)
	}
}

// appendPorts adds the host ports p binds; p is pending pod i when pending
// is set.
func appendPorts(used []usedPort, p *packing.Pod, pending bool, i int) []usedPort {
	for _, hp := range p.HostPorts {
		used = append(used, usedPort{owner: "pod " + p.Key(), pending: pending, pod: i, port: hp})
	}
	return used
}

// findClash returns the first used port one of ports clashes with,
// ignoring ports of pod i itself.
func findClash(used []usedPort, ports []packing.HostPort, i int) (usedPort, packing.HostPort, bool) {
	for _, hp := range ports {
		for _, u := range used {
			if (!u.pending || u.pod != i) && portsClash(u.port, hp) {
				return u, hp, true
			}
		}
	}
	return usedPort{}, packing.HostPort{}, false
}

// portsClash reports whether a and b bind the same port, protocol and an
// overlapping address. Port 0 binds nothing.
func portsClash(a, b packing.HostPort) bool {
	return a.Port != 0 && a.Port == b.Port && protocol(a) == protocol(b) &&
		(wildcardIP(a.IP) || wildcardIP(b.IP) || a.IP == b.IP)
}

func protocol(hp packing.HostPort) string {
	if hp.Protocol == "" {
		return "TCP"
	}
	return hp.Protocol
}

func wildcardIP(ip string) bool { return ip == "" || ip == "0.0.0.0" || ip == "::" }

func portIP(hp packing.HostPort) string {
	if wildcardIP(hp.IP) {
		return "every address"
	}
	return hp.IP
}
