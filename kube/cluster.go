package kube

import (
	"cmp"
	"errors"
	"fmt"
	"slices"

	"github.com/nodeplan/nodeplan/instancetypes"
	"github.com/nodeplan/nodeplan/packing"
	"github.com/nodeplan/nodeplan/requirements"
)

// Problem returns the provisioning problem of c on the catalog: its
// pending pods, converted NodePools, daemonsets, and its nodes priced at
// the offering of their instance type, zone and capacity type in their
// NodePool's catalog, else in cat (a node in a zone its EC2NodeClass no
// longer lists). A node without that offering, or without the
// node.kubernetes.io/instance-type, topology.kubernetes.io/zone or
// karpenter.sh/capacity-type label (or an EKS managed node group's
// eks.amazonaws.com/capacityType, [FromNode]), has packing.Node.PriceUnknown set and
// Price 0; [PriceWarnings] says why.
//
// A NodePool whose EC2NodeClass of c has spec.kubelet settings, or that
// was converted from karpenter.sh/v1beta1 with its own, is offered the
// catalog under them ([instancetypes.Catalog.WithKubelet]; see "Kubelet
// settings" in the package doc). A NodePool that is not Ready, or whose
// nodeClassRef names an
// EC2NodeClass of c that is not Ready (status.conditions Ready not True),
// launches nothing, as Karpenter provisions from no such pool: its
// packing.NodePool gets Unavailable saying why. A NodePool whose
// nodeClassRef names an EC2NodeClass of c with zones in
// its status.subnets is offered in those zones only, as Karpenter offers a
// NodeClass's types in the zones of its subnets: its packing.NodePool gets
// the catalog moved to them ([instancetypes.Catalog.WithZones]). Other
// pools keep the catalog's zones (--zones or the region's defaults). A
// subnet zone outside the catalog's region, or missing, is an
// *ObjectError naming the EC2NodeClass and status.subnets[i].zone. Errors
// are *ObjectError values, joined.
//
// Nodes being deleted are read as Karpenter's cluster state reads them: a
// Node with a deletionTimestamp, or whose NodeClaim (the one whose
// status.nodeName names it, or whose status.providerID is its
// spec.providerID) has one, is MarkedForDeletion. As Karpenter's
// provisioner does, Problem plans the reschedulable pods of such a node
// again: they join the pending pods (after c's, in node order) and the
// node keeps the rest (daemonset pods) and takes no pod.
//
// A NodeClaim with a status.providerID and no Node in c (none named by
// its status.nodeName, none with its providerID) is a node in flight, as
// Karpenter's cluster state keeps it: its [ClaimStatus].InFlight, priced
// like any node, is added after c's nodes; pending pods may be placed on
// it. One whose status.nodeName names a Node absent from the manifests is
// read the same way (its pods, bound to that absent Node, are skipped by
// Load with a warning). A claim without a status.providerID is not
// launched and adds nothing, as in Karpenter. An in-flight claim with an
// empty status.allocatable gets its instance type's allocatable in its
// NodePool's catalog; without one it is an *ObjectError naming the
// NodeClaim and status.allocatable.
//
// Problem does not modify c; the problem shares c's pods and nodes' pod
// slices, which packing does not modify either. An error about an object
// Load read is a *DocumentError naming its file and document. O(nodes ×
// (offerings + claims) + pods + pools + classes × catalog).
func (c *Cluster) Problem(cat *instancetypes.Catalog) (packing.Problem, error) {
	p, err := c.problem(cat)
	if err != nil {
		return p, err
	}
	if err := c.addInFlight(&p); err != nil {
		return p, err
	}
	return c.withBuffers(replanDeleting(p)), nil
}

// problem is the problem of c without its nodes in flight and with the
// pods of deleting nodes still on them.
func (c *Cluster) problem(cat *instancetypes.Catalog) (packing.Problem, error) {
	p := packing.Problem{Pods: c.Pods, Catalog: cat, DaemonSets: c.DaemonSets}
	var errs []error
	cached := map[string]*instancetypes.Catalog{} // by "EC2NodeClass name" or "NodePool name"
	for i := range c.NodePools {
		np, err := FromNodePool(&c.NodePools[i])
		errs = append(errs, c.locate(err))
		if np.Unavailable == "" {
			np.Unavailable = c.unavailable(&c.NodePools[i])
		}
		np.Catalog, err = c.poolCatalog(cat, &c.NodePools[i], cached)
		errs = append(errs, c.locate(err))
		p.NodePools = append(p.NodePools, np)
	}
	errs = append(errs, c.applyOverlays(&p))
	p.Nodes = slices.Clone(c.Nodes)
	for i := range p.Nodes {
		var err error
		p.Nodes[i].Price, err = nodePrice(&p, &p.Nodes[i])
		p.Nodes[i].PriceUnknown = err != nil
	}
	for i := range c.NodeClaims {
		if j := c.claimNode(&c.NodeClaims[i]); j >= 0 && c.NodeClaims[i].Deleting {
			p.Nodes[j].MarkedForDeletion = true
		}
	}
	return p, errors.Join(errs...)
}

