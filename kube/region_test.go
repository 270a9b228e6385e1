package kube

import (
	"errors"
	"testing"

	"github.com/nodeplan/nodeplan/packing"
	"github.com/stretchr/testify/assert"
)

func TestRegion(t *testing.T) {
	node := func(name, pool string, labels map[string]string) packing.Node {
		return packing.Node{Name: name, NodePool: pool, Labels: labels, Zone: label(labels, "topology.kubernetes.io/zone")}
	}
	const region, zone = "topology.kubernetes.io/region", "topology.kubernetes.io/zone"
	tests := []struct {
		name   string
		nodes  []packing.Node
		region string // Region()
		check  string // region given to CheckRegion
		err    string // "" for no error
	}{
		{"no nodes", nil, "", "us-east-1", ""},
		{"first pool node's label", []packing.Node{
			node("a", "", map[string]string{region: "eu-west-1"}),
			node("b", "p", map[string]string{zone: "us-west-2a"}),
			node("c", "p", map[string]string{region: "us-west-2"}),
		}, "us-west-2", "us-west-2", ""},
		{"deprecated key", []packing.Node{node("a", "p", map[string]string{"failure-domain.beta.kubernetes.io/region": "cn-north-1"})},
			"cn-north-1", "cn-north-1", ""},
		{"region label of another region", []packing.Node{node("a", "p", map[string]string{region: "us-west-2", zone: "us-west-2a"})},
			"us-west-2", "us-east-1",
			`Node a: metadata.labels["topology.kubernetes.io/region"]: node in another region: "us-west-2", but the plan is for region "us-east-1"`},
		{"zone of another region", []packing.Node{node("a", "p", map[string]string{zone: "us-east-1a"}), node("b", "p", map[string]string{zone: "us-east-1-bos-1a"})},
			"", "us-east-2", `Node a: metadata.labels["topology.kubernetes.io/zone"]: node in another region: zone "us-east-1a" is not in region "us-east-2"` + "\n" +
				`Node b: metadata.labels["topology.kubernetes.io/zone"]: node in another region: zone "us-east-1-bos-1a" is not in region "us-east-2"`},
		{"local zone of the region", []packing.Node{node("a", "p", map[string]string{zone: "us-east-1-bos-1a"})}, "", "us-east-1", ""},
		{"nodes outside NodePools", []packing.Node{node("a", "", map[string]string{region: "us-west-2", zone: "us-west-2a"})}, "", "us-east-1", ""},
		{"no region checks nothing", []packing.Node{node("a", "p", map[string]string{region: "us-west-2"})}, "us-west-2", "", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c := Cluster{Nodes: tc.nodes}
			assert.Equal(t, tc.region, c.Region())
			err := c.CheckRegion(tc.check)
			if tc.err == "" {
				assert.NoError(t, err)
				return
			}
			assert.EqualError(t, err, tc.err)
			assert.True(t, errors.Is(err, ErrOtherRegion))
			var oe *ObjectError
			assert.True(t, errors.As(err, &oe))
		})
	}
}
