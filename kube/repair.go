package kube

import (
	"fmt"
	"slices"
	"time"

	"github.com/nodeplan/nodeplan/instancetypes"
	"github.com/nodeplan/nodeplan/repair"
	corev1 "k8s.io/api/core/v1"
)

// nodeConditions keeps the status.conditions of each Node, by name.
func nodeConditions(nodes []corev1.Node) map[string][]corev1.NodeCondition {
	out := make(map[string][]corev1.NodeCondition, len(nodes))
	for i := range nodes {
		if len(nodes[i].Status.Conditions) > 0 {
			out[nodes[i].Name] = nodes[i].Status.Conditions
		}
	}
	return out
}

// Repair returns what node repair reads of c at now under policies (nil
// or empty: the AWS provider's, [repair.AWSPolicies], as repair.Decide
// reads them), one repair.Node per Node of c, in c's order:
//   - its NodePool is the Node's karpenter.sh/nodepool label;
//   - its conditions are those of the Node's status.conditions
//     ([Cluster.NodeConditions]) whose type a policy names, in order,
//     with their status and lastTransitionTime (the others cannot decide
//     anything, so a hand-written condition of another type needs no
//     time);
//   - it is Unmanaged when no NodeClaim of c is its (one whose
//     status.nodeName names it, or whose status.providerID is its
//     spec.providerID), as Karpenter repairs only the nodes of its
//     NodeClaims, and Deleting when its NodeClaim has a deletionTimestamp.
//
// Karpenter finds a node's NodeClaim by providerID alone and leaves a node
// two NodeClaims claim alone (a duplicate error it ignores); nodeplan joins
// by status.nodeName too, as its other commands do, and reads such a node
// as managed, Deleting when one of its claims is.
//
// A condition a policy names whose status is not True, False or Unknown,
// or that has no lastTransitionTime, is an *ObjectError naming the Node
// and status.conditions[i] (in a *DocumentError naming the file when Load
// read it): nodeplan does not guess when a node turned unhealthy. Repair
// does not modify c. O(nodes × conditions × policies + claims).
func (c *Cluster) Repair(now time.Time, policies []repair.Policy) (repair.Input, error) {
	in := repair.Input{Policies: policies, Now: now, Nodes: make([]repair.Node, len(c.Nodes))}
	if len(policies) == 0 {
		policies = repair.AWSPolicies()
	}
	for i := range c.Nodes {
		in.Nodes[i] = repair.Node{Name: c.Nodes[i].Name, NodePool: c.Nodes[i].NodePool, Unmanaged: true}
		var err error
		if in.Nodes[i].Conditions, err = repairConditions(c.NodeConditions[c.Nodes[i].Name], policies); err != nil {
			return repair.Input{}, c.locate(wrap("Node", "", c.Nodes[i].Name, err))
		}
	}
	for i := range c.NodeClaims {
		if j := c.claimNode(&c.NodeClaims[i]); j >= 0 {
			in.Nodes[j].Unmanaged = false
			in.Nodes[j].Deleting = in.Nodes[j].Deleting || c.NodeClaims[i].Deleting
		}
	}
	return in, nil
}

// repairConditions converts the conditions whose type a policy names.
func repairConditions(conds []corev1.NodeCondition, policies []repair.Policy) ([]repair.Condition, error) {
	var out []repair.Condition
	for i, cond := range conds {
		if !slices.ContainsFunc(policies, func(p repair.Policy) bool { return p.ConditionType == string(cond.Type) }) {
			continue
		}
		st, err := repair.ParseStatus(string(cond.Status))
		if err != nil {
			return nil, atField(fmt.Sprintf("status.conditions[%d].status", i), fmt.Errorf("%w: %q is not True, False or Unknown", ErrInvalid, cond.Status))
		}
		if cond.LastTransitionTime.IsZero() {
			return nil, atField(fmt.Sprintf("status.conditions[%d].lastTransitionTime", i),
				fmt.Errorf("%w: missing on a %s condition, which a repair policy reads", ErrInvalid, cond.Type))
		}
		out = append(out, repair.Condition{Type: string(cond.Type), Status: st, LastTransitionTime: cond.LastTransitionTime.UTC()})
	}
	return out, nil
}

// RepairCluster returns the cluster repair.Plan plans the repaired nodes'
// pods on: c's nodes priced on the catalog as [Cluster.Problem] prices
// them, the nodes in flight after them, nodes being deleted with their
// pods (they take none), NodePools and daemonsets; no pending pods.
// Errors are Problem's. RepairCluster does not modify c.
func (c *Cluster) RepairCluster(cat *instancetypes.Catalog) (repair.Cluster, error) {
	p, err := c.problem(cat)
	if err == nil {
		err = c.addInFlight(&p)
	}
	if err != nil {
		return repair.Cluster{}, err
	}
	return repair.Cluster{Nodes: p.Nodes, NodePools: p.NodePools, Catalog: p.Catalog, DaemonSets: p.DaemonSets}, nil
}
