package problemgen

import (
	"slices"

	"github.com/nodeplan/nodeplan/instancetypes"
	"github.com/nodeplan/nodeplan/packing"
	"github.com/nodeplan/nodeplan/requirements"
)

// Minimize shrinks p while failing stays true: it greedily drops pending
// pods, nodes, bound pods, NodePools, daemonsets and instance types (in
// halving chunks, then one by one), then clears the constraints of what is
// left, and repeats until nothing more can go. failing(p) should be true;
// if it is not, p is returned unchanged. failing must not modify its
// argument; Minimize does not modify p. The cost is O(n² log n) calls of
// failing in the worst case for n parts, usually far fewer.
func Minimize(p packing.Problem, failing func(packing.Problem) bool) packing.Problem {
	if !failing(p) {
		return p
	}
	m := &minimizer{p: Clone(p), failing: failing}
	for changed := true; changed; {
		changed = m.round()
	}
	return m.p
}

// minimizer holds the smallest failing problem found so far.
type minimizer struct {
	p       packing.Problem
	failing func(packing.Problem) bool
}

// try keeps q when it still fails.
func (m *minimizer) try(q packing.Problem) bool {
	if m.failing(q) {
		m.p = q
		return true
	}
	return false
}

// round runs every shrinking step once and reports whether any helped.
func (m *minimizer) round() bool {
	steps := []func() bool{m.dropPods, m.dropNodes, m.dropBoundPods, m.dropPools, m.dropDaemonSets,
		m.dropTypes, m.simplifyPods, m.simplifyPools, m.simplifyNodes}
	changed := false
	for _, step := range steps {
		changed = step() || changed
	}
	return changed
}

// shrink drops chunks of s, halving the chunk size down to one, as long as
// keep accepts the shorter slice, and reports whether anything went.
func shrink[E any](s []E, keep func([]E) bool) bool {
	changed := false
	for chunk := max(len(s)/2, 1); len(s) > 0; chunk /= 2 {
		for i := 0; i+chunk <= len(s); {
			cand := slices.Concat(s[:i], s[i+chunk:])
			if keep(cand) {
				s, changed = cand, true
				continue
			}
			i += chunk
		}
		if chunk == 1 {
			break
		}
	}
	return changed
}

func (m *minimizer) dropPods() bool {
	return shrink(m.p.Pods, func(s []packing.Pod) bool { q := m.p; q.Pods = s; return m.try(q) })
}

func (m *minimizer) dropNodes() bool {
	return shrink(m.p.Nodes, func(s []packing.Node) bool { q := m.p; q.Nodes = s; return m.try(q) })
}

func (m *minimizer) dropPools() bool {
	return shrink(m.p.NodePools, func(s []packing.NodePool) bool { q := m.p; q.NodePools = s; return m.try(q) })
}

func (m *minimizer) dropDaemonSets() bool {
	return shrink(m.p.DaemonSets, func(s []packing.DaemonSet) bool { q := m.p; q.DaemonSets = s; return m.try(q) })
}

func (m *minimizer) dropBoundPods() bool {
	changed := false
	for i := range m.p.Nodes {
		changed = shrink(m.p.Nodes[i].Pods, func(s []packing.Pod) bool {
			q := m.p
			q.Nodes = slices.Clone(q.Nodes)
			q.Nodes[i].Pods = s
			return m.try(q)
		}) || changed
	}
	return changed
}

// dropTypes drops instance types of the problem's catalog, rebuilding it
// from the remaining ones.
func (m *minimizer) dropTypes() bool {
	if m.p.Catalog == nil {
		return false
	}
	return shrink(m.p.Catalog.Types(), func(s []*instancetypes.InstanceType) bool {
		c, ok := rebuild(s)
		if !ok {
			return false
		}
		q := m.p
		q.Catalog = c
		return m.try(q)
	})
}

