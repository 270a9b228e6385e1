package kube

import (
	"errors"
	"time"

	"github.com/nodeplan/nodeplan/consolidation"
	disrupt "github.com/nodeplan/nodeplan/disruption"
	"github.com/nodeplan/nodeplan/instancetypes"
	"github.com/nodeplan/nodeplan/packing"
)

// Consolidation returns the consolidation snapshot of c at now on the
// catalog: the nodes with their pods priced as in [Cluster.Problem], the
// converted NodePools (disruption settings included), daemonsets, pending
// pods (the ready CapacityBuffers' virtual pods last, as Karpenter's
// simulations take them) and PodDisruptionBudgets. A node's last pod event is read as the
// newest creationTimestamp of its bound pods, if later than the node's
// own (manifests do not record when pods left a node); nothing is
// nominated. Nodes in flight and deleting nodes are read as in Problem,
// but the pods of deleting nodes stay on them (consolidation plans them
// again itself). Errors are those of Problem.
//
// Consolidation does not modify c; the snapshot shares c's pods. O(nodes ×
// offerings + pods + pools + PDBs).
func (c *Cluster) Consolidation(cat *instancetypes.Catalog, now time.Time) (consolidation.Cluster, error) {
	p, err := c.problem(cat)
	if err == nil {
		err = c.addInFlight(&p)
	}
	if err != nil {
		return consolidation.Cluster{}, err
	}
	p = c.withBuffers(p) // Karpenter's virtual pods are pending pods to its simulations
	out := consolidation.Cluster{Nodes: p.Nodes, NodePools: p.NodePools, Catalog: cat, Pending: p.Pods,
		DaemonSets: p.DaemonSets, PDBs: c.DisruptionPDBs(), Now: now}
	for i := range p.Nodes {
		if t, ok := lastPodEvent(&p.Nodes[i]); ok {
			if out.LastPodEvent == nil {
				out.LastPodEvent = map[string]time.Time{}
			}
			out.LastPodEvent[p.Nodes[i].Name] = t
		}
	}
	return out, nil
}

func lastPodEvent(n *packing.Node) (time.Time, bool) {
	last := n.CreationTime
	for _, p := range n.Pods {
		if p.CreationTime.After(last) {
			last = p.CreationTime
		}
	}
	return last, last.After(n.CreationTime)
}

// DisruptionPDBs converts the PodDisruptionBudgets for package disruption.
// It allocates the result.
func (c *Cluster) DisruptionPDBs() []disrupt.PDB {
	var out []disrupt.PDB
	for _, b := range c.PodDisruptionBudgets {
		out = append(out, disrupt.PDB{Namespace: b.Namespace, Name: b.Name, Selector: b.Selector,
			DisruptionsAllowed: b.DisruptionsAllowed, AlwaysAllowUnhealthy: b.AlwaysAllowUnhealthy})
	}
	return out
}

// ErrNoTimestamp is returned by [Cluster.Newest] when no object of the
// cluster has a creationTimestamp.
var ErrNoTimestamp = errors.New("no creationTimestamp in the input")

// Newest returns the newest creationTimestamp among the nodes, their pods,
// the pending pods and the NodeClaims: the instant nodeplan consolidate
// and drift take as now when --now is not given, so that the same
// manifests always give the same answer. O(objects).
func (c *Cluster) Newest() (time.Time, error) {
	var t time.Time
	later := func(u time.Time) {
		if u.After(t) {
			t = u
		}
	}
	for i := range c.Nodes {
		later(c.Nodes[i].CreationTime)
		for _, p := range c.Nodes[i].Pods {
			later(p.CreationTime)
		}
	}
	for _, p := range c.Pods {
		later(p.CreationTime)
	}
	for _, nc := range c.NodeClaims {
		later(nc.CreationTime)
	}
	if t.IsZero() {
		return t, ErrNoTimestamp
	}
	return t, nil
}
