package kube

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/nodeplan/nodeplan/instancetypes"
	"github.com/nodeplan/nodeplan/packing"
	"github.com/nodeplan/nodeplan/requirements"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// zonedCluster is a NodePool "default" whose nodeClassRef names the
// EC2NodeClass "default" (status given by subnets, none when empty), a
// second pool "plain" without a node class, a pending pod per pool and a
// full node of pool default in zone nodeZone.
func zonedCluster(t *testing.T, subnets, nodeZone string) Cluster {
	t.Helper()
	status := ""
	if subnets != "" {
		status = "status:\n  subnets:\n" + subnets
	}
	yaml := fmt.Sprintf(`apiVersion: karpenter.sh/v1
kind: NodePool
metadata: {name: default}
spec:
  template:
    spec:
      nodeClassRef: {group: karpenter.k8s.aws, kind: EC2NodeClass, name: default}
      requirements: [{key: node.kubernetes.io/instance-type, operator: In, values: [m5.large]}]
---
apiVersion: karpenter.sh/v1
kind: NodePool
metadata: {name: plain}
spec:
  template:
    spec:
      requirements: [{key: node.kubernetes.io/instance-type, operator: In, values: [m5.large]}]
      taints: [{key: plain, effect: NoSchedule}]
---
apiVersion: karpenter.k8s.aws/v1
kind: EC2NodeClass
metadata: {name: default}
spec:
  role: r
%s
---
apiVersion: v1
kind: Pod
metadata: {name: a}
spec: {containers: [{name: c, resources: {requests: {cpu: 1500m}}}]}
---
apiVersion: v1
kind: Pod
metadata: {name: b}
spec:
  tolerations: [{key: plain, operator: Exists}]
  nodeSelector: {karpenter.sh/nodepool: plain}
  containers: [{name: c, resources: {requests: {cpu: "1"}}}]
---
apiVersion: v1
kind: Node
metadata:
  name: n1
  labels:
    karpenter.sh/nodepool: default
    karpenter.sh/capacity-type: on-demand
    node.kubernetes.io/instance-type: m5.large
    topology.kubernetes.io/zone: %s
status: {allocatable: {cpu: "1", memory: 8Gi, pods: "29"}}
`, status, nodeZone)
	c, err := Load(Source{Name: "zones.yaml", Data: []byte(yaml)})
	require.NoError(t, err)
	return c
}

// TestProblemZones: a NodePool is offered in its EC2NodeClass's subnet
// zones; without them, in the catalog's; zones of another region are an
// error naming the EC2NodeClass and field.
func TestProblemZones(t *testing.T) {
	const onDemandM5 = 96_000_000
	tests := []struct {
		name      string
		subnets   string
		nodeZone  string
		zones     []string // of the default pool's claim's offerings; nil: the catalog's
		nodePrice instancetypes.Price
		err       string
	}{
		{"zones from status.subnets", "  - {id: s1, zone: us-east-1d}\n  - {id: s2, zone: us-east-1f}\n  - {id: s3, zone: us-east-1d}\n",
			"us-east-1d", []string{"us-east-1d", "us-east-1f"}, onDemandM5, ""},
		{"no status: the catalog's zones", "", "us-east-1a", nil, onDemandM5, ""},
		{"no status: a node outside the catalog's zones is not priced", "", "us-east-1d", nil, 0, ""},
		{"a node outside its class's zones is priced by the region's catalog", "  - {id: s1, zone: us-east-1a}\n", "us-east-1b",
			[]string{"us-east-1a"}, onDemandM5, ""},
		{"subnets in another region", "  - {id: s1, zone: eu-west-1a}\n  - {id: s2, zone: eu-west-1b}\n", "eu-west-1a", nil, 0,
			`EC2NodeClass default: status.subnets[0].zone: invalid object: zone "eu-west-1a" is not in region "us-east-1", the catalog's`},
		{"one subnet in another region", "  - {id: s1, zone: us-east-1a}\n  - {id: s2, zone: us-west-2a}\n", "us-east-1a", nil, 0,
			`EC2NodeClass default: status.subnets[1].zone: invalid object: zone "us-west-2a"`},
	}
	cat, err := instancetypes.AWS(instancetypes.Options{CapacityTypes: []instancetypes.CapacityType{instancetypes.OnDemand}})
	require.NoError(t, err)
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c := zonedCluster(t, tc.subnets, tc.nodeZone)
			p, err := c.Problem(cat)
			if tc.err != "" {
				require.Error(t, err)
				assert.ErrorIs(t, err, ErrInvalid)
				assert.Contains(t, err.Error(), tc.err)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tc.nodePrice, p.Nodes[0].Price)
			assert.Equal(t, tc.nodePrice == 0, p.Nodes[0].PriceUnknown)
			require.Nil(t, p.NodePools[1].Catalog, "a pool without a node class keeps the problem's catalog")
			want := tc.zones
			if want == nil {
				assert.Nil(t, p.NodePools[0].Catalog)
				want = cat.Origin().Zones
			}
			plan, err := packing.Solve(p, packing.Options{})
			require.NoError(t, err)
			require.Len(t, plan.NodeClaims, 2)
			for _, nc := range plan.NodeClaims {
				if nc.NodePool == "default" {
					assert.Contains(t, want, nc.Offering.Zone)
				} else {
					assert.Contains(t, cat.Origin().Zones, nc.Offering.Zone, "the plain pool")
				}
			}
			if tc.zones != nil {
				m5, _ := p.NodePools[0].Catalog.Get("m5.large")
				assert.Equal(t, tc.zones, m5.Requirements.Get(requirements.LabelZone).Values())
			}
		})
	}
}

