package consolidation

import (
	"fmt"
	"slices"

	"github.com/nodeplan/nodeplan/disruption"
	"github.com/nodeplan/nodeplan/packing"
)

// sim is a simulated move: the problem's pods (pending first, then the
// displaced ones from index first) and the plan packing.Solve made. Its
// pods are valid until the next simulation, which reuses their slice
// (state.simPods): a sim is read within the compute that made it.
type sim struct {
	pods  []packing.Pod
	first int
	plan  packing.Plan
	// held is the provisioning pass's buffer pods on nodes (buffer.go).
	held map[int]string
}

// simulate solves the cluster without cands: the other nodes keep their
// pods; the pods of cands and of deleting nodes join the pending ones. The
// input nodes, which newState validated, keep every field the solve checks
// but their pods, which only move between them, to the pending pods and to
// in-flight replacements; so the solve checks only those pending pods and
// the replacements (packing.SolveVouched).
func (s *state) simulate(cands []candidate) (sim, error) {
	return s.simulateWith(s.o.Solver, cands, false)
}

// simulateWith is simulate with solver options o. With steer the nodes in
// flight (the replacements of earlier commands) take no displaced pod, as
// settling nodes: Karpenter's methods fail a move whose pods would land on
// one (homeless), and simulate them as Karpenter does; the repack, which
// goes beyond them, sends those pods elsewhere instead.
func (s *state) simulateWith(o packing.Options, cands []candidate, steer bool) (sim, error) {
	gone := make(map[string]bool, len(cands))
	for _, c := range cands {
		gone[c.name] = true
	}
	pods := withDisplaced(slices.Grow(s.simPods[:0], s.simulatedPods(cands)), s.c.Pending, false)
	first := len(pods)
	nodes := s.simNodes[:0] // the solve keeps none of them: the next simulation reuses the slice
	all := s.w.Nodes()
	for i := range all {
		// not a copy: a Node is large, and only the one appended is changed
		n := &all[i]
		if n.MarkedForDeletion { // their pods are exempt from consolidateAfter, as pending ones
			pods = withDisplaced(pods, reschedulable(n.Pods), false)
		}
		if !gone[n.Name] {
			nodes = append(nodes, *n)
			nodes[len(nodes)-1].Settling = s.c.settling(n, s.pools[n.NodePool]) || steer && !n.Initialized
		}
	}
	for _, c := range cands {
		pods = withDisplaced(pods, c.pods, true)
	}
	s.simNodes, s.simPods = nodes, pods
	plan, err := s.w.SolveWith(o, pods, nodes)
	return sim{pods: pods, first: first, plan: plan, held: s.buffers.held}, err
}

// simulatedPods is at least the number of pods simulateWith solves for
// cands: the pending ones, those of cands and those of nodes marked for
// deletion, so that their slice is allocated once.
func (s *state) simulatedPods(cands []candidate) int {
	n := len(s.c.Pending)
	for _, c := range cands {
		n += len(c.pods)
	}
	nodes := s.w.Nodes()
	for i := range nodes {
		if nodes[i].MarkedForDeletion {
			n += len(nodes[i].Pods)
		}
	}
	return n
}

// withDisplaced appends copies of pods to dst with Displaced set to d.
func withDisplaced(dst, pods []packing.Pod, d bool) []packing.Pod {
	for _, p := range pods {
		p.Displaced = d
		dst = append(dst, p)
	}
	return dst
}

// homeless returns a sentence about the first displaced pod without a home
// (unschedulable, or bound to a node that is not initialized), or "".
func (m sim) homeless(initialized func(node string) bool) string {
	for _, u := range m.plan.Unschedulable {
		if u.Pod >= m.first {
			return fmt.Sprintf("pod %s fits nowhere else: %s", m.pods[u.Pod].Key(), u.Reason.Message)
		}
	}
	for _, b := range m.plan.Bindings {
		if b.Pod >= m.first && !initialized(b.Node) {
			return fmt.Sprintf("pod %s would land on node %s, which is not initialized", m.pods[b.Pod].Key(), b.Node)
		}
	}
	return ""
}

// claims returns the NodeClaims holding at least one displaced pod, or a
// buffer pod the provisioning pass held on a node (keepsHeadroom); claims
// only for pending pods are the provisioner's business.
func (m sim) claims() []packing.NodeClaim {
	var out []packing.NodeClaim
	for _, nc := range m.plan.NodeClaims {
		if slices.ContainsFunc(nc.Pods, func(i int) bool { return i >= m.first }) || m.keepsHeadroom(&nc) {
			out = append(out, nc)
		}
	}
	return out
}

// placements lists where every displaced pod lands, in the order the
// solve placed them (packing.Plan.Order: binding them in that order keeps
// every topology constraint at each step); claims are looked up by their
// names in the plan, renamed by rename.
func (m sim) placements(rename map[string]string) []disruption.Home {
	type home struct {
		node, claim string
		ok          bool
	}
	at := make([]home, len(m.pods)-m.first) // by displaced pod, from first
	for _, b := range m.plan.Bindings {
		if b.Pod >= m.first {
			at[b.Pod-m.first] = home{node: b.Node, ok: true}
		}
	}
	for _, nc := range m.plan.NodeClaims {
		for _, i := range nc.Pods {
			if i >= m.first {
				at[i-m.first] = home{claim: rename[nc.Name], ok: true}
			}
		}
	}
	out := make([]disruption.Home, 0, len(at)) // a move places every displaced pod
	for _, i := range m.plan.Order {
		if i >= m.first && at[i-m.first].ok {
			h := at[i-m.first]
			out = append(out, disruption.Home{Pod: disruption.Ref(&m.pods[i]), Node: h.node, NodeClaim: h.claim})
		}
	}
	return out
}
