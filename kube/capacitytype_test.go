package kube

import (
	"strings"
	"testing"

	"github.com/nodeplan/nodeplan/instancetypes"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A node of an EKS managed node group carries eks.amazonaws.com/capacityType
// instead of karpenter.sh/capacity-type: ON_DEMAND and SPOT are read as
// on-demand and spot and priced; another value leaves the price unknown
// with a warning naming it; Karpenter's label wins when both are there.
func TestEKSCapacityType(t *testing.T) {
	const m5 = "node.kubernetes.io/instance-type: m5.large"
	const zone = "topology.kubernetes.io/zone: us-east-1a"
	tests := []struct {
		name    string
		labels  []string
		want    instancetypes.CapacityType
		price   instancetypes.Price
		warning string
	}{
		{"ON_DEMAND", []string{m5, zone, "eks.amazonaws.com/capacityType: ON_DEMAND"}, instancetypes.OnDemand, 96_000_000, ""},
		{"SPOT", []string{m5, zone, "eks.amazonaws.com/capacityType: SPOT"}, instancetypes.Spot, 38_400_000, ""},
		{"Karpenter's label first", []string{m5, zone, "eks.amazonaws.com/capacityType: ON_DEMAND", "karpenter.sh/capacity-type: spot"},
			instancetypes.Spot, 38_400_000, ""},
		{"CAPACITY_BLOCK", []string{m5, zone, "eks.amazonaws.com/capacityType: CAPACITY_BLOCK"}, instancetypes.OnDemand, 0,
			`Node n1: price unknown: it has no karpenter.sh/capacity-type label, and its eks.amazonaws.com/capacityType label is ` +
				`"CAPACITY_BLOCK", which nodeplan does not read (ON_DEMAND or SPOT); it is left out of price totals`},
		{"lower case", []string{m5, zone, "eks.amazonaws.com/capacityType: spot"}, instancetypes.OnDemand, 0,
			`Node n1: price unknown: it has no karpenter.sh/capacity-type label, and its eks.amazonaws.com/capacityType label is ` +
				`"spot", which nodeplan does not read (ON_DEMAND or SPOT); it is left out of price totals`},
		{"neither", []string{m5, zone}, instancetypes.OnDemand, 0,
			"Node n1: price unknown: it has no karpenter.sh/capacity-type label; it is left out of price totals"},
	}
	cat, err := instancetypes.AWS(instancetypes.Options{})
	require.NoError(t, err)
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			yaml := "apiVersion: v1\nkind: Node\nmetadata:\n  name: n1\n  labels: {" + strings.Join(tc.labels, ", ") + "}\n" +
				"status: {allocatable: {cpu: \"2\", memory: 8Gi, pods: \"29\"}}\n"
			c, err := Load(Source{Name: "eks.yaml", Data: []byte(yaml)})
			require.NoError(t, err)
			assert.Equal(t, tc.want, c.Nodes[0].CapacityType)
			p, err := c.Problem(cat)
			require.NoError(t, err)
			assert.Equal(t, tc.price, p.Nodes[0].Price)
			var want []string
			if tc.warning != "" {
				want = []string{tc.warning}
			}
			assert.Equal(t, want, PriceWarnings(&p))
		})
	}
}
