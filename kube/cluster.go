package kube

import (
	"errors"
	"slices"

	"github.com/nodeplan/nodeplan/instancetypes"
	"github.com/nodeplan/nodeplan/packing"
)

// Problem returns the provisioning problem of c on the catalog: its
// pending pods, converted NodePools, daemonsets, and its nodes priced at
// the catalog's offering for their instance type, zone and capacity type
// (0 when the catalog has none). Errors are the *ObjectError values of
// [FromNodePool], joined.
//
// Problem does not modify c; the problem shares c's pods and nodes' pod
// slices, which packing does not modify either. O(nodes × offerings +
// pools).
func (c *Cluster) Problem(cat *instancetypes.Catalog) (packing.Problem, error) {
	p := packing.Problem{Pods: c.Pods, Catalog: cat, DaemonSets: c.DaemonSets}
	var errs []error
	for i := range c.NodePools {
		np, err := FromNodePool(&c.NodePools[i])
		errs = append(errs, err)
		p.NodePools = append(p.NodePools, np)
	}
	p.Nodes = slices.Clone(c.Nodes)
	for i := range p.Nodes {
		p.Nodes[i].Price = price(cat, &p.Nodes[i])
	}
	return p, errors.Join(errs...)
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
