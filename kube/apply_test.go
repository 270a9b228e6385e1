package kube

import (
	"maps"
	"reflect"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/nodeplan/nodeplan/instancetypes"
	"github.com/nodeplan/nodeplan/packing"
	"github.com/nodeplan/nodeplan/requirements"
	"github.com/nodeplan/nodeplan/resources"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// applyYAML is a pool of m5.large (allocatable 1930m CPU) with a startup
// taint; node n1 with 600m free; a launched NodeClaim without its Node
// (in flight, empty); node old being deleted, with a pod planned again;
// and pending pods: big (1.5 CPU, fits the claim in flight only), small
// (500m, fits n1), huge (fits nowhere).
const applyYAML = `apiVersion: karpenter.sh/v1
kind: NodePool
metadata: {name: default}
spec:
  template:
    spec:
      requirements:
      - {key: node.kubernetes.io/instance-type, operator: In, values: [m5.large]}
      - {key: karpenter.sh/capacity-type, operator: In, values: [on-demand]}
      - {key: topology.kubernetes.io/zone, operator: In, values: [us-east-1a]}
      taints: [{key: team, value: a, effect: NoSchedule}]
      startupTaints: [{key: booting, effect: NoSchedule}]
---
apiVersion: karpenter.sh/v1
kind: NodeClaim
metadata:
  name: flying
  labels:
    karpenter.sh/nodepool: default
    karpenter.sh/capacity-type: on-demand
    node.kubernetes.io/instance-type: m5.large
    topology.kubernetes.io/zone: us-east-1a
spec:
  taints: [{key: team, value: a, effect: NoSchedule}]
status:
  providerID: aws:///us-east-1a/i-0aaa
  allocatable: {cpu: 1930m, memory: 7220Mi, pods: "29"}
---
apiVersion: v1
kind: Node
metadata:
  name: n1
` + applyNode + `---
apiVersion: v1
kind: Node
metadata:
  name: old
  deletionTimestamp: "2025-01-01T00:00:00Z"
` + applyNode + `---
apiVersion: v1
kind: Pod
metadata: {name: resident}
spec:
  nodeName: n1
  containers: [{name: c, resources: {requests: {cpu: 1330m}}}]
---
apiVersion: v1
kind: Pod
metadata: {name: moved}
spec:
  nodeName: old
  tolerations: [{key: team, operator: Exists}]
  containers: [{name: c, resources: {requests: {cpu: "1"}}}]
---
apiVersion: v1
kind: Pod
metadata: {name: big}
spec:
  tolerations: [{key: team, operator: Exists}]
  containers: [{name: c, resources: {requests: {cpu: 1500m}}}]
---
apiVersion: v1
kind: Pod
metadata: {name: small}
spec:
  tolerations: [{key: team, operator: Exists}]
  containers: [{name: c, resources: {requests: {cpu: 500m}}}]
---
apiVersion: v1
kind: Pod
metadata: {name: huge}
spec:
  tolerations: [{key: team, operator: Exists}]
  containers: [{name: c, resources: {requests: {cpu: "100"}}}]
`

// applyNode is the rest of a Node of pool default after its name.
const applyNode = `  labels:
    karpenter.sh/nodepool: default
    karpenter.sh/capacity-type: on-demand
    karpenter.sh/initialized: "true"
    node.kubernetes.io/instance-type: m5.large
    topology.kubernetes.io/zone: us-east-1a
spec:
  taints: [{key: team, value: a, effect: NoSchedule}]
status: {allocatable: {cpu: 1930m, memory: 7220Mi, pods: "29"}}
`

// clash is a node outside NodePools named as the plan's first claim.
const clash = `---
apiVersion: v1
kind: Node
metadata: {name: default-1}
status: {allocatable: {cpu: "0", memory: 0, pods: "0"}}
`

// onDemand is the AWS catalog with on-demand offerings only, built once.
var onDemand = sync.OnceValues(func() (*instancetypes.Catalog, error) {
	return instancetypes.AWS(instancetypes.Options{CapacityTypes: []instancetypes.CapacityType{instancetypes.OnDemand}})
})

var applyNow = time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC)

