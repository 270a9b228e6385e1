package static

import (
	"github.com/nodeplan/nodeplan/disruption"
	"github.com/nodeplan/nodeplan/packing"
)

// drift makes the StaticDrift commands of the pool: one replacement per
// drifted node, at most the Drifted budget allows and limits.nodes leaves
// room for (before scale-up, which takes the room left), none while the
// pool has more NodeClaims than replicas.
func (s *state) drift() error {
	cands := s.driftCandidates()
	if len(cands) == 0 {
		return nil
	}
	name := s.pool.NodePool.Name
	budget, err := disruption.AllowedDisruptions(s.pool.NodePool, s.budgetNodes(), disruption.Drifted, s.in.Now)
	if err != nil {
		return err
	}
	if budget == 0 {
		s.note(BudgetExhausted, "", "NodePool %s's Drifted disruption budget allows no disruption now: %d drifted nodes wait", name, len(cands))
		return nil
	}
	if int64(s.d.Active+s.d.PendingDisruption) > s.pool.Replicas {
		s.note(Overscaled, "", "NodePool %s has %d active and %d pending disruption NodeClaims, over its %d replicas: "+
			"its %d drifted nodes wait for scale-down", name, s.d.Active, s.d.PendingDisruption, s.pool.Replicas, len(cands))
		return nil
	}
	granted := min(int64(budget), int64(len(cands)), s.headroom(0))
	if granted == 0 {
		s.note(LimitReached, "", "NodePool %s's limits.nodes %d leaves no room for a replacement: its %d drifted nodes wait", name, s.limit, len(cands))
		return nil
	}
	for _, i := range disruption.Order(cands)[:granted] {
		s.d.Replace = append(s.d.Replace, Replacement{Candidate: cands[i].Name})
	}
	if left := int64(len(cands)) - granted; left > 0 {
		why := LimitReached
		if granted == int64(budget) {
			why = BudgetExhausted
		}
		s.note(why, "", "NodePool %s replaces %d of its %d drifted nodes now (budget %d, room under limits.nodes %d); %d wait",
			name, granted, len(cands), budget, s.headroom(0), left)
	}
	return nil
}

// driftCandidates are the nodes StaticDrift may replace, as nodes named
// after their NodeClaims: Drifted, resolved, initialized, not deleting nor
// pending disruption, and not blocked. Blocked ones get a note.
func (s *state) driftCandidates() []packing.Node {
	var out []packing.Node
	for _, c := range s.claims {
		if !c.Drifted || !c.Resolved || deleting(c) || c.PendingDisruption {
			continue
		}
		if why := s.blocked(c); why != "" {
			s.note(Blocked, c.Name, "drifted NodeClaim %s is not replaced now: %s", c.Name, why)
			continue
		}
		n := c.Node
		n.Name, n.NodePool = c.Name, s.pool.NodePool.Name
		out = append(out, n)
	}
	return out
}

// blocked says why drifted claim c is no disruption candidate, as
// Karpenter's NewCandidate: its node is not initialized, has
// do-not-disrupt, or (unless the pool sets a terminationGracePeriod, as
// StaticDrift is an eventual disruption) a pod blocks eviction.
func (s *state) blocked(c Claim) string {
	if !c.Node.Initialized {
		return "its node is not initialized"
	}
	if b, why := disruption.NodeBlocks(c.Node); b {
		return why
	}
	if s.pool.NodePool.Disruption.TerminationGracePeriod > 0 {
		return ""
	}
	for j := range c.Node.Pods {
		if b, why := disruption.PodBlocks(c.Node.Pods[j], s.in.Now); b {
			return why
		}
	}
	if b, why := disruption.PDBBlocks(c.Node.Pods, s.in.PDBs); b {
		return why
	}
	return ""
}

// budgetNodes are the pool's resolved claims as nodes for
// disruption.AllowedDisruptions: deleting ones marked for deletion.
func (s *state) budgetNodes() []packing.Node {
	var out []packing.Node
	for _, c := range s.claims {
		if !c.Resolved {
			continue
		}
		n := c.Node
		n.Name, n.NodePool = c.Name, s.pool.NodePool.Name
		n.MarkedForDeletion = deleting(c)
		out = append(out, n)
	}
	return out
}
