package drift

import (
	"context"
	"slices"
	"time"

	"github.com/nodeplan/nodeplan/disruption"
	"github.com/nodeplan/nodeplan/instancetypes"
	"github.com/nodeplan/nodeplan/internal/vouch"
	"github.com/nodeplan/nodeplan/packing"
)

// sim is the cluster as the commands so far leave it: nodes being replaced
// are marked for deletion and their replacements are in flight. It owns its
// node slice; node pod slices are cloned before they are changed. The
// cluster's nodes keep every field the solver checks but their pods and
// MarkedForDeletion, and pods only move between them and to replacements,
// so its solves check only the pending pods and the replacements
// (packing.SolveVouched).
type sim struct {
	nodes   []packing.Node
	movable []int          // per node, its reschedulable pods (packing.Pod.Reschedulable)
	byName  map[string]int // the first node of each name
	pools   []packing.NodePool
	catalog *instancetypes.Catalog
	ds      []packing.DaemonSet
	vouched vouch.Nodes // the nodes of the cluster, validated
}

// newSim starts the simulation of cl, which [Cluster.Validate] accepted,
// with catalog as its catalog.
func newSim(cl Cluster, catalog *instancetypes.Catalog) *sim {
	states := cl.Nodes
	s := &sim{nodes: make([]packing.Node, 0, len(states)), movable: make([]int, 0, len(states)),
		byName: make(map[string]int, len(states)), pools: make([]packing.NodePool, len(cl.NodePools)), catalog: catalog,
		ds: cl.DaemonSets, vouched: vouch.Of(states, func(s *NodeClaimState) string { return s.Node.Name })}
	for i := range states {
		s.add(states[i].Node)
	}
	for i := range cl.NodePools {
		s.pools[i] = cl.NodePools[i].NodePool
	}
	return s
}

func (s *sim) add(n packing.Node) {
	if _, dup := s.byName[n.Name]; !dup {
		s.byName[n.Name] = len(s.nodes)
	}
	s.nodes = append(s.nodes, n)
	s.movable = append(s.movable, 0)
	for i := range n.Pods {
		s.count(len(s.nodes)-1, &n.Pods[i])
	}
}

// count counts pod p, just added to node i, when it is reschedulable.
func (s *sim) count(i int, p *packing.Pod) {
	if p.Reschedulable() {
		s.movable[i]++
	}
}

// index returns the position of the named node, or -1.
func (s *sim) index(name string) int {
	if i, ok := s.byName[name]; ok {
		return i
	}
	return -1
}

// empty reports whether the named node runs no reschedulable pods,
// from the count add and apply keep: O(1).
func (s *sim) empty(name string) bool {
	i := s.index(name)
	return i < 0 || s.movable[i] == 0
}

// reschedulable returns the pods of the named nodes that must move
// (packing.Pod.Reschedulable); daemonset, mirror and terminating pods go
// with their node.
func (s *sim) reschedulable(names []string) []packing.Pod {
	var pods []packing.Pod
	for _, name := range names {
		if i := s.index(name); i >= 0 {
			for _, p := range s.nodes[i].Pods {
				if p.Reschedulable() {
					pods = append(pods, p)
				}
			}
		}
	}
	return pods
}

// place solves for pods with the named nodes gone, without changing s. As
// in Karpenter's disruption simulation, nodes not yet initialized (earlier
// replacements in flight among them) take no displaced pods; they still
// count for topology and limits.
func (s *sim) place(names []string, pods []packing.Pod) (packing.Plan, error) {
	nodes := slices.Clone(s.nodes)
	for i := range nodes {
		nodes[i].MarkedForDeletion = nodes[i].MarkedForDeletion || !nodes[i].Initialized
	}
	for _, name := range names {
		if i := slices.IndexFunc(nodes, func(n packing.Node) bool { return n.Name == name }); i >= 0 {
			nodes[i].MarkedForDeletion, nodes[i].Pods = true, nil
		}
	}
	return packing.SolveVouched(context.Background(), s.vouched,
		packing.Problem{Pods: pods, NodePools: s.pools, Catalog: s.catalog, Nodes: nodes, DaemonSets: s.ds}, packing.Options{})
}

// rename names the plan's claims with disruption.ReplacementName:
// "<prefix>-replacement-<k>", k counting from 1, skipping names a node of
// s already has, so that a claim never shares a node's name (and
// hostname), and shortened with a hash where that is longer than a label
// value may be.
func (s *sim) rename(plan *packing.Plan, prefix string) {
	plan.NodeClaims = slices.Clone(plan.NodeClaims)
	k := 0
	for i := range plan.NodeClaims {
		plan.NodeClaims[i].Name, k = disruption.ReplacementName(prefix+"-replacement", k+1, s.taken)
	}
}

// taken reports whether a node of s has the name.
func (s *sim) taken(name string) bool { return s.index(name) >= 0 }

// homes lists where each pod of the plan goes, in pod order.
func homes(plan packing.Plan, pods []packing.Pod) []disruption.Home {
	out := make([]disruption.Home, len(pods))
	for i := range pods {
		out[i].Pod = disruption.Ref(&pods[i])
	}
	for _, b := range plan.Bindings {
		out[b.Pod].Node = b.Node
	}
	for _, c := range plan.NodeClaims {
		for _, p := range c.Pods {
			out[p].NodeClaim = c.Name
		}
	}
	for _, u := range plan.Unschedulable {
		out[u.Pod].Unschedulable = u.Reason.Message
	}
	return out
}

// apply commits a plan: the named nodes are marked for deletion, the bound
// pods join their nodes and the claims become in-flight nodes.
func (s *sim) apply(names []string, plan packing.Plan, pods []packing.Pod) {
	for _, name := range names {
		if i := s.index(name); i >= 0 {
			s.nodes[i].MarkedForDeletion, s.nodes[i].Pods, s.movable[i] = true, nil, 0
		}
	}
	for _, b := range plan.Bindings {
		if i := s.index(b.Node); i >= 0 {
			s.nodes[i].Pods = append(slices.Clip(s.nodes[i].Pods), pods[b.Pod])
			s.count(i, &pods[b.Pod])
		}
	}
	for _, c := range plan.NodeClaims {
		s.add(s.inFlight(c, pods))
	}
}

// inFlight is the node a claim becomes while it launches.
func (s *sim) inFlight(c packing.NodeClaim, pods []packing.Pod) packing.Node {
	mine := make([]packing.Pod, 0, len(c.Pods))
	for _, p := range c.Pods {
		mine = append(mine, pods[p])
	}
	return c.InFlight(s.catalog, mine, time.Time{})
}
