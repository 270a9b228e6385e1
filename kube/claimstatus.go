package kube

import (
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// ClaimStatus is what Load reads of a karpenter.sh/v1 NodeClaim for drift:
// its metadata, the node it launched (status.nodeName), the image it
// launched with (status.imageID) and its Launched and Drifted conditions.
// The zero ClaimStatus is an unnamed claim of no node.
type ClaimStatus struct {
	Name         string
	CreationTime time.Time
	Labels       map[string]string
	Annotations  map[string]string
	NodeName     string
	ImageID      string
	// Launched is false when status.conditions has Launched with a status
	// other than True; a claim without the condition counts as launched.
	Launched bool
	// DriftedSince is the lastTransitionTime of a Drifted=True condition.
	DriftedSince time.Time
}

// nodeClaimManifest is the JSON of a NodeClaim as Load decodes it.
type nodeClaimManifest struct {
	Metadata metav1.ObjectMeta `json:"metadata"`
	Status   struct {
		NodeName   string             `json:"nodeName"`
		ImageID    string             `json:"imageID"`
		Conditions []metav1.Condition `json:"conditions"`
	} `json:"status"`
}

func (m *nodeClaimManifest) claim() ClaimStatus {
	c := ClaimStatus{Name: m.Metadata.Name, CreationTime: m.Metadata.CreationTimestamp.Time,
		Labels: m.Metadata.Labels, Annotations: m.Metadata.Annotations,
		NodeName: m.Status.NodeName, ImageID: m.Status.ImageID, Launched: true}
	for _, cond := range m.Status.Conditions {
		switch {
		case cond.Type == "Launched":
			c.Launched = cond.Status == metav1.ConditionTrue
		case cond.Type == "Drifted" && cond.Status == metav1.ConditionTrue:
			c.DriftedSince = cond.LastTransitionTime.Time
		}
	}
	return c
}

func (b *builder) nodeClaim(o *object) error {
	var m nodeClaimManifest
	if err := b.decode(o, &m); err != nil {
		return err
	}
	if err := checkLabels("metadata.labels", m.Metadata.Labels); err != nil {
		return wrapObject(o.errorf("", nil), err)
	}
	b.claims = append(b.claims, m.claim())
	return nil
}

func (b *builder) ec2NodeClass(o *object) error {
	var c EC2NodeClass
	if err := b.decode(o, &c); err != nil {
		return err
	}
	c.APIVersion, c.Kind = o.head.APIVersion, o.head.Kind // a typed list's item may omit them
	return b.addNodeClass(c)
}

func (b *builder) addNodeClass(c EC2NodeClass) error {
	if _, err := c.NodeClass(); err != nil {
		return err
	}
	b.nodeClasses = append(b.nodeClasses, c)
	return nil
}