// claimNode returns the index in c.Nodes of the Node of nc: the one its
// status.nodeName names, else the one with its providerID; -1 for none.
func (c *Cluster) claimNode(nc *ClaimStatus) int {
	name := c.claimNodeName(nc)
	if name == "" {
		return -1
	}
	return slices.IndexFunc(c.Nodes, func(n packing.Node) bool { return n.Name == name })
}

// claimNodeName is the name of nc's Node, from its status or, without one,
// its provider ID; "" when neither names one.
func (c *Cluster) claimNodeName(nc *ClaimStatus) string {
	if byID, ok := c.nodeIDs[nc.ProviderID]; ok && nc.ProviderID != "" && nc.NodeName == "" {
		return byID
	}
	return nc.NodeName
}

// addInFlight appends to p the claims of c launched without a Node in c,
// priced and with their allocatable (see [Cluster.Problem]).
func (c *Cluster) addInFlight(p *packing.Problem) error {
	var errs []error
	for i := range c.NodeClaims {
		nc := &c.NodeClaims[i]
		if nc.ProviderID == "" || c.claimNode(nc) >= 0 {
			continue
		}
		n := nc.InFlight
		if n.Allocatable.IsZero() {
			var t *instancetypes.InstanceType
			ok := false
			if cat := p.CatalogOf(n.NodePool); cat != nil {
				t, ok = cat.Get(n.InstanceType)
			}
			if !ok {
				errs = append(errs, c.locate(&ObjectError{Kind: KindNodeClaim, Name: nc.Name, Field: "status.allocatable",
					Err: fmt.Errorf("%w: empty, and the catalog has no instance type %q to take it from", ErrInvalid, n.InstanceType)}))
				continue
			}
			n.Allocatable = t.Allocatable
		}
		var err error
		n.Price, err = nodePrice(p, &n)
		n.PriceUnknown = err != nil
		p.Nodes = append(p.Nodes, n)
	}
	return errors.Join(errs...)
}

// replanDeleting returns p with the reschedulable pods of its nodes marked
// for deletion moved to its pending pods, as Karpenter's provisioner
// schedules the pods of deleting nodes again. p's slices are not modified.
func replanDeleting(p packing.Problem) packing.Problem {
	var moved []packing.Pod
	cloned := false
	for i := range p.Nodes {
		if !p.Nodes[i].MarkedForDeletion || !slices.ContainsFunc(p.Nodes[i].Pods, reschedulable) {
			continue
		}
		if !cloned { // only when a node changes, and once
			p.Nodes, cloned = slices.Clone(p.Nodes), true
		}
		n := &p.Nodes[i]
		var keep []packing.Pod
		for _, pod := range n.Pods {
			if reschedulable(pod) {
				pod.Terminating = false // a StatefulSet's pod comes back under its name
				moved = append(moved, pod)
			} else {
				keep = append(keep, pod)
			}
		}
		n.Pods = keep
	}
	if len(moved) > 0 {
		p.Pods = slices.Concat(p.Pods, moved)
	}
	return p
}

// reschedulable reports whether a pod of a node being deleted is planned
// again: packing.Pod.Reschedulable, Karpenter's rule (not a daemonset's or
// mirror pod, not terminating unless a StatefulSet's).
func reschedulable(p packing.Pod) bool { return p.Reschedulable() }

// poolCatalog returns the catalog of np: the problem's under the kubelet
// settings of np's EC2NodeClass (or those a v1beta1 NodePool carried,
// which take their place) and moved to the zones of the class's resolved
// subnets; nil (the problem's catalog) when neither applies. cache holds
// the catalog of each class, and of each pool with its own kubelet.
func (c *Cluster) poolCatalog(cat *instancetypes.Catalog, np *NodePool, cache map[string]*instancetypes.Catalog) (*instancetypes.Catalog, error) {
	if cat == nil {
		return nil, nil
	}
	var class *EC2NodeClass
	if ref := np.Spec.Template.Spec.NodeClassRef; ref != nil && ref.Kind == KindEC2NodeClass {
		var err error
		if class, err = c.nodeClass(ref.Name); err != nil {
			return nil, err
		}
	}
	key := "NodePool " + np.Metadata.Name
	if np.kubelet == nil && class != nil {
		key = "EC2NodeClass " + class.Metadata.Name
	}
	if z, ok := cache[key]; ok {
		return z, nil
	}
	out, err := withKubelet(cat, np, class)
	if err != nil || class == nil {
		return out, err
	}
	zones, err := class.zones(cat.Origin().Region)
	if len(zones) > 0 && err == nil {
		if out, err = cmp.Or(out, cat).WithZones(zones...); err != nil {
			return nil, &ObjectError{Kind: KindEC2NodeClass, Name: class.Metadata.Name, Field: "status.subnets", Err: err}
		}
	}
	cache[key] = out
	return out, err
}

