package kube

import (
	"testing"

	"github.com/nodeplan/nodeplan/instancetypes"
	"github.com/nodeplan/nodeplan/packing"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A NodePool whose EC2NodeClass is present but not Ready, or which is not
// Ready itself, launches nothing, and its pods say why; one whose class is
// absent is planned as if it were Ready, with a warning naming the pool,
// the class and the zones.
func TestNodeClassReadiness(t *testing.T) {
	fixture, err := loadFixtureBytes("nodeclass-ready.yaml")
	require.NoError(t, err)
	c, err := Load(Source{Name: "nodeclass-ready.yaml", Data: fixture}, Source{Name: "pods.yaml", Data: []byte(unavailablePods)})
	require.NoError(t, err)
	assert.Contains(t, c.Warnings, "NodePool ghost: its EC2NodeClass ghost is not in the input: nodeplan, a what-if tool, "+
		"plans the pool as if the class were Ready, with no kubelet settings, in the catalog's zones (--zones, else the region's defaults)")
	for _, w := range c.Warnings {
		assert.NotContains(t, w, "NodePool ready:", "a Ready class with subnets needs no warning")
	}
	cat, err := instancetypes.AWS(instancetypes.Options{CapacityTypes: []instancetypes.CapacityType{instancetypes.OnDemand}})
	require.NoError(t, err)
	p, err := c.Problem(cat)
	require.NoError(t, err)
	unavailable := map[string]string{}
	for _, np := range p.NodePools {
		unavailable[np.Name] = np.Unavailable
	}
	assert.Equal(t, map[string]string{"ready": "", "ghost": "",
		"gpu":    "its EC2NodeClass gpu-demo is not Ready (Ready=False, UnhealthyDependents: SubnetsReady=False), so Karpenter provisions nothing from it",
		"legacy": "it is not Ready (Ready=False, UnhealthyDependents: ValidationSucceeded=False), so Karpenter provisions nothing from it"}, unavailable)
	plan, err := packing.Solve(p, packing.Options{})
	require.NoError(t, err)
	why := map[string]packing.Reason{}
	for _, u := range plan.Unschedulable {
		why[p.Pods[u.Pod].Name] = u.Reason
	}
	require.Contains(t, why, "train")
	assert.Equal(t, packing.Unavailable, why["train"].Kind)
	assert.Contains(t, why["train"].Message, "NodePool gpu would take pod default/train but launches no node: its EC2NodeClass gpu-demo is not Ready")
	require.Contains(t, why, "old")
	assert.Contains(t, why["old"].Message, "NodePool legacy would take pod default/old but launches no node: it is not Ready")
	assert.NotContains(t, why, "web")
	assert.NotContains(t, why, "haunt", "the absent class is assumed Ready")
	zones := map[string]string{}
	for _, nc := range plan.NodeClaims {
		zones[nc.NodePool] = nc.Offering.Zone
	}
	assert.Contains(t, []string{"us-east-1b", "us-east-1c"}, zones["ready"], "the Ready class's subnets")
	assert.Contains(t, cat.Origin().Zones, zones["ghost"])
}

// A class without status.subnets (applied from Git) leaves its pools in the
// catalog's zones, with a warning.
func TestNodeClassWithoutSubnets(t *testing.T) {
	c := zonedCluster(t, "", "us-east-1a")
	assert.Contains(t, c.Warnings, "NodePool default: its EC2NodeClass default has no status.subnets: nodeplan, a what-if tool, "+
		"plans the pool as if the class were Ready, in the catalog's zones (--zones, else the region's defaults)")
	c = zonedCluster(t, "  - {id: s1, zone: us-east-1a}\n", "us-east-1a")
	assert.Empty(t, c.Warnings)
}

// unavailablePods are pods only the pools that launch nothing would take:
// a GPU pod (pool gpu) and one that selects pool legacy.
const unavailablePods = `apiVersion: v1
kind: PodList
items:
- metadata: {name: train, namespace: default}
  spec:
    containers: [{name: train, image: train, resources: {limits: {nvidia.com/gpu: "1"}}}]
    tolerations: [{key: nvidia.com/gpu, operator: Exists}]
- metadata: {name: old, namespace: default}
  spec:
    containers: [{name: c, image: app, resources: {requests: {cpu: "1"}}}]
    nodeSelector: {karpenter.sh/nodepool: legacy}
    tolerations: [{key: legacy, operator: Exists}]
`
