package kube

import (
	"errors"
	"fmt"

	"github.com/nodeplan/nodeplan/instancetypes"
	"github.com/nodeplan/nodeplan/requirements"
)

// Region returns the region the nodes of c's NodePools name: the
// topology.kubernetes.io/region label (or its deprecated
// failure-domain.beta key) of the first node of c.Nodes with a NodePool
// and that label; "" when none has one. Karpenter labels every node it
// launches with its region, so a command pricing c's pending pods takes
// this region before any default, and [Cluster.CheckRegion] then rejects
// nodes naming another. O(nodes × labels).
func (c *Cluster) Region() string {
	for i := range c.Nodes {
		if n := &c.Nodes[i]; n.NodePool != "" {
			if r := label(n.Labels, requirements.LabelRegion); r != "" {
				return r
			}
		}
	}
	return ""
}

// CheckRegion returns an error for each node of c's NodePools that is not
// in region: its region label names another, or its zone is not a zone of
// region ([instancetypes.ZoneInRegion]). Karpenter launched such a node in
// another region than the one whose prices and zones a plan would use, so
// the plan would be another region's. Nodes without a NodePool (managed
// node groups, hybrid nodes) are not checked: their price is unknown when
// the catalog lacks their offering ([PriceWarnings]). An empty region
// checks nothing. Errors wrap ErrOtherRegion; those about nodes Load read
// are *DocumentError values naming the file and document, joined.
// O(nodes × labels).
func (c *Cluster) CheckRegion(region string) error {
	if region == "" {
		return nil
	}
	var errs []error
	for i := range c.Nodes {
		n := &c.Nodes[i]
		if n.NodePool == "" {
			continue
		}
		var err error
		if r := label(n.Labels, requirements.LabelRegion); r != "" && r != region {
			err = atField("metadata.labels"+key(labelKey(n.Labels, requirements.LabelRegion)),
				fmt.Errorf("%w: %q, but the plan is for region %q", ErrOtherRegion, r, region))
		} else if n.Zone != "" && !instancetypes.ZoneInRegion(n.Zone, region) {
			err = atField("metadata.labels"+key(labelKey(n.Labels, requirements.LabelZone)),
				fmt.Errorf("%w: zone %q is not in region %q", ErrOtherRegion, n.Zone, region))
		}
		errs = append(errs, c.locate(wrap("Node", "", n.Name, err)))
	}
	return errors.Join(errs...)
}

// labelKey is the key under which labels hold the well-known key: itself,
// else its deprecated form ([label]).
func labelKey(labels map[string]string, key string) string {
	if _, ok := labels[key]; ok {
		return key
	}
	for _, k := range sortedKeys(labels) {
		if requirements.Normalize(k) == key {
			return k
		}
	}
	return key
}