func TestProblemNodeClassErrors(t *testing.T) {
	cat, err := instancetypes.AWS(instancetypes.Options{})
	require.NoError(t, err)
	c := zonedCluster(t, "  - {id: s1, zone: us-east-1a}\n", "us-east-1a")
	c.NodeClasses = append(c.NodeClasses, c.NodeClasses[0])
	_, err = c.Problem(cat)
	assert.ErrorIs(t, err, ErrInvalid)
	assert.ErrorContains(t, err, "EC2NodeClass default: metadata.name: invalid object: defined more than once")

	c = zonedCluster(t, "  - {id: s1, zone: us-east-1a}\n", "us-east-1a")
	c.NodeClasses[0].Status.Subnets[0].Zone = ""
	_, err = c.Problem(cat)
	assert.ErrorContains(t, err, `EC2NodeClass default: status.subnets[0].zone: invalid object: zone "" is not in region "us-east-1"`,
		"a class Load did not check")

	_, err = Load(Source{Name: "c.yaml", Data: []byte("apiVersion: karpenter.k8s.aws/v1\nkind: EC2NodeClass\nmetadata: {name: c}\n" +
		"status: {subnets: [{id: s1, zone: us-east-1a}, {id: s2}]}\n")})
	assert.ErrorIs(t, err, ErrInvalid)
	assert.ErrorContains(t, err, `c.yaml: document 1: EC2NodeClass c: status.subnets[1].zone: subnet "s2" has no zone`)

	c = zonedCluster(t, "  - {id: s1, zone: us-east-1a}\n", "us-east-1a")
	c.NodeClasses[0].Metadata.Name = "other"
	p, err := c.Problem(cat)
	require.NoError(t, err, "a nodeClassRef to a class not in the input keeps the catalog")
	assert.Nil(t, p.NodePools[0].Catalog)
}

// TestProblemPrices: a node whose catalog has no offering of its instance
// type, zone and capacity type, or that lacks one of their labels, is of
// unknown price (never 0 as if free), and PriceWarnings says why.
func TestProblemPrices(t *testing.T) {
	const m5 = "node.kubernetes.io/instance-type: m5.large"
	const zone = "topology.kubernetes.io/zone: us-east-1a"
	const od = "karpenter.sh/capacity-type: on-demand"
	tests := []struct {
		name    string
		labels  []string
		price   instancetypes.Price
		warning string
	}{
		{"priced", []string{m5, zone, od}, 96_000_000, ""},
		{"spot", []string{m5, zone, "karpenter.sh/capacity-type: spot"}, 38_400_000, ""},
		{"deprecated zone label", []string{m5, "failure-domain.beta.kubernetes.io/zone: us-east-1a", od}, 96_000_000, ""},
		{"type not in the catalog", []string{"node.kubernetes.io/instance-type: m9.huge", zone, od}, 0,
			"Node n1: price unknown: the us-east-1 catalog has no instance type m9.huge; it is left out of price totals, and consolidated only when empty"},
		{"zone of another region", []string{m5, "topology.kubernetes.io/zone: cn-north-1a", od}, 0,
			"Node n1: price unknown: the us-east-1 catalog has no on-demand offering of m5.large in zone cn-north-1a; it is left out of price totals, and consolidated only when empty"},
		{"capacity type the catalog does not offer", []string{m5, zone, "karpenter.sh/capacity-type: reserved"}, 0,
			"Node n1: price unknown: the us-east-1 catalog has no reserved offering of m5.large in zone us-east-1a; it is left out of price totals, and consolidated only when empty"},
		{"no instance-type label", []string{zone, od}, 0,
			"Node n1: price unknown: it has no node.kubernetes.io/instance-type label; it is left out of price totals, and consolidated only when empty"},
		{"no zone label", []string{m5, od}, 0,
			"Node n1: price unknown: it has no topology.kubernetes.io/zone label; it is left out of price totals, and consolidated only when empty"},
		{"no capacity-type label", []string{m5, zone}, 0,
			"Node n1: price unknown: it has no karpenter.sh/capacity-type label; it is left out of price totals, and consolidated only when empty"},
		{"no NodePool", []string{m5, zone}, 0,
			"Node n1: price unknown: it has no karpenter.sh/capacity-type label; it is left out of price totals"},
	}
	cat, err := instancetypes.AWS(instancetypes.Options{})
	require.NoError(t, err)
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			labels := append([]string{"karpenter.sh/nodepool: default"}, tc.labels...)
			if tc.name == "no NodePool" {
				labels = tc.labels
			}
			yaml := "apiVersion: karpenter.sh/v1\nkind: NodePool\nmetadata: {name: default}\nspec: {template: {spec: {}}}\n---\n" +
				"apiVersion: v1\nkind: Node\nmetadata:\n  name: n1\n  labels: {" + strings.Join(labels, ", ") + "}\n" +
				"status: {allocatable: {cpu: \"2\", memory: 8Gi, pods: \"29\"}}\n"
			c, err := Load(Source{Name: "prices.yaml", Data: []byte(yaml)})
			require.NoError(t, err)
			p, err := c.Problem(cat)
			require.NoError(t, err)
			require.NoError(t, p.Validate())
			assert.Equal(t, tc.price, p.Nodes[0].Price)
			assert.Equal(t, tc.warning != "", p.Nodes[0].PriceUnknown)
			var want []string
			if tc.warning != "" {
				want = []string{tc.warning}
			}
			assert.Equal(t, want, PriceWarnings(&p))
			cl, err := c.Consolidation(cat, time.Time{})
			require.NoError(t, err)
			assert.Equal(t, p.Nodes[0].PriceUnknown, cl.Nodes[0].PriceUnknown, "consolidation prices as Problem")
		})
	}
}

