package kube

import (
	"errors"
	"fmt"
	"slices"

	"github.com/nodeplan/nodeplan/instancetypes"
	"github.com/nodeplan/nodeplan/packing"
)

// Problem returns the provisioning problem of c on the catalog: its
// pending pods, converted NodePools, daemonsets, and its nodes priced at
// their NodePool's catalog offering for their instance type, zone and
// capacity type (0 when the catalog has none).
//
// A NodePool whose nodeClassRef names an EC2NodeClass of c with zones in
// its status.subnets is offered in those zones only, as Karpenter offers a
// NodeClass's types in the zones of its subnets: its packing.NodePool gets
// the catalog moved to them ([instancetypes.Catalog.WithZones]). Other
// pools keep the catalog's zones (--zones or the region's defaults). A
// subnet zone outside the catalog's region, or missing, is an
// *ObjectError naming the EC2NodeClass and status.subnets[i].zone. Errors
// are *ObjectError values, joined.
//
// Problem does not modify c; the problem shares c's pods and nodes' pod
// slices, which packing does not modify either. O(nodes × offerings +
// pools + classes × catalog).
func (c *Cluster) Problem(cat *instancetypes.Catalog) (packing.Problem, error) {
	p := packing.Problem{Pods: c.Pods, Catalog: cat, DaemonSets: c.DaemonSets}
	var errs []error
	zoned := map[string]*instancetypes.Catalog{} // by EC2NodeClass name
	for i := range c.NodePools {
		np, err := FromNodePool(&c.NodePools[i])
		errs = append(errs, err)
		np.Catalog, err = c.poolCatalog(cat, &c.NodePools[i], zoned)
		errs = append(errs, err)
		p.NodePools = append(p.NodePools, np)
	}
	p.Nodes = slices.Clone(c.Nodes)
	for i := range p.Nodes {
		p.Nodes[i].Price = price(p.CatalogOf(p.Nodes[i].NodePool), &p.Nodes[i])
	}
	return p, errors.Join(errs...)
}

// poolCatalog returns the catalog of np moved to the zones of its
// EC2NodeClass, or nil (the problem's catalog) when the class is not in c
// or has no resolved subnets. zoned caches the catalog of each class.
func (c *Cluster) poolCatalog(cat *instancetypes.Catalog, np *NodePool, zoned map[string]*instancetypes.Catalog) (*instancetypes.Catalog, error) {
	ref := np.Spec.Template.Spec.NodeClassRef
	if cat == nil || ref == nil || ref.Kind != KindEC2NodeClass {
		return nil, nil
	}
	if z, ok := zoned[ref.Name]; ok {
		return z, nil
	}
	class, err := c.nodeClass(ref.Name)
	if class == nil || err != nil {
		return nil, err
	}
	zones, err := class.zones(cat.Origin().Region)
	if len(zones) == 0 || err != nil {
		return nil, err
	}
	z, err := cat.WithZones(zones...)
	if err != nil {
		return nil, &ObjectError{Kind: KindEC2NodeClass, Name: ref.Name, Field: "status.subnets", Err: err}
	}
	zoned[ref.Name] = z
	return z, nil
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

func price(cat *instancetypes.Catalog, n *packing.Node) instancetypes.Price {
	if cat == nil {
		return 0
	}
	t, ok := cat.Get(n.InstanceType)
	if !ok {
		return 0
	}
	for _, o := range t.Offerings {
		if o.Zone == n.Zone && o.CapacityType == n.CapacityType {
			return o.Price
		}
	}
	return 0
}
