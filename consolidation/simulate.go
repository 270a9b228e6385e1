package consolidation

import (
	"context"
	"fmt"
	"slices"

	"github.com/nodeplan/nodeplan/disruption"
	"github.com/nodeplan/nodeplan/packing"
)

// sim is a simulated move: the problem's pods (pending first, then the
// displaced ones from index first) and the plan packing.Solve made. Its
// pods are valid until the state's next simulation, which reuses their
// slice (state.buf): a sim is read within the compute that made it.
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
	v := s.simView(steer)
	need := len(s.c.Pending) + v.deletingPods
	for _, c := range cands {
		need += len(c.pods)
	}
	pods := withDisplaced(slices.Grow(s.buf.pods[:0], need), s.c.Pending, false)
	first := len(pods)
	all := s.w.Nodes()
	for _, i := range v.deleting { // their pods are exempt from consolidateAfter, as pending ones
		pods = withDisplaced(pods, reschedulable(all[i].Pods), false)
	}
	for _, c := range cands {
		pods = withDisplaced(pods, c.pods, true)
	}
	// the solve keeps none of the nodes: the next simulation reuses the slice
	s.buf = simBuffers{nodes: s.without(s.buf.nodes[:0], v.nodes, cands), pods: pods}
	ctx := s.ctx
	if ctx == nil {
		ctx = context.Background()
	}
	plan, err := s.w.SolveContext(ctx, o, pods, s.buf.nodes)
	return sim{pods: pods, first: first, plan: plan, held: s.buffers.held}, err
}

// simView is the what-if's nodes as the simulations of one version of
// the state see them (see simulateWith): each with its Settling flag, in
// the what-if's order; deleting indexes those marked for deletion, and
// deletingPods counts their pods.
type simView struct {
	made         bool
	version      int
	steer        bool
	nodes        []packing.Node
	deleting     []int
	deletingPods int
}

// simView returns the view of the state's current version with steer,
// made once for them.
func (s *state) simView(steer bool) *simView {
	v := &s.view
	if v.made && v.version == s.version() && v.steer == steer {
		return v
	}
	all := s.w.Nodes()
	nodes, deleting := v.nodes[:0], v.deleting[:0]
	if s.forked { // the arrays are the state's and its other forks'
		nodes, deleting = nil, nil
	}
	*v = simView{made: true, version: s.version(), steer: steer, nodes: nodes, deleting: deleting}
	for i := range all {
		n := &all[i]
		if n.MarkedForDeletion {
			v.deleting = append(v.deleting, i)
			v.deletingPods += len(n.Pods)
		}
		v.nodes = append(v.nodes, *n)
		v.nodes[i].Settling = s.c.settling(n, s.pools[n.NodePool]) || steer && !n.Initialized
	}
	return v
}

// without appends to dst the view's nodes but the candidates', in runs
// copied whole.
func (s *state) without(dst, nodes []packing.Node, cands []candidate) []packing.Node {
	gone := make([]int, 0, len(cands))
	for _, c := range cands {
		if i := s.w.Index(c.name); i >= 0 {
			gone = append(gone, i)
		}
	}
	slices.Sort(gone)
	from := 0
	for _, i := range gone {
		if i >= from { // else a candidate named twice
			dst = append(dst, nodes[from:i]...)
			from = i + 1
		}
	}
	return append(dst, nodes[from:]...)
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
