package kube

import (
	"testing"
	"time"

	"github.com/nodeplan/nodeplan/consolidation"
	"github.com/nodeplan/nodeplan/instancetypes"
	"github.com/nodeplan/nodeplan/packing"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A static NodePool (spec.replicas) launches nothing for pending pods and
// its nodes are not consolidated, as Karpenter v1.14 provisions and
// consolidates none of them; its nodes stay as existing capacity.
func TestStaticNodePool(t *testing.T) {
	fixture, err := loadFixtureBytes("static-nodepool.yaml")
	require.NoError(t, err)
	wantsFixed := "apiVersion: v1\nkind: Pod\nmetadata: {name: wants-fixed, namespace: default}\n" +
		"spec: {containers: [{name: c, image: app, resources: {requests: {cpu: 2500m}}}], nodeSelector: {karpenter.sh/nodepool: fixed}, " +
		"tolerations: [{key: fixed, operator: Exists}]}\n"
	c, err := Load(Source{Name: "static-nodepool.yaml", Data: fixture}, Source{Name: "pod.yaml", Data: []byte(wantsFixed)})
	require.NoError(t, err)
	assert.Contains(t, c.Warnings, "static NodePools are not modelled yet (issue 18): fixed (spec.replicas 2) launches no node "+
		"for pending pods and its nodes are not consolidated, as Karpenter provisions and consolidates none; its nodes stay as existing capacity")
	cat, err := instancetypes.AWS(instancetypes.Options{CapacityTypes: []instancetypes.CapacityType{instancetypes.OnDemand}})
	require.NoError(t, err)
	p, err := c.Problem(cat)
	require.NoError(t, err)
	require.Len(t, p.NodePools, 2)
	assert.Contains(t, p.NodePools[0].Unavailable, "static NodePool (spec.replicas 2)")
	assert.Empty(t, p.NodePools[1].Unavailable)
	plan, err := packing.Solve(p, packing.Options{})
	require.NoError(t, err)
	require.Len(t, plan.Unschedulable, 1)
	u := plan.Unschedulable[0]
	assert.Equal(t, "wants-fixed", p.Pods[u.Pod].Name)
	assert.Equal(t, packing.Unavailable, u.Reason.Kind)
	assert.Contains(t, u.Reason.Message, "NodePool fixed would take pod default/wants-fixed but launches no node: static NodePool")
	assert.Empty(t, plan.NodeClaims)
	require.Len(t, plan.Bindings, 1, "pod anywhere goes to fixed-b, which stays as capacity")
	assert.Equal(t, "fixed-b", plan.Bindings[0].Node)

	cl, err := c.Consolidation(cat, time.Date(2025, 6, 2, 0, 0, 0, 0, time.UTC))
	require.NoError(t, err)
	res, err := consolidation.Plan(cl, consolidation.Options{})
	require.NoError(t, err)
	assert.Contains(t, res.Kept, consolidation.Explanation{Node: "fixed-b", Why: consolidation.Disabled,
		Message: "NodePool fixed has consolidation disabled"}, "empty, but of a static pool")
	for _, cmd := range res.Commands {
		for _, n := range cmd.Candidates {
			assert.NotContains(t, []string{"fixed-a", "fixed-b"}, n, "nodes of a static pool are not consolidated")
		}
	}
}
