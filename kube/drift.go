package kube

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/nodeplan/nodeplan/drift"
	"github.com/nodeplan/nodeplan/instancetypes"
	"github.com/nodeplan/nodeplan/packing"
)

// Annotations drift reads from a NodeClaim, or failing it from its Node.
// Karpenter records the NodePool hash on both; the AWS provider records the
// EC2NodeClass hash on the NodeClaim. The image comes from the NodeClaim's
// status.imageID, else from AnnotationImageID. The subnet and security
// groups of an instance are not in any Kubernetes object, so nodeplan reads
// them from its own annotations.
const (
	AnnotationNodePoolHash         = "karpenter.sh/nodepool-hash"
	AnnotationNodePoolHashVersion  = "karpenter.sh/nodepool-hash-version"
	AnnotationNodeClassHash        = "karpenter.k8s.aws/ec2nodeclass-hash"
	AnnotationNodeClassHashVersion = "karpenter.k8s.aws/ec2nodeclass-hash-version"
	AnnotationImageID              = "nodeplan.io/image-id"
	AnnotationSubnetID             = "nodeplan.io/subnet-id"
	// AnnotationSecurityGroupIDs is a comma-separated list.
	AnnotationSecurityGroupIDs = "nodeplan.io/security-group-ids"
)

// Drift returns the drift snapshot of c on the catalog: one
// drift.NodeClaimState per Node, joined to the NodeClaim whose
// status.nodeName names it, the NodePools as drift.Templates (template
// annotations and nodeClassRef included), the EC2NodeClasses converted by
// [EC2NodeClass.NodeClass], daemonsets and PodDisruptionBudgets. Hashes
// recorded by Karpenter itself carry its own hash versions, which differ
// from drift.HashVersion, so only hashes nodeplan wrote are compared.
// Its Now is zero: the caller sets the moment the snapshot stands for
// (drift.Input.Now).
//
// Warnings name the NodeClaims with no Node in the manifests (skipped).
// Errors are *ObjectError values, in a *DocumentError naming the file and
// document of an object Load read. Drift does not modify c. O(nodes ×
// claims + pools + classes).
func (c *Cluster) Drift(cat *instancetypes.Catalog) (drift.Cluster, []string, error) {
	p, err := c.problem(cat) // deleting nodes keep their pods; no node in flight
	if err != nil {
		return drift.Cluster{}, nil, err
	}
	out := drift.Cluster{Input: drift.Input{Catalog: cat, NodeClasses: map[string]drift.NodeClass{}},
		DaemonSets: p.DaemonSets, PDBs: c.DisruptionPDBs()}
	for i := range c.NodeClasses {
		nc, err := c.NodeClasses[i].NodeClass()
		if err != nil {
			return drift.Cluster{}, nil, c.locate(err)
		}
		if _, dup := out.NodeClasses[nc.Name]; dup {
			return drift.Cluster{}, nil, c.locate(&ObjectError{Kind: KindEC2NodeClass, Name: nc.Name, Field: "metadata.name", Err: fmt.Errorf("%w: duplicate", ErrInvalid)})
		}
		out.NodeClasses[nc.Name] = nc
	}
	for i, np := range p.NodePools {
		out.NodePools = append(out.NodePools, template(np, &c.NodePools[i]))
	}
	for i := range p.Nodes {
		out.Nodes = append(out.Nodes, c.state(p.Nodes[i]))
	}
	return out, c.orphanClaims(), nil
}

func template(np packing.NodePool, src *NodePool) drift.Template {
	t := drift.Template{NodePool: np, Annotations: src.Spec.Template.Metadata.Annotations}
	if ref := src.Spec.Template.Spec.NodeClassRef; ref != nil {
		t.NodeClassRef = drift.NodeClassRef{Group: ref.Group, Kind: ref.Kind, Name: ref.Name}
	}
	return t
}

// state joins a node to its NodeClaim.
func (c *Cluster) state(n packing.Node) drift.NodeClaimState {
	var claim ClaimStatus
	claim.Launched = true
	if i := slices.IndexFunc(c.NodeClaims, func(nc ClaimStatus) bool { return nc.NodeName == n.Name }); i >= 0 {
		claim = c.NodeClaims[i]
	}
	get := func(key string) string {
		if v := claim.Annotations[key]; v != "" {
			return v
		}
		return n.Annotations[key]
	}
	s := drift.NodeClaimState{Node: n, CreationTime: claim.CreationTime,
		NodePoolHash: get(AnnotationNodePoolHash), NodePoolHashVersion: get(AnnotationNodePoolHashVersion),
		Image: cmpOr(claim.ImageID, get(AnnotationImageID)), Subnet: get(AnnotationSubnetID),
		SecurityGroups: splitList(get(AnnotationSecurityGroupIDs)),
		NodeClassHash:  get(AnnotationNodeClassHash), NodeClassHashVersion: get(AnnotationNodeClassHashVersion),
		DriftedSince: claim.DriftedSince, Unlaunched: !claim.Launched}
	for i := range n.Pods {
		key := n.Pods[i].Key()
		if g, ok := c.PodGracePeriods[key]; ok {
			if s.PodGracePeriods == nil {
				s.PodGracePeriods = map[string]time.Duration{}
			}
			s.PodGracePeriods[key] = g
		}
	}
	return s
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

func splitList(s string) []string {
	var out []string
	for _, v := range strings.Split(s, ",") {
		if v = strings.TrimSpace(v); v != "" {
			out = append(out, v)
		}
	}
	return out
}

func (c *Cluster) orphanClaims() []string {
	var l skipLog
	for _, nc := range c.NodeClaims {
		if !slices.ContainsFunc(c.Nodes, func(n packing.Node) bool { return n.Name == nc.NodeName && nc.NodeName != "" }) {
			l.add("NodeClaim", "their node is not in the input", fmt.Sprintf("%s (node %q)", nc.Name, nc.NodeName))
		}
	}
	return l.lines()
}
