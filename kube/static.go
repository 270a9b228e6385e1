package kube

import (
	"fmt"
	"slices"
	"time"

	"github.com/nodeplan/nodeplan/instancetypes"
	"github.com/nodeplan/nodeplan/packing"
	"github.com/nodeplan/nodeplan/requirements"
	"github.com/nodeplan/nodeplan/static"
	karpv1 "sigs.k8s.io/karpenter/pkg/apis/v1"
)

// DisruptedTaint reports whether a taint of key and effect is the
// karpenter.sh/disrupted NoSchedule taint Karpenter puts on a node a
// disruption command has taken (karpv1.DisruptedNoScheduleTaint), matched
// as Karpenter's MatchTaint does: key and effect.
func DisruptedTaint(key, effect string) bool {
	return key == karpv1.DisruptedTaintKey && effect == string(karpv1.DisruptedNoScheduleTaint.Effect)
}

// Static reports whether np is a static NodePool: spec.replicas is set.
func (np *NodePool) Static() bool { return np.Spec.Replicas != nil }

// Static returns the input of static.Decide for c on the catalog at now:
// every NodePool with spec.replicas as a static.Pool (converted as
// [Cluster.Problem] converts it, with its own catalog; NotReady from its
// Ready condition or its EC2NodeClass's; Deleting from
// metadata.deletionTimestamp), and every NodeClaim of those pools
// (karpenter.sh/nodepool label) as a static.Claim: Resolved when it has a
// status.providerID; Deleting when it or its Node has a deletionTimestamp;
// Drifted from its Drifted=True condition; PendingDisruption when its Node
// carries the karpenter.sh/disrupted taint and is not being deleted, as
// Karpenter taints the nodes a disruption command has taken; its Node the
// one [Cluster.Problem] joins it to, with its pods, else the claim as a
// node in flight (no pods, not initialized), with the NodeClaim's
// creationTimestamp, from which Karpenter runs its lifetime. Nodes of a
// static pool without a NodeClaim are not counted, as Karpenter's
// NodePoolState counts NodeClaims. The PodDisruptionBudgets are c's.
//
// Errors are those of [Cluster.Problem]. Static does not modify c.
// O(pools + claims × nodes).
func (c *Cluster) Static(cat *instancetypes.Catalog, now time.Time) (static.Input, error) {
	p, err := c.problem(cat)
	if err != nil {
		return static.Input{}, err
	}
	in := static.Input{Catalog: cat, PDBs: c.DisruptionPDBs(), Now: now}
	pools := map[string]bool{}
	for i := range c.NodePools {
		np := &c.NodePools[i]
		if !np.Static() {
			continue
		}
		notReady, err := c.staticNotReady(np)
		if err != nil {
			return static.Input{}, c.locate(err)
		}
		pools[np.Metadata.Name] = true
		in.Pools = append(in.Pools, static.Pool{NodePool: p.NodePools[i], Replicas: *np.Spec.Replicas,
			NotReady: notReady, Deleting: np.Metadata.DeletionTimestamp != nil})
	}
	for i := range c.NodeClaims {
		nc := &c.NodeClaims[i]
		if pool := nc.Labels[requirements.LabelNodePool]; pools[pool] {
			in.Claims = append(in.Claims, c.staticClaim(nc, pool, p.Nodes))
		}
	}
	return in, nil
}

// staticNotReady says why np is not Ready: its Ready condition, else its
// EC2NodeClass's (Karpenter's NodePool Ready folds in NodeClassReady).
// The error is an EC2NodeClass defined twice.
func (c *Cluster) staticNotReady(np *NodePool) (string, error) {
	if why := notReady(np.Status.Conditions); why != "" {
		return why, nil
	}
	ref := np.Spec.Template.Spec.NodeClassRef
	if ref == nil || ref.Kind != KindEC2NodeClass {
		return "", nil
	}
	class, err := c.nodeClass(ref.Name)
	if err != nil || class == nil {
		return "", err
	}
	if why := notReady(class.Status.Conditions); why != "" {
		return fmt.Sprintf("EC2NodeClass %s %s", ref.Name, why), nil
	}
	return "", nil
}

// staticClaim converts nc, of static pool, joined to its node among nodes
// (the problem's, MarkedForDeletion set from the claims).
func (c *Cluster) staticClaim(nc *ClaimStatus, pool string, nodes []packing.Node) static.Claim {
	out := static.Claim{Name: nc.Name, NodePool: pool, Resolved: nc.ProviderID != "", Deleting: nc.Deleting, Drifted: nc.Drifted}
	if j := c.claimNode(nc); j >= 0 {
		out.Node = nodes[j]
		out.Deleting = out.Deleting || out.Node.MarkedForDeletion
		out.PendingDisruption = !out.Deleting && slices.ContainsFunc(out.Node.Taints, func(t requirements.Taint) bool {
			return DisruptedTaint(t.Key, t.Effect.String())
		})
	} else if out.Resolved {
		out.Node = nc.InFlight
	}
	if !nc.CreationTime.IsZero() {
		out.Node.CreationTime = nc.CreationTime
	}
	return out
}
