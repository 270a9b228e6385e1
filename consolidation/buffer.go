package consolidation

import "github.com/nodeplan/nodeplan/packing"

// headroom is what the provisioning pass before consolidation did with
// the buffer pods among the pending pods (packing.Pod.Buffer): held, per
// pending pod index, the node that holds it; onNode, per node, how many
// it holds (Karpenter's bufferPodCounts). Both are empty when no pending
// pod is a buffer pod.
type headroom struct {
	held   map[int]string
	onNode map[string]int
}

// provisioningHeadroom runs the provisioning pass once, before any
// command: the cluster as given, nothing removed (a simulation without
// candidates), and records where it holds buffer pods on existing nodes,
// as Karpenter's provisioner records bufferPodCounts
// (K/controllers/provisioning/buffers.go:210-221).
func (s *state) provisioningHeadroom() error {
	if !packing.HasBuffer(s.c.Pending) {
		return nil
	}
	m, err := s.simulate(nil)
	if err != nil {
		return err
	}
	s.buffers = headroom{held: map[int]string{}, onNode: m.plan.HeadroomOnNodes()}
	for _, h := range m.plan.Headroom {
		if h.Node != "" {
			s.buffers.held[h.Pod] = h.Node
		}
	}
	return nil
}

// holdsHeadroom reports whether the provisioning pass held buffer pods on
// candidate c: Karpenter's emptiness leaves such a node alone
// (K/controllers/disruption/emptiness.go:51-57), while multi- and
// single-node consolidation still try it.
func (s *state) holdsHeadroom(c candidate) bool { return s.buffers.onNode[c.name] > 0 }

// keepsHeadroom reports whether claim nc of simulation m holds a buffer
// pod that the provisioning pass held on an existing node: such a claim
// is a replacement the move needs, as Karpenter counts every new NodeClaim
// of its simulation; a buffer pod already needing new capacity before the
// move is, as a pending pod, the provisioner's business.
func (m sim) keepsHeadroom(nc *packing.NodeClaim) bool {
	for _, h := range m.plan.Headroom {
		if h.NodeClaim == nc.Name && h.Pod < m.first && m.held[h.Pod] != "" {
			return true
		}
	}
	return false
}
