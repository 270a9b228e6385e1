package kube

import (
	"fmt"
	"strings"
)

// Condition is a status condition as Karpenter writes them
// (status.conditions of a NodePool or an EC2NodeClass): its type and
// status ("True", "False" or "Unknown") and why. Other fields are ignored.
type Condition struct {
	Type    string `json:"type"`
	Status  string `json:"status"`
	Reason  string `json:"reason,omitempty"`
	Message string `json:"message,omitempty"`
}

// conditionReady is the type of the condition that says an object is Ready.
const conditionReady = "Ready"

// notReady describes conds's Ready condition when it is not True
// ("Ready=False, SubnetsNotFound: …"), else returns "". Without a Ready
// condition (an object applied from Git, with no status) the object is
// taken as Ready: nodeplan answers what-if questions.
func notReady(conds []Condition) string {
	for _, c := range conds {
		if c.Type != conditionReady || c.Status == "True" {
			continue
		}
		if why := strings.Join(nonEmpty(c.Reason, c.Message), ": "); why != "" {
			return c.Type + "=" + c.Status + ", " + why
		}
		return c.Type + "=" + c.Status
	}
	return ""
}

func nonEmpty(s ...string) []string {
	var out []string
	for _, v := range s {
		if v != "" {
			out = append(out, v)
		}
	}
	return out
}

// unavailable says why Karpenter provisions nothing from np: np, or the
// EC2NodeClass of c it names, is not Ready; "" when it does.
func (c *Cluster) unavailable(np *NodePool) string {
	if why := notReady(np.Status.Conditions); why != "" {
		return fmt.Sprintf("it is not Ready (%s), so Karpenter provisions nothing from it", why)
	}
	ref := np.Spec.Template.Spec.NodeClassRef
	if ref == nil || ref.Kind != KindEC2NodeClass {
		return ""
	}
	class, _ := c.nodeClass(ref.Name)
	if class == nil {
		return ""
	}
	if why := notReady(class.Status.Conditions); why != "" {
		return fmt.Sprintf("its EC2NodeClass %s is not Ready (%s), so Karpenter provisions nothing from it", ref.Name, why)
	}
	return ""
}

// nodeClassWarnings returns one warning for each NodePool of c that launches
// nothing because it or its EC2NodeClass is not Ready, and for each whose
// EC2NodeClass nodeplan assumes: absent from the manifests, or without
// status.subnets (applied from Git), so that its zones are the catalog's.
func (c *Cluster) nodeClassWarnings() []string {
	var out []string
	for i := range c.NodePools {
		np := &c.NodePools[i]
		if why := c.unavailable(np); why != "" {
			out = append(out, fmt.Sprintf("NodePool %s launches no node: %s", np.Metadata.Name, why))
			continue
		}
		ref := np.Spec.Template.Spec.NodeClassRef
		if ref == nil || ref.Kind != KindEC2NodeClass {
			continue
		}
		const assumed = "nodeplan, a what-if tool, plans the pool as if the class were Ready"
		const zones = "in the catalog's zones (--zones, else the region's defaults)"
		switch class, _ := c.nodeClass(ref.Name); {
		case class == nil:
			out = append(out, fmt.Sprintf("NodePool %s: its EC2NodeClass %s is not in the input: %s, with no kubelet settings, %s",
				np.Metadata.Name, ref.Name, assumed, zones))
		case len(class.Status.Subnets) == 0:
			out = append(out, fmt.Sprintf("NodePool %s: its EC2NodeClass %s has no status.subnets: %s, %s",
				np.Metadata.Name, ref.Name, assumed, zones))
		}
	}
	return out
}