// withKubelet returns cat under the kubelet settings of np (converted from
// v1beta1) or else of class, nil when there are none. An error names the
// first setting that cannot be applied.
func withKubelet(cat *instancetypes.Catalog, np *NodePool, class *EC2NodeClass) (*instancetypes.Catalog, error) {
	var family instancetypes.AMIFamily
	if class != nil {
		family = class.family()
	}
	oe, k := &ObjectError{Kind: KindNodePool, Name: np.Metadata.Name, Field: "spec.template.spec.kubelet"}, np.kubelet
	if k == nil && class != nil {
		oe, k = &ObjectError{Kind: KindEC2NodeClass, Name: class.Metadata.Name, Field: "spec.kubelet"}, class.Spec.Kubelet
	}
	settings, err := k.settings(family)
	if err != nil {
		return nil, wrapObject(oe, atField(oe.Field, err))
	}
	out, err := cat.WithKubelet(settings)
	switch {
	case err != nil:
		oe.Field, oe.Err = join(oe.Field, k.firstSet()), fmt.Errorf("cannot be applied: %w", err)
		return nil, oe
	case out == cat:
		return nil, nil
	}
	return out, nil
}

// nodeClass returns the EC2NodeClass of c named name, nil when there is
// none, and an error when there are several.
func (c *Cluster) nodeClass(name string) (*EC2NodeClass, error) {
	var found *EC2NodeClass
	for i := range c.NodeClasses {
		if c.NodeClasses[i].Metadata.Name != name {
			continue
		}
		if found != nil {
			return nil, &ObjectError{Kind: KindEC2NodeClass, Name: name, Field: "metadata.name", Err: fmt.Errorf("%w: defined more than once", ErrInvalid)}
		}
		found = &c.NodeClasses[i]
	}
	return found, nil
}

// PriceWarnings returns one warning for each node of p whose price is
// unknown (packing.Node.PriceUnknown), naming what its catalog lacks, in
// node order: "Node n1: price unknown: the cn-north-1 catalog has no
// on-demand offering of m6i.xlarge in zone us-east-1a; it is left out of
// price totals, and consolidated only when empty" (the last words for a
// node of a NodePool). p is a problem of [Cluster.Problem] (or the nodes,
// pools and catalog of [Cluster.Consolidation]); it is not modified.
// O(nodes × offerings).
func PriceWarnings(p *packing.Problem) []string {
	var out []string
	for i := range p.Nodes {
		n := &p.Nodes[i]
		if !n.PriceUnknown {
			continue
		}
		why := "it was given none"
		if _, err := nodePrice(p, n); err != nil {
			why = err.Error()
		}
		then := ""
		if n.NodePool != "" {
			then = ", and consolidated only when empty"
		}
		out = append(out, fmt.Sprintf("Node %s: price unknown: %s; it is left out of price totals%s", n.Name, why, then))
	}
	return out
}

// nodePrice returns n's price: the offering of its instance type, zone and
// capacity type in the catalog of its NodePool in p, else in p's catalog.
// The error says what is missing.
func nodePrice(p *packing.Problem, n *packing.Node) (instancetypes.Price, error) {
	pool := p.CatalogOf(n.NodePool)
	price, err := offeringPrice(pool, n)
	if err != nil && pool != p.Catalog && p.Catalog != nil {
		if alt, altErr := offeringPrice(p.Catalog, n); altErr == nil {
			return alt, nil
		}
	}
	return price, err
}

// offeringPrice returns the price of n's offering in cat.
func offeringPrice(cat *instancetypes.Catalog, n *packing.Node) (instancetypes.Price, error) {
	ctErr := unknownCapacityType(n.Labels)
	switch {
	case n.InstanceType == "":
		return 0, fmt.Errorf("it has no %s label", requirements.LabelInstanceType)
	case n.Zone == "":
		return 0, fmt.Errorf("it has no %s label", requirements.LabelZone)
	case ctErr != nil:
		return 0, ctErr
	case cat == nil:
		return 0, errors.New("no catalog is given")
	}
	t, ok := cat.Get(n.InstanceType)
	if !ok {
		return 0, fmt.Errorf("the %scatalog has no instance type %s", region(cat), n.InstanceType)
	}
	for _, o := range t.Offerings {
		if o.Zone == n.Zone && o.CapacityType == n.CapacityType {
			return o.Price, nil
		}
	}
	return 0, fmt.Errorf("the %scatalog has no %s offering of %s in zone %s", region(cat), n.CapacityType, n.InstanceType, n.Zone)
}

// region is "us-east-1 " for a catalog of that region, else "".
func region(cat *instancetypes.Catalog) string {
	if r := cat.Origin().Region; r != "" {
		return r + " "
	}
	return ""
}