// rebuild makes a catalog of copies of types; false when New rejects them.
func rebuild(types []*instancetypes.InstanceType) (*instancetypes.Catalog, bool) {
	cp := make([]instancetypes.InstanceType, len(types))
	for i, t := range types {
		cp[i] = *t
	}
	c, err := instancetypes.New(cp)
	return c, err == nil
}

// simplifyPods clears, one at a time, each constraint of each pending pod.
func (m *minimizer) simplifyPods() bool {
	changed := false
	for i := range m.p.Pods {
		for _, clear := range podSimplifications {
			changed = m.simplify(i, clear) || changed
		}
	}
	return changed
}

// podSimplifications each clear one part of a pod, reporting whether there
// was anything to clear.
var podSimplifications = []func(*packing.Pod) bool{
	func(p *packing.Pod) bool { return clearField(&p.NodeAffinity.Preferred) },
	func(p *packing.Pod) bool { return clearField(&p.NodeAffinity.Required) },
	func(p *packing.Pod) bool {
		empty := p.NodeAffinity.Selector.Len() == 0
		p.NodeAffinity.Selector = requirements.Set{}
		return !empty
	},
	func(p *packing.Pod) bool { return clearField(&p.Tolerations) },
	func(p *packing.Pod) bool { return clearField(&p.TopologySpread) },
	func(p *packing.Pod) bool { return clearField(&p.Affinity) },
	func(p *packing.Pod) bool { return clearField(&p.AntiAffinity) },
	func(p *packing.Pod) bool { return clearField(&p.HostPorts) },
	func(p *packing.Pod) bool { ok := p.Priority != 0; p.Priority = 0; return ok },
}

// clearField sets *s to nil and reports whether it held anything.
func clearField[E any](s *[]E) bool {
	had := len(*s) > 0
	*s = nil
	return had
}

// simplify applies clear to a copy of pending pod i and keeps the result
// when it still fails.
func (m *minimizer) simplify(i int, clear func(*packing.Pod) bool) bool {
	q := m.p
	q.Pods = slices.Clone(q.Pods)
	if !clear(&q.Pods[i]) {
		return false
	}
	return m.try(q)
}

// simplifyPools clears each pool's requirements, labels, taints, limits,
// weight and own catalog, one at a time.
func (m *minimizer) simplifyPools() bool {
	clears := []func(*packing.NodePool) bool{
		func(np *packing.NodePool) bool {
			ok := np.Requirements.Len() > 0
			np.Requirements = requirements.Set{}
			return ok
		},
		func(np *packing.NodePool) bool { ok := len(np.Labels) > 0; np.Labels = nil; return ok },
		func(np *packing.NodePool) bool { return clearField(&np.Taints) },
		func(np *packing.NodePool) bool { return clearField(&np.StartupTaints) },
		func(np *packing.NodePool) bool { ok := len(np.Limits) > 0; np.Limits = nil; return ok },
		func(np *packing.NodePool) bool { ok := np.Weight != 0; np.Weight = 0; return ok },
		func(np *packing.NodePool) bool { ok := np.Catalog != nil; np.Catalog = nil; return ok },
	}
	changed := false
	for i := range m.p.NodePools {
		for _, clear := range clears {
			q := m.p
			q.NodePools = slices.Clone(q.NodePools)
			if clear(&q.NodePools[i]) && m.try(q) {
				changed = true
			}
		}
	}
	return changed
}

// simplifyNodes clears each node's taints and marks it initialized and
// not deleting, one at a time.
func (m *minimizer) simplifyNodes() bool {
	clears := []func(*packing.Node) bool{
		func(n *packing.Node) bool { return clearField(&n.Taints) },
		func(n *packing.Node) bool { ok := !n.Initialized; n.Initialized = true; return ok },
		func(n *packing.Node) bool { ok := n.MarkedForDeletion; n.MarkedForDeletion = false; return ok },
	}
	changed := false
	for i := range m.p.Nodes {
		for _, clear := range clears {
			q := m.p
			q.Nodes = slices.Clone(q.Nodes)
			if clear(&q.Nodes[i]) && m.try(q) {
				changed = true
			}
		}
	}
	return changed
}