// solved loads yaml and solves its problem on the AWS on-demand catalog.
func solved(t *testing.T, yaml string) (Cluster, packing.Problem, packing.Plan, *instancetypes.Catalog) {
	t.Helper()
	c, err := Load(Source{Name: "apply.yaml", Data: []byte(yaml)})
	require.NoError(t, err)
	cat, err := onDemand()
	require.NoError(t, err)
	p, err := c.Problem(cat)
	require.NoError(t, err)
	plan, err := packing.Solve(p, packing.Options{})
	require.NoError(t, err)
	return c, p, plan, cat
}

// homes maps every pod of c, pending ones to "", bound ones (in-flight
// claims' included) to their node.
func homes(c *Cluster) map[string][]string {
	out := map[string][]string{}
	for _, p := range c.Pods {
		out[p.Key()] = append(out[p.Key()], "")
	}
	add := func(n *packing.Node) {
		for _, p := range n.Pods {
			out[p.Key()] = append(out[p.Key()], n.Name)
		}
	}
	for i := range c.Nodes {
		add(&c.Nodes[i])
	}
	for i := range c.NodeClaims {
		add(&c.NodeClaims[i].InFlight)
	}
	return out
}

func TestApply(t *testing.T) {
	tests := []struct {
		name  string
		yaml  string
		homes map[string][]string
		// claim is the name of the node the claim of pod moved becomes.
		claim string
	}{
		{"bindings, in flight, a claim, a deleting node's pod, unschedulable", applyYAML, map[string][]string{
			"default/resident": {"n1"}, "default/small": {"n1"}, "default/big": {"flying"},
			"default/moved": {"default-1"}, "default/huge": {""}}, "default-1"},
		{"a claim named as a node is renamed", applyYAML + clash, map[string][]string{
			"default/resident": {"n1"}, "default/small": {"n1"}, "default/big": {"flying"},
			"default/moved": {"default-2"}, "default/huge": {""}}, "default-2"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c, p, plan, _ := solved(t, tc.yaml)
			fresh, freshP, freshPlan, _ := solved(t, tc.yaml)
			out, err := c.Apply(p, plan, applyNow)
			require.NoError(t, err)
			assert.Equal(t, tc.homes, homes(&out))
			assert.Equal(t, slices.Sorted(maps.Keys(homes(&c))), slices.Sorted(maps.Keys(homes(&out))), "pods before = pods after")
			assert.True(t, reflect.DeepEqual(fresh, c), "Apply modified the cluster")
			assert.True(t, reflect.DeepEqual(freshP, p), "Apply modified the problem")
			assert.True(t, reflect.DeepEqual(freshPlan, plan), "Apply modified the plan")

			i := slices.IndexFunc(out.Nodes, func(n packing.Node) bool { return n.Name == tc.claim })
			require.GreaterOrEqual(t, i, 0, "no node %s", tc.claim)
			n := out.Nodes[i]
			assert.True(t, n.Initialized)
			assert.Equal(t, applyNow, n.CreationTime)
			assert.Equal(t, "default", n.NodePool)
			assert.Equal(t, "m5.large", n.InstanceType)
			assert.Equal(t, "us-east-1a", n.Zone)
			assert.Equal(t, instancetypes.OnDemand, n.CapacityType)
			assert.Equal(t, plan.NodeClaims[0].Offering.Price, n.Price)
			assert.Equal(t, tc.claim, n.Labels[requirements.LabelHostname])
			assert.Equal(t, "true", n.Labels[requirements.LabelKarpenterInitialized])
			assert.Equal(t, "default", n.Labels[requirements.LabelNodePool])
			assert.Equal(t, "on-demand", n.Labels[requirements.LabelCapacityType])
			assert.Equal(t, []requirements.Taint{{Key: "team", Value: "a", Effect: requirements.NoSchedule}}, n.Taints, "startup taints gone")
			assert.Positive(t, n.Allocatable.CPU)
		})
	}
}

