package consolidation

import (
	"github.com/nodeplan/nodeplan/disruption"
	"github.com/nodeplan/nodeplan/packing"
)

// apply changes the state as executing cmd would: its candidates are
// marked for deletion and lose their pods, displaced pods join the nodes
// they land on, and each replacement becomes an in-flight node.
func (s *state) apply(cmd Command) {
	gone := map[string]bool{}
	for _, n := range cmd.Candidates {
		gone[n] = true
	}
	moved := s.evict(gone)
	byClaim, byNode := map[string][]packing.Pod{}, map[string][]packing.Pod{}
	for _, pl := range cmd.Homes {
		p := moved[pl.Pod]
		if pl.NodeClaim != "" {
			byClaim[pl.NodeClaim] = append(byClaim[pl.NodeClaim], p)
			continue
		}
		byNode[pl.Node] = append(byNode[pl.Node], p)
	}
	s.bind(byNode)
	for _, nc := range cmd.Replacements {
		s.w.Launch(s.inFlight(nc, byClaim[nc.Name]))
	}
}

// evict marks the gone nodes for deletion and takes the reschedulable pods
// off them and off nodes already deleting, keyed by their PodRef.
func (s *state) evict(gone map[string]bool) map[disruption.PodRef]packing.Pod {
	moved := map[disruption.PodRef]packing.Pod{}
	for i, n := range s.w.Nodes() {
		if !gone[n.Name] && !n.MarkedForDeletion {
			continue
		}
		s.retry.left(n.NodePool, gone[n.Name], s.w.Movable(i))
		for _, p := range n.Pods {
			moved[disruption.Ref(&p)] = p
		}
		s.w.Retire(i, disruption.Staying(n.Pods))
	}
	return moved
}

// bind adds the pods to the nodes they land on, each node's in one copy,
// and records the pod event.
func (s *state) bind(byNode map[string][]packing.Pod) {
	for i, n := range s.w.Nodes() {
		if pods, ok := byNode[n.Name]; ok {
			s.w.Bind(i, pods...)
			s.retry.received(n.Name, n.NodePool)
			s.c.LastPodEvent[n.Name] = s.c.Now
		}
	}
}

func (s *state) inFlight(nc packing.NodeClaim, pods []packing.Pod) packing.Node {
	return nc.InFlight(s.base.PoolCatalog(s.pools[nc.NodePool]), pods, s.c.Now)
}

// initialized reports whether the node named name is initialized: one
// displaced pods may land on.
func (s *state) initialized(name string) bool {
	i := s.w.Index(name)
	return i >= 0 && s.w.Nodes()[i].Initialized
}
