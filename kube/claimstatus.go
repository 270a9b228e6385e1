package kube

import (
	"fmt"
	"maps"
	"time"

	"github.com/nodeplan/nodeplan/instancetypes"
	"github.com/nodeplan/nodeplan/packing"
	"github.com/nodeplan/nodeplan/requirements"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// ClaimStatus is what Load reads of a karpenter.sh/v1 NodeClaim: its
// metadata, the node it launched (status.nodeName), its instance
// (status.providerID), the image it launched with (status.imageID), its
// Launched and Drifted conditions, whether it is being deleted, and the
// node in flight it stands for until its Node exists. The zero
// ClaimStatus is an unnamed claim of no node.
type ClaimStatus struct {
	Name         string
	CreationTime time.Time
	Labels       map[string]string
	Annotations  map[string]string
	NodeName     string
	ProviderID   string
	ImageID      string
	// Launched is false when status.conditions has Launched with a status
	// other than True; a claim without the condition counts as launched.
	Launched bool
	// DriftedSince is the lastTransitionTime of a Drifted=True condition.
	DriftedSince time.Time
	// Drifted says status.conditions has Drifted=True.
	Drifted bool
	// Deleting says metadata.deletionTimestamp is set: Karpenter takes its
	// node as being deleted.
	Deleting bool
	// InFlight is the claim as Karpenter's cluster state sees a NodeClaim
	// whose Node it does not have: named after the claim, not Initialized,
	// MarkedForDeletion when Deleting; labels the single-valued In
	// spec.requirements (but the hostname) under metadata.labels, which
	// win; its NodePool, instance type, zone and capacity type from them;
	// spec.taints less those matching (key and effect) spec.startupTaints;
	// allocatable status.allocatable (empty: see [Cluster.Problem]); no
	// pods. Price is left 0.
	InFlight packing.Node
}

// nodeClaimManifest is the JSON of a NodeClaim as Load decodes it. Its
// types are this package's, so the fields they lack are skipped.
type nodeClaimManifest struct {
	Metadata metav1.ObjectMeta `json:"metadata"`
	Spec     NodeClaimSpec     `json:"spec"`
	Status   nodeClaimStatus   `json:"status"`
}

// nodeClaimStatus is the part of a NodeClaim's status Load reads.
type nodeClaimStatus struct {
	NodeName    string              `json:"nodeName"`
	ProviderID  string              `json:"providerID"`
	ImageID     string              `json:"imageID"`
	Allocatable corev1.ResourceList `json:"allocatable"`
	Conditions  []metav1.Condition  `json:"conditions"`
}

func (m *nodeClaimManifest) claim() (ClaimStatus, error) {
	c := ClaimStatus{Name: m.Metadata.Name, CreationTime: m.Metadata.CreationTimestamp.Time,
		Labels: maps.Clone(m.Metadata.Labels), Annotations: maps.Clone(m.Metadata.Annotations),
		NodeName: m.Status.NodeName, ProviderID: m.Status.ProviderID, ImageID: m.Status.ImageID, Launched: true,
		Deleting: m.Metadata.DeletionTimestamp != nil}
	for _, cond := range m.Status.Conditions {
		switch {
		case cond.Type == "Launched":
			c.Launched = cond.Status == metav1.ConditionTrue
		case cond.Type == "Drifted" && cond.Status == metav1.ConditionTrue:
			c.DriftedSince, c.Drifted = cond.LastTransitionTime.Time, true
		}
	}
	var err error
	c.InFlight, err = m.inFlight()
	c.InFlight.MarkedForDeletion = c.Deleting
	return c, err
}

// inFlight converts the claim to a node in flight (see ClaimStatus.InFlight).
func (m *nodeClaimManifest) inFlight() (packing.Node, error) {
	labels, err := claimNodeLabels(m.Spec.Requirements, m.Metadata.Labels)
	if err != nil {
		return packing.Node{}, atField("spec.requirements", err)
	}
	out := packing.Node{Name: m.Metadata.Name, Labels: labels, Annotations: maps.Clone(m.Metadata.Annotations),
		NodePool: labels[requirements.LabelNodePool], InstanceType: label(labels, requirements.LabelInstanceType),
		Zone: label(labels, requirements.LabelZone), CreationTime: m.Metadata.CreationTimestamp.Time}
	if ct, ok := labels[requirements.LabelCapacityType]; ok {
		if out.CapacityType, err = instancetypes.ParseCapacityType(ct); err != nil {
			return out, atField("metadata.labels"+key(requirements.LabelCapacityType), err)
		}
	}
	if out.Allocatable, err = list(m.Status.Allocatable); err != nil {
		return out, atField("status.allocatable", err)
	}
	if out.Taints, err = taints(m.Spec.Taints); err != nil {
		return out, atField("spec.taints", err)
	}
	startup, err := taints(m.Spec.StartupTaints)
	if err != nil {
		return out, atField("spec.startupTaints", err)
	}
	out.Taints = withoutTaints(out.Taints, startup)
	return out, nil
}

// claimNodeLabels are the single-valued In requirements of rs but the
// hostname, under labels; as Karpenter's launch copies them to the claim's
// labels.
func claimNodeLabels(rs []Requirement, labels map[string]string) (map[string]string, error) {
	out := map[string]string{}
	for i, r := range rs {
		x, err := poolRequirement(r)
		if err != nil {
			return nil, atField(fmt.Sprintf("[%d]", i), err)
		}
		if x.Operator() == requirements.In && x.Len() == 1 && x.Key() != requirements.LabelHostname {
			out[x.Key()] = x.Values()[0]
		}
	}
	maps.Copy(out, labels)
	return out, nil
}

func (m *nodeClaimManifest) id() (ns, name string) { return m.Metadata.Namespace, m.Metadata.Name }

func (b *builder) addNodeClaim(m *nodeClaimManifest, _ *object) error {
	if err := checkLabels("metadata.labels", m.Metadata.Labels); err != nil {
		return wrap(KindNodeClaim, "", m.Metadata.Name, err)
	}
	c, err := m.claim()
	if err != nil {
		return wrap(KindNodeClaim, "", m.Metadata.Name, err)
	}
	b.claims = append(b.claims, c)
	return nil
}

func (c *EC2NodeClass) id() (ns, name string) { return c.Metadata.Namespace, c.Metadata.Name }

func (b *builder) addNodeClass(c *EC2NodeClass, _ *object) error {
	class := *c
	class.APIVersion, class.Kind = KarpenterAWSAPIVersion, KindEC2NodeClass // a typed list's item may omit them
	if _, err := class.NodeClass(); err != nil {
		return err
	}
	b.nodeClasses = append(b.nodeClasses, class)
	return nil
}
