package kube

import (
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nodeplan/nodeplan/instancetypes"
	"github.com/nodeplan/nodeplan/overlay"
	"github.com/nodeplan/nodeplan/packing"
)

const overlayCluster = `apiVersion: karpenter.sh/v1
kind: NodePool
metadata: {name: default}
spec:
  template:
    spec:
      requirements: [{key: node.kubernetes.io/instance-type, operator: In, values: [m5.large]}]
---
apiVersion: v1
kind: Node
metadata:
  name: n1
  labels:
    karpenter.sh/nodepool: default
    node.kubernetes.io/instance-type: m5.large
    topology.kubernetes.io/zone: us-east-1a
    karpenter.sh/capacity-type: on-demand
status:
  allocatable: {cpu: 1000m, memory: 7Gi, pods: "29"}
---
apiVersion: v1
kind: Pod
metadata: {name: p, namespace: default}
spec: {containers: [{name: c, resources: {requests: {cpu: "1500m"}}}]}
---
apiVersion: karpenter.sh/v1alpha1
kind: NodeOverlay
metadata: {name: licence}
spec:
  weight: 10
  price: "0.5"
  requirements: [{key: node.kubernetes.io/instance-type, operator: In, values: [m5.large]}]
---
apiVersion: karpenter.sh/v1alpha1
kind: NodeOverlay
metadata: {name: devices}
spec:
  capacity: {smarter-devices/fuse: "2"}
---
apiVersion: karpenter.sh/v1alpha1
kind: NodeOverlay
metadata: {name: a-loser}
spec:
  weight: 10
  priceAdjustment: "+1"
  requirements: [{key: karpenter.sh/capacity-type, operator: In, values: [on-demand]}]
---
apiVersion: karpenter.sh/v1alpha1
kind: NodeOverlay
metadata: {name: typo}
spec:
  requirements: [{key: node.kubernetes.io/instance-type, operator: In, values: [m5.lrage]}]
`

func overlayCatalog(t *testing.T) *instancetypes.Catalog {
	t.Helper()
	cat, err := instancetypes.AWS(instancetypes.Options{CapacityTypes: []instancetypes.CapacityType{instancetypes.OnDemand}})
	require.NoError(t, err)
	return cat
}

// TestNodeOverlayPrices: Problem, Consolidation and Drift see the overlaid
// catalog: the existing node's price, the new claim's offering and the
// pools' catalogs.
func TestNodeOverlayPrices(t *testing.T) {
	c, err := Load(Source{Name: "overlay.yaml", Data: []byte(overlayCluster)})
	require.NoError(t, err)
	require.Len(t, c.Overlays, 4)
	cat := overlayCatalog(t)
	half := instancetypes.MustPriceFromDollars(0.5)
	p, err := c.Problem(cat)
	require.NoError(t, err)
	assert.Equal(t, half, p.Nodes[0].Price, "the existing node is priced by the overlay")
	plan, err := packing.Solve(p, packing.Options{})
	require.NoError(t, err)
	require.Len(t, plan.NodeClaims, 1)
	assert.Equal(t, half, plan.NodeClaims[0].Offering.Price, "the new claim is priced by the overlay")
	m5, _ := p.CatalogOf("default").Get("m5.large")
	assert.Equal(t, int64(2), m5.Allocatable.Get("smarter-devices/fuse"))
	orig, _ := cat.Get("m5.large")
	assert.NotEqual(t, half, orig.Offerings[0].Price, "the catalog is unchanged")

	cl, err := c.Consolidation(cat, applyNow)
	require.NoError(t, err)
	assert.Equal(t, half, cl.Nodes[0].Price)
	got, _ := (&packing.Problem{Catalog: cl.Catalog, NodePools: cl.NodePools}).CatalogOf("default").Get("m5.large")
	assert.Equal(t, half, got.Offerings[0].Price)

	d, _, err := c.Drift(cat)
	require.NoError(t, err)
	assert.Equal(t, half, d.Nodes[0].Node.Price)
	got, _ = d.NodePools[0].NodePool.Catalog.Get("m5.large")
	assert.Equal(t, half, got.Offerings[0].Price)

	report, err := c.OverlayReport(cat)
	require.NoError(t, err)
	want := map[string]overlay.Status{"licence": overlay.Applied, "a-loser": overlay.Conflict, "devices": overlay.Applied, "typo": overlay.SelectsNothing}
	for _, o := range report {
		assert.Equal(t, want[o.Overlay], o.Status, o.Overlay)
	}
	warnings, err := c.OverlayWarnings(cat)
	require.NoError(t, err)
	assert.Equal(t, []string{`NodeOverlay "a-loser": conflict with NodeOverlay "licence" of the same weight; not applied`,
		`NodeOverlay "typo": selects no offering of any NodePool's instance types`}, warnings)
}

// TestNodeOverlayErrors: what the CRD refuses is an error naming the
// NodeOverlay, its field and its document.
func TestNodeOverlayErrors(t *testing.T) {
	head := "apiVersion: karpenter.sh/v1alpha1\nkind: NodeOverlay\nmetadata: {name: o}\n"
	tests := []struct {
		name, spec, field string
	}{
		{"weight 0", "spec: {weight: 0}", "spec.weight"},
		{"weight too large", "spec: {weight: 10001}", "spec.weight"},
		{"bad price", `spec: {price: "1e3"}`, "spec.price"},
		{"empty price", `spec: {price: ""}`, "spec.price"},
		{"unsigned adjustment", `spec: {priceAdjustment: "10%"}`, "spec.priceAdjustment"},
		{"both", `spec: {price: "1", priceAdjustment: "+1"}`, "spec"},
		{"cpu capacity", `spec: {capacity: {cpu: "1"}}`, "spec.capacity.cpu"},
		{"zero capacity", `spec: {capacity: {example.com/dev: "0"}}`, `spec.capacity["example.com/dev"]`},
		{"fractional capacity", `spec: {capacity: {example.com/dev: "500m"}}`, `spec.capacity["example.com/dev"]`},
		{"negative capacity", `spec: {capacity: {example.com/dev: "-1"}}`, `spec.capacity["example.com/dev"]`},
		{"In without values", `spec: {requirements: [{key: a, operator: In}]}`, "spec.requirements[0]"},
		{"unknown operator", `spec: {requirements: [{key: a, operator: Near, values: [x]}]}`, "spec.requirements[0]"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Load(Source{Name: "o.yaml", Data: []byte(head + tc.spec + "\n")})
			require.ErrorIs(t, err, ErrInvalid)
			var oe *ObjectError
			require.ErrorAs(t, err, &oe)
			assert.Equal(t, KindNodeOverlay, oe.Kind)
			assert.Equal(t, "o", oe.Name)
			assert.Equal(t, tc.field, oe.Field)
			var de *DocumentError
			assert.True(t, errors.As(err, &de), "names the document: %v", err)
		})
	}
	c, err := Load(Source{Name: "o.yaml", Data: []byte(head + "spec: {pricee: \"1\"}\n")})
	require.NoError(t, err)
	assert.Contains(t, strings.Join(c.Warnings, "\n"), "NodeOverlay o spec.pricee", "an unknown field is named, as of every kind")
	_, err = Load(Source{Name: "o.yaml", Data: []byte("apiVersion: karpenter.sh/v1\nkind: NodeOverlay\nmetadata: {name: o}\n")})
	assert.ErrorIs(t, err, ErrUnsupportedVersion)
	_, err = Load(Source{Name: "o.yaml", Data: []byte(head + "---\n" + head)})
	assert.ErrorIs(t, err, ErrDuplicate)
}