// TestProblemErrorsLocated: errors about an object found after Load
// (Problem, Consolidation, Drift) name its file and document, as Load's
// own errors do.
func TestProblemErrorsLocated(t *testing.T) {
	cat, err := instancetypes.AWS(instancetypes.Options{})
	require.NoError(t, err)
	foreign := "  - {id: s1, zone: eu-west-1a}\n"
	tests := []struct {
		name   string
		change func(c *Cluster)
		call   func(c *Cluster) error
		want   string
	}{
		{"Problem: a subnet in another region", nil, func(c *Cluster) error { _, err := c.Problem(cat); return err },
			`zones.yaml: document 3: EC2NodeClass default: status.subnets[0].zone: invalid object: zone "eu-west-1a" is not in region "us-east-1"`},
		{"Consolidation", nil, func(c *Cluster) error { _, err := c.Consolidation(cat, time.Time{}); return err },
			`zones.yaml: document 3: EC2NodeClass default: status.subnets[0].zone`},
		{"Drift", nil, func(c *Cluster) error { _, _, err := c.Drift(cat); return err },
			`zones.yaml: document 3: EC2NodeClass default: status.subnets[0].zone`},
		{"a NodePool changed after Load", func(c *Cluster) { c.NodePools[1].Spec.Weight = new(int32(200)) },
			func(c *Cluster) error { _, err := c.Problem(cat); return err },
			`zones.yaml: document 2: NodePool plain: spec.weight: 200 is outside 1..100`},
		{"a class Drift rejects", func(c *Cluster) {
			c.NodeClasses[0].Status.Subnets[0].Zone = "us-east-1a"
			c.NodeClasses[0].Spec.AMISelectorTerms = []SelectorTerm{{}}
		},
			func(c *Cluster) error { _, _, err := c.Drift(cat); return err },
			`zones.yaml: document 3: EC2NodeClass default: spec.amiSelectorTerms[0]: selects by nothing`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c := zonedCluster(t, foreign, "us-east-1a")
			if tc.change != nil {
				tc.change(&c)
			}
			err := tc.call(&c)
			require.Error(t, err)
			assert.ErrorIs(t, err, ErrInvalid)
			var de *DocumentError
			require.ErrorAs(t, err, &de)
			assert.Equal(t, "zones.yaml", de.File)
			assert.Contains(t, err.Error(), tc.want)
		})
	}
	c := zonedCluster(t, foreign, "us-east-1a")
	c.NodeClasses = append(c.NodeClasses, EC2NodeClass{Metadata: ObjectMeta{Name: "added"}})
	c.NodePools[0].Spec.Template.Spec.NodeClassRef.Name = "added"
	c.NodeClasses[1].Status.Subnets = []ResolvedSubnet{{ID: "s", Zone: "eu-west-1a"}}
	_, err = c.Problem(cat)
	var de *DocumentError
	assert.False(t, errors.As(err, &de), "an object the caller added has no document")
	assert.ErrorContains(t, err, "EC2NodeClass added: status.subnets[0].zone")
}
