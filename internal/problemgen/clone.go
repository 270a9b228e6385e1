package problemgen

import (
	"maps"
	"slices"

	"github.com/nodeplan/nodeplan/packing"
	"github.com/nodeplan/nodeplan/requirements"
)

// Clone returns a deep copy of p: every slice and map is copied, so that
// changing the copy leaves p alone and reflect.DeepEqual compares contents.
// Catalogs, requirement sets and resource lists are immutable values and
// are shared. Nil stays nil. The complexity is O(size of p).
func Clone(p packing.Problem) packing.Problem {
	return packing.Problem{
		Pods:       clonePods(p.Pods),
		NodePools:  cloneEach(p.NodePools, clonePool),
		Catalog:    p.Catalog,
		Nodes:      cloneEach(p.Nodes, cloneNode),
		DaemonSets: cloneEach(p.DaemonSets, cloneDaemonSet),
	}
}

// cloneEach copies s, applying f to each element.
func cloneEach[E any](s []E, f func(E) E) []E {
	if s == nil {
		return nil
	}
	out := make([]E, len(s))
	for i, e := range s {
		out[i] = f(e)
	}
	return out
}

func clonePods(pods []packing.Pod) []packing.Pod { return cloneEach(pods, clonePod) }

func clonePod(p packing.Pod) packing.Pod {
	p.Labels = maps.Clone(p.Labels)
	p.NodeAffinity = cloneAffinity(p.NodeAffinity)
	p.Tolerations = slices.Clone(p.Tolerations)
	p.TopologySpread = cloneEach(p.TopologySpread, func(ts packing.TopologySpread) packing.TopologySpread {
		ts.MatchLabelKeys = slices.Clone(ts.MatchLabelKeys)
		return ts
	})
	p.Affinity = cloneTerms(p.Affinity)
	p.AntiAffinity = cloneTerms(p.AntiAffinity)
	p.HostPorts = slices.Clone(p.HostPorts)
	p.Volumes = cloneVolumes(p.Volumes)
	return p
}

// cloneVolumes returns a new Volumes of v's contents, so that the clone
// shares no pointer target with p; nil stays nil.
func cloneVolumes(v *packing.Volumes) *packing.Volumes {
	if v == nil {
		return nil
	}
	return &packing.Volumes{Claims: slices.Clone(v.Claims), Requirements: slices.Clone(v.Requirements)}
}

func cloneAffinity(a requirements.NodeAffinity) requirements.NodeAffinity {
	a.Required = slices.Clone(a.Required)
	a.Preferred = slices.Clone(a.Preferred)
	return a
}

func cloneTerms(terms []packing.PodAffinityTerm) []packing.PodAffinityTerm {
	return cloneEach(terms, func(t packing.PodAffinityTerm) packing.PodAffinityTerm {
		t.Namespaces = slices.Clone(t.Namespaces)
		return t
	})
}

func clonePool(np packing.NodePool) packing.NodePool {
	np.Labels = maps.Clone(np.Labels)
	np.Taints = slices.Clone(np.Taints)
	np.StartupTaints = slices.Clone(np.StartupTaints)
	np.Limits = maps.Clone(np.Limits)
	np.Disruption.Budgets = cloneEach(np.Disruption.Budgets, func(b packing.Budget) packing.Budget {
		b.Reasons = slices.Clone(b.Reasons)
		return b
	})
	return np
}

func cloneNode(n packing.Node) packing.Node {
	n.Labels = maps.Clone(n.Labels)
	n.Taints = slices.Clone(n.Taints)
	n.Pods = clonePods(n.Pods)
	n.Annotations = maps.Clone(n.Annotations)
	n.VolumeLimits = maps.Clone(n.VolumeLimits)
	return n
}

func cloneDaemonSet(ds packing.DaemonSet) packing.DaemonSet {
	ds.Tolerations = slices.Clone(ds.Tolerations)
	ds.NodeAffinity = cloneAffinity(ds.NodeAffinity)
	return ds
}
