package consolidation

import (
	"slices"

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
	// A home of a pod no node gave up (a command not made for this state)
	// moves nothing.
	homes := slices.DeleteFunc(slices.Clone(cmd.Homes), func(h disruption.Home) bool { return moved[h.Pod] == nil })
	byClaim := map[string][]packing.Pod{}
	for _, pl := range homes {
		if pl.NodeClaim != "" {
			byClaim[pl.NodeClaim] = append(byClaim[pl.NodeClaim], *moved[pl.Pod])
		}
	}
	s.bind(byNode(homes, moved))
	for _, nc := range cmd.Replacements {
		s.w.Launch(s.inFlight(nc, byClaim[nc.Name]))
	}
}

// byNode groups the pods homes bind to existing nodes by node, in the
// homes' order, each node's in one exact slice of one allocation; every
// home's pod is in moved.
func byNode(homes []disruption.Home, moved map[disruption.PodRef]*packing.Pod) map[string][]packing.Pod {
	count := map[string]int{}
	total := 0
	for _, h := range homes {
		if h.NodeClaim == "" {
			count[h.Node]++
			total++
		}
	}
	all := make([]packing.Pod, 0, total)
	out := make(map[string][]packing.Pod, len(count))
	for _, h := range homes {
		if h.NodeClaim != "" {
			continue
		}
		pods, ok := out[h.Node]
		if !ok { // reserve the node's part of all
			n := count[h.Node]
			pods = all[len(all) : len(all) : len(all)+n]
			all = all[:len(all)+n]
		}
		out[h.Node] = append(pods, *moved[h.Pod])
	}
	return out
}

// evict marks the gone nodes for deletion and takes the reschedulable pods
// off them and off nodes already deleting, keyed by their PodRef. The
// pods point into the nodes' slices as they were: a retired node gets a
// new slice, the old one unchanged.
func (s *state) evict(gone map[string]bool) map[disruption.PodRef]*packing.Pod {
	moved := map[disruption.PodRef]*packing.Pod{}
	nodes := s.w.Nodes()
	for i := range nodes {
		n := &nodes[i]
		if !gone[n.Name] && !n.MarkedForDeletion {
			continue
		}
		s.retry.left(n.NodePool, gone[n.Name], s.w.Movable(i))
		pods := n.Pods
		for j := range pods {
			moved[disruption.Ref(&pods[j])] = &pods[j]
		}
		s.w.Retire(i, disruption.Staying(pods))
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
			s.events++
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