func TestApplyMismatch(t *testing.T) {
	tests := []struct {
		name   string
		change func(p *packing.Problem, plan *packing.Plan)
		want   string
	}{
		{"a pod twice", func(_ *packing.Problem, plan *packing.Plan) {
			plan.Bindings = append(plan.Bindings, plan.Bindings[0])
		}, "is in the plan 2 times"},
		{"a pod left out", func(_ *packing.Problem, plan *packing.Plan) { plan.Unschedulable = nil }, "is in the plan 0 times"},
		{"a pod out of range", func(_ *packing.Problem, plan *packing.Plan) {
			plan.Unschedulable = append(plan.Unschedulable, packing.Unschedulable{Pod: 99})
		}, "names pod 99 of"},
		{"an unknown node", func(_ *packing.Problem, plan *packing.Plan) { plan.Bindings[0].Node = "ghost" }, "node ghost, which the cluster does not have"},
		{"another problem's pods", func(p *packing.Problem, _ *packing.Plan) { p.Pods[0].Name = "other" }, "not the cluster's"},
		{"too few pods", func(p *packing.Problem, _ *packing.Plan) { p.Pods = p.Pods[:1] }, "the problem has 1 pods"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c, p, plan, _ := solved(t, applyYAML)
			p.Pods = slices.Clone(p.Pods)
			plan.Bindings = slices.Clone(plan.Bindings)
			tc.change(&p, &plan)
			_, err := c.Apply(p, plan, applyNow)
			require.ErrorIs(t, err, ErrPlanMismatch)
			assert.Contains(t, err.Error(), tc.want)
		})
	}
}

// TestConsolidationAfter: the nodes the plan binds pods to have a pod
// event at now; the new ones are initialized and created at now.
func TestConsolidationAfter(t *testing.T) {
	c, p, plan, cat := solved(t, applyYAML)
	cl, err := c.ConsolidationAfter(p, plan, cat, applyNow)
	require.NoError(t, err)
	assert.Equal(t, applyNow, cl.LastPodEvent["n1"])
	assert.Equal(t, applyNow, cl.LastPodEvent["flying"])
	assert.Len(t, cl.Pending, 1)
	i := slices.IndexFunc(cl.Nodes, func(n packing.Node) bool { return n.Name == "default-1" })
	require.GreaterOrEqual(t, i, 0)
	assert.Equal(t, plan.NodeClaims[0].Offering.Price, cl.Nodes[i].Price, "priced at its offering")
	assert.False(t, cl.Nodes[i].PriceUnknown)
	_, err = c.ConsolidationAfter(p, packing.Plan{}, cat, applyNow)
	assert.ErrorIs(t, err, ErrPlanMismatch)
}

// TestConsolidationAfterReserved: a new node is priced at the reserved
// offering its claim chose, not at the zone's first reserved offering
// (here one without units left).
func TestConsolidationAfterReserved(t *testing.T) {
	const pool = `apiVersion: karpenter.sh/v1
kind: NodePool
metadata: {name: default}
spec:
  template:
    spec:
      requirements: [{key: karpenter.sh/capacity-type, operator: In, values: [reserved]}]
---
apiVersion: v1
kind: Pod
metadata: {name: a}
spec: {containers: [{name: c, resources: {requests: {cpu: "1"}}}]}
`
	c, err := Load(Source{Name: "reserved.yaml", Data: []byte(pool)})
	require.NoError(t, err)
	reserved := func(id string, price instancetypes.Price, units int) instancetypes.Offering {
		return instancetypes.Offering{Zone: "us-east-1a", CapacityType: instancetypes.Reserved, Price: price, Available: true,
			ReservationID: id, ReservedUnits: units}
	}
	cat, err := instancetypes.New([]instancetypes.InstanceType{{Name: "m5.large",
		Capacity:  resources.List{CPU: 2000, Memory: 8 << 30, Pods: 29},
		Offerings: []instancetypes.Offering{reserved("cr-empty", 1_000_000, 0), reserved("cr-open", 2_000_000, 3)}}})
	require.NoError(t, err)
	p, err := c.Problem(cat)
	require.NoError(t, err)
	plan, err := packing.Solve(p, packing.Options{})
	require.NoError(t, err)
	require.Len(t, plan.NodeClaims, 1)
	require.Equal(t, "cr-open", plan.NodeClaims[0].Offering.ReservationID)
	cl, err := c.ConsolidationAfter(p, plan, cat, applyNow)
	require.NoError(t, err)
	require.Len(t, cl.Nodes, 1)
	assert.Equal(t, instancetypes.Price(2_000_000), cl.Nodes[0].Price)
}
