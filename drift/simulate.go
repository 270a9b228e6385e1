package drift

import (
	"slices"
	"time"

	"github.com/nodeplan/nodeplan/disruption"
	"github.com/nodeplan/nodeplan/instancetypes"
	"github.com/nodeplan/nodeplan/internal/vouch"
	"github.com/nodeplan/nodeplan/packing"
)

// sim is drift's what-if on the shared one (disruption.WhatIf): nodes
// being replaced are marked for deletion and emptied, and their
// replacements are in flight. The cluster's nodes keep every field the
// solver checks but their pods and MarkedForDeletion, and pods only move
// between them and to replacements, so its solves check only the pending
// pods and the replacements (packing.SolveVouched).
type sim struct {
	*disruption.WhatIf
	// base is the what-if's problem: a replacement's allocatable comes
	// from its NodePool's catalog (an overlay's capacity, say).
	base packing.Problem
}

// newSim starts the simulation of cl, which [Cluster.Validate] accepted,
// with catalog as its catalog.
func newSim(cl Cluster, catalog *instancetypes.Catalog) *sim {
	nodes := make([]packing.Node, len(cl.Nodes))
	pools := make([]packing.NodePool, len(cl.NodePools))
	for i := range cl.Nodes {
		nodes[i] = cl.Nodes[i].Node
	}
	for i := range cl.NodePools {
		pools[i] = cl.NodePools[i].NodePool
	}
	base := packing.Problem{NodePools: pools, Catalog: catalog, DaemonSets: cl.DaemonSets}
	v := vouch.Of(cl.Nodes, func(s *NodeClaimState) string { return s.Node.Name })
	return &sim{WhatIf: disruption.NewWhatIf(nodes, base, v, packing.Options{}), base: base}
}

// empty reports whether the named node runs no reschedulable pods,
// from the count the what-if keeps: O(1).
func (s *sim) empty(name string) bool {
	i := s.Index(name)
	return i < 0 || s.Movable(i) == 0
}

// reschedulable returns the pods of the named nodes that must move
// (packing.Pod.Reschedulable); daemonset, mirror and terminating pods go
// with their node.
func (s *sim) reschedulable(names []string) []packing.Pod {
	var pods []packing.Pod
	for _, name := range names {
		if i := s.Index(name); i >= 0 {
			for _, p := range s.Nodes()[i].Pods {
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
	nodes := slices.Clone(s.Nodes())
	for i := range nodes {
		nodes[i].MarkedForDeletion = nodes[i].MarkedForDeletion || !nodes[i].Initialized
	}
	for _, name := range names {
		if i := slices.IndexFunc(nodes, func(n packing.Node) bool { return n.Name == name }); i >= 0 {
			nodes[i].MarkedForDeletion, nodes[i].Pods = true, nil
		}
	}
	return s.Solve(pods, nodes)
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
		plan.NodeClaims[i].Name, k = disruption.ReplacementName(prefix+"-replacement", k+1, s.Taken)
	}
}

// apply commits a plan: the named nodes are marked for deletion and
// emptied, the bound pods join their nodes and the claims become in-flight
// nodes.
func (s *sim) apply(names []string, plan packing.Plan, pods []packing.Pod) {
	for _, name := range names {
		if i := s.Index(name); i >= 0 {
			s.Retire(i, nil)
		}
	}
	for _, b := range plan.Bindings {
		if i := s.Index(b.Node); i >= 0 {
			s.Bind(i, pods[b.Pod])
		}
	}
	for _, c := range plan.NodeClaims {
		s.Launch(s.inFlight(c, pods))
	}
}

// inFlight is the node a claim becomes while it launches.
func (s *sim) inFlight(c packing.NodeClaim, pods []packing.Pod) packing.Node {
	mine := make([]packing.Pod, 0, len(c.Pods))
	for _, p := range c.Pods {
		mine = append(mine, pods[p])
	}
	return c.InFlight(s.base.CatalogOf(c.NodePool), mine, time.Time{})
}
