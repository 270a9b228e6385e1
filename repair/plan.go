package repair

import (
	"errors"
	"fmt"
	"slices"

	"github.com/nodeplan/nodeplan/disruption"
	"github.com/nodeplan/nodeplan/instancetypes"
	"github.com/nodeplan/nodeplan/internal/vouch"
	"github.com/nodeplan/nodeplan/packing"
)

// ReplacementPrefix starts the name of every NodeClaim [Plan] launches:
// "repair-replacement-<k>", k from 1, skipping the names of the cluster's
// nodes (disruption.ReplacementName).
const ReplacementPrefix = "repair-replacement"

// Cluster is the snapshot a replacement plan is made on: the nodes with
// their bound pods (in flight and being deleted ones included, as
// packing reads them), the NodePools, the catalog and the daemonsets. It
// holds no pending pods: [Plan] plans the repaired nodes' pods alone.
// Plan does not modify it.
type Cluster struct {
	Nodes      []packing.Node
	NodePools  []packing.NodePool
	Catalog    *instancetypes.Catalog
	DaemonSets []packing.DaemonSet
}

// Move is where the pods of one repaired node go.
type Move struct {
	Node string
	// Homes are the node's reschedulable pods, in the node's pod order,
	// each with its new node, a replacement NodeClaim or, when none can
	// take it, why (repair is forceful: the node goes anyway).
	Homes []disruption.Home
}

// Replacement is the plan [Plan] returns: the repaired nodes gone, their
// pods' new homes and the NodeClaims launched for them.
type Replacement struct {
	// Moves are one per Repair of the Result, in its order.
	Moves []Move
	// NodeClaims are the replacements, named from [ReplacementPrefix].
	NodeClaims []packing.NodeClaim
	// Price is the replacements' summed hourly price.
	Price instancetypes.Price
	// Problem and Solution are the provisioning the plan came from: the
	// displaced pods pending on the cluster with the repaired nodes marked
	// for deletion and emptied, and its solution (Solution.NodeClaims are
	// NodeClaims). packing/verify's Plan checks them.
	Problem  packing.Problem
	Solution packing.Plan
}

// Plan returns where the pods of the nodes res replaces go, as
// Karpenter's provisioner places them once the repair deleted their
// NodeClaims: every node of res.Replace is marked for deletion and emptied
// at once (repair is forceful and not budgeted, so all go together), and
// their reschedulable pods (packing.Pod.Reschedulable; do-not-disrupt and
// PodDisruptionBudgets do not hold a repair back) are solved for on the
// rest of the cluster with packing's provisioning, through the what-if
// consolidation and drift share (disruption.WhatIf). Other nodes are taken
// as given: a node kept while its toleration runs, or in flight, may take
// pods unless a taint keeps them off (the node lifecycle controller taints
// a NotReady node node.kubernetes.io/not-ready or unreachable).
//
// A Repair naming no node of cl, or two naming one node, is an error
// wrapping [ErrInvalidInput]; an error of packing's (an invalid cluster)
// is returned as it is. Plan does not modify res or cl. Its cost is one
// packing.Solve over the displaced pods and O(nodes) besides.
func Plan(res Result, cl Cluster) (Replacement, error) {
	w := disruption.NewWhatIf(cl.Nodes, packing.Problem{NodePools: cl.NodePools, Catalog: cl.Catalog, DaemonSets: cl.DaemonSets},
		vouch.Nodes{}, packing.Options{})
	at, err := locate(res.Replace, w)
	if err != nil {
		return Replacement{}, err
	}
	var pods []packing.Pod
	for _, i := range at {
		on := w.Nodes()[i].Pods
		for j := range on {
			if on[j].Reschedulable() {
				pods = append(pods, on[j])
			}
		}
	}
	for _, i := range at {
		w.Retire(i, nil)
	}
	nodes := slices.Clone(w.Nodes())
	sol, err := w.Solve(pods, nodes)
	if err != nil {
		return Replacement{}, err
	}
	name(&sol, w)
	out := Replacement{NodeClaims: sol.NodeClaims, Price: sol.Price, Solution: sol,
		Problem: packing.Problem{Pods: pods, Nodes: nodes, NodePools: cl.NodePools, Catalog: cl.Catalog, DaemonSets: cl.DaemonSets}}
	out.Moves = moves(res.Replace, cl.Nodes, at, disruption.Homes(sol, pods))
	return out, nil
}

// locate returns the index in w of each repaired node, or every problem.
func locate(rs []Repair, w *disruption.WhatIf) ([]int, error) {
	at := make([]int, len(rs))
	seen := make(map[string]bool, len(rs))
	var errs []error
	for k, r := range rs {
		at[k] = w.Index(r.Node)
		switch {
		case at[k] < 0:
			errs = append(errs, &InputError{Where: fmt.Sprintf("replace[%d]", k), Problem: fmt.Sprintf("node %q is not in the cluster", r.Node)})
		case seen[r.Node]:
			errs = append(errs, &InputError{Where: fmt.Sprintf("replace[%d]", k), Problem: fmt.Sprintf("node %q repaired twice", r.Node)})
		}
		seen[r.Node] = true
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	return at, nil
}

// name names the solution's claims "repair-replacement-<k>", never a
// node's name.
func name(sol *packing.Plan, w *disruption.WhatIf) {
	sol.NodeClaims = slices.Clone(sol.NodeClaims)
	k := 0
	for i := range sol.NodeClaims {
		sol.NodeClaims[i].Name, k = disruption.ReplacementName(ReplacementPrefix, k+1, w.Taken)
	}
}

// moves splits the homes, in the order the pods were gathered, by
// repaired node.
func moves(rs []Repair, nodes []packing.Node, at []int, hs []disruption.Home) []Move {
	out := make([]Move, len(rs))
	for k, r := range rs {
		n, on := 0, nodes[at[k]].Pods
		for j := range on {
			if on[j].Reschedulable() {
				n++
			}
		}
		out[k] = Move{Node: r.Node, Homes: hs[:n:n]}
		hs = hs[n:]
	}
	return out
}
