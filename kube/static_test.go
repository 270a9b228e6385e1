package kube

import (
	"testing"
	"time"

	"github.com/nodeplan/nodeplan/consolidation"
	"github.com/nodeplan/nodeplan/instancetypes"
	"github.com/nodeplan/nodeplan/packing"
	"github.com/nodeplan/nodeplan/static"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
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
	assert.Contains(t, c.Warnings, "static NodePools: fixed (spec.replicas 2) launches no node "+
		"for pending pods and its nodes are not consolidated, as Karpenter provisions and consolidates none; its nodes stay as existing capacity, "+
		"and spec.replicas alone scales it (nodeplan static)")
	cat, err := instancetypes.AWS(instancetypes.Options{CapacityTypes: []instancetypes.CapacityType{instancetypes.OnDemand}})
	require.NoError(t, err)
	p, err := c.Problem(cat)
	require.NoError(t, err)
	require.Len(t, p.NodePools, 2)
	assert.Equal(t, "static NodePool (spec.replicas 2): Karpenter provisions no node of it for pending pods; "+
		"a static pool is scaled by spec.replicas alone (nodeplan static)", p.NodePools[0].Unavailable)
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

// Cluster.Static reads what static.Decide needs: replicas, limits.nodes,
// budgets, readiness, and each NodeClaim's providerID, Drifted condition,
// deletion and node with its pods.
func TestClusterStatic(t *testing.T) {
	fixture, err := loadFixtureBytes("static-replicas.yaml")
	require.NoError(t, err)
	c, err := Load(Source{Name: "static-replicas.yaml", Data: fixture})
	require.NoError(t, err)
	cat, err := instancetypes.AWS(instancetypes.Options{CapacityTypes: []instancetypes.CapacityType{instancetypes.OnDemand}})
	require.NoError(t, err)
	at := time.Date(2025, 6, 2, 0, 0, 0, 0, time.UTC)
	in, err := c.Static(cat, at)
	require.NoError(t, err)
	require.Len(t, in.Pools, 3)
	assert.Equal(t, int64(3), in.Pools[0].NodePool.Limits[packing.LimitNodes])
	require.Len(t, in.Claims, 4)
	assert.True(t, in.Claims[0].Drifted && in.Claims[0].Resolved && in.Claims[0].Node.Initialized)
	assert.True(t, time.Date(2025, 6, 1, 8, 0, 0, 0, time.UTC).Equal(in.Claims[0].Node.CreationTime), "the NodeClaim's creation")
	assert.Len(t, in.Claims[2].Node.Pods, 1)

	res, err := static.Decide(in)
	require.NoError(t, err)
	require.Len(t, res.Pools, 3)
	grow, shrink, steady := res.Pools[0], res.Pools[1], res.Pools[2]
	assert.Equal(t, []static.Replacement{{Candidate: "steady-a"}}, steady.Replace)
	assert.Equal(t, "m5.large", steady.Launch.InstanceType)
	assert.Equal(t, 2, grow.Create)
	assert.Equal(t, []static.Note{{Why: static.LimitReached, Message: "NodePool grow's limits.nodes 2, with 0 active, 0 deleting, " +
		"0 pending disruption and 0 drift replacements, leaves room for 2 of 3 missing NodeClaims"}}, grow.Notes)
	assert.Equal(t, "c5.large", grow.Launch.InstanceType, "the cheapest of c5.large and m5.large")
	assert.Equal(t, []static.Removal{{Claim: "shrink-idle", Kind: static.Empty}}, shrink.Remove)
}

// Karpenter's NodePool CRD rejects a weight and limits other than nodes on
// a static pool (K/apis/crds/karpenter.sh_nodepools.yaml:462-465).
func TestStaticNodePoolInvalid(t *testing.T) {
	two, one := int64(2), int32(1)
	tests := []struct {
		name  string
		spec  NodePoolSpec
		field string
	}{
		{"negative replicas", NodePoolSpec{Replicas: new(int64(-1))}, "spec.replicas"},
		{"weight", NodePoolSpec{Replicas: &two, Weight: &one}, "spec.weight"},
		{"cpu limit", NodePoolSpec{Replicas: &two, Limits: corev1.ResourceList{"nodes": resource.MustParse("3"), "cpu": resource.MustParse("8")}}, "spec.limits.cpu"},
		{"gpu limit, its key quoted", NodePoolSpec{Replicas: &two, Limits: corev1.ResourceList{"nvidia.com/gpu": resource.MustParse("1")}}, `spec.limits["nvidia.com/gpu"]`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := FromNodePool(&NodePool{Metadata: ObjectMeta{Name: "fixed"}, Spec: tc.spec})
			var oe *ObjectError
			require.ErrorAs(t, err, &oe)
			assert.Equal(t, tc.field, oe.Field)
			assert.ErrorIs(t, err, ErrInvalid)
		})
	}
	_, err := FromNodePool(&NodePool{Metadata: ObjectMeta{Name: "fixed"},
		Spec: NodePoolSpec{Replicas: &two, Limits: corev1.ResourceList{"nodes": resource.MustParse("3")}}})
	assert.NoError(t, err)
}

// Each NodeClaim state static.Decide distinguishes, as Cluster.Static
// reads it.
func TestClusterStaticClaims(t *testing.T) {
	claim := func(name, status string, extra string) string {
		return "---\napiVersion: karpenter.sh/v1\nkind: NodeClaim\nmetadata: {name: " + name + ", labels: {karpenter.sh/nodepool: p, node.kubernetes.io/instance-type: m5.large}" + extra + "}\n" +
			"spec: {requirements: [], nodeClassRef: {group: karpenter.k8s.aws, kind: EC2NodeClass, name: default}}\nstatus: " + status + "\n"
	}
	node := func(name, taints string) string {
		return "---\napiVersion: v1\nkind: Node\nmetadata: {name: " + name + ", labels: {karpenter.sh/nodepool: p, karpenter.sh/initialized: \"true\", " +
			"node.kubernetes.io/instance-type: m5.large, karpenter.sh/capacity-type: on-demand, topology.kubernetes.io/zone: us-east-1a}}\n" +
			"spec: {providerID: \"aws:///" + name + "\"" + taints + "}\nstatus: {allocatable: {cpu: \"2\", memory: 8Gi, pods: \"29\"}}\n"
	}
	docs := "apiVersion: karpenter.sh/v1\nkind: NodePool\nmetadata: {name: p, deletionTimestamp: \"2025-06-01T00:00:00Z\"}\n" +
		"spec: {replicas: 1, template: {spec: {requirements: [], nodeClassRef: {group: karpenter.k8s.aws, kind: EC2NodeClass, name: default}}}}\n" +
		"status: {conditions: [{type: Ready, status: \"False\", reason: NodeClassNotReady}]}\n" +
		claim("unresolved", "{}", "") +
		claim("deleting", "{nodeName: deleting, providerID: \"aws:///deleting\"}", ", deletionTimestamp: \"2025-06-01T00:00:00Z\", finalizers: [karpenter.sh/termination]") +
		claim("disrupted", "{nodeName: disrupted, providerID: \"aws:///disrupted\"}", "") +
		claim("inflight", "{providerID: \"aws:///inflight\"}", "") +
		node("deleting", "") + node("disrupted", ", taints: [{key: karpenter.sh/disrupted, effect: NoSchedule}]")
	c, err := Load(Source{Name: "static.yaml", Data: []byte(docs)})
	require.NoError(t, err)
	in, err := c.Static(nil, time.Date(2025, 6, 2, 0, 0, 0, 0, time.UTC))
	require.NoError(t, err)
	require.Len(t, in.Pools, 1)
	assert.True(t, in.Pools[0].Deleting)
	assert.Equal(t, "Ready=False, NodeClassNotReady", in.Pools[0].NotReady)
	byName := map[string]static.Claim{}
	for _, cl := range in.Claims {
		byName[cl.Name] = cl
	}
	require.Len(t, byName, 4)
	assert.False(t, byName["unresolved"].Resolved)
	assert.True(t, byName["deleting"].Deleting && byName["deleting"].Resolved)
	assert.True(t, byName["disrupted"].PendingDisruption && !byName["disrupted"].Deleting)
	assert.True(t, byName["disrupted"].Node.Initialized)
	assert.True(t, byName["inflight"].Resolved && !byName["inflight"].Node.Initialized)
	res, err := static.Decide(in)
	require.NoError(t, err)
	d := res.Pools[0]
	assert.Equal(t, [3]int{2, 1, 1}, [3]int{d.Active, d.Deleting, d.PendingDisruption})
	assert.Equal(t, static.PoolDeleting, d.Notes[0].Why)
}

// TestDisruptedTaint: the taint is matched by key and effect, as
// Karpenter's MatchTaint matches karpv1.DisruptedNoScheduleTaint (the
// shadow accountant and Static share the rule).
func TestDisruptedTaint(t *testing.T) {
	tests := []struct {
		key, effect string
		want        bool
	}{
		{"karpenter.sh/disrupted", "NoSchedule", true},
		{"karpenter.sh/disrupted", "NoExecute", false},
		{"karpenter.sh/disruption", "NoSchedule", false},
	}
	for _, tc := range tests {
		assert.Equal(t, tc.want, DisruptedTaint(tc.key, tc.effect), "%s:%s", tc.key, tc.effect)
	}
}

// TestClusterStaticDuplicateClass: an EC2NodeClass defined twice, which a
// static pool's readiness reads, is an error, not a pool taken as Ready.
func TestClusterStaticDuplicateClass(t *testing.T) {
	two := int64(2)
	c := Cluster{NodePools: []NodePool{{Metadata: ObjectMeta{Name: "fixed"}, Spec: NodePoolSpec{Replicas: &two,
		Template: NodeClaimTemplate{Spec: NodeClaimSpec{NodeClassRef: &NodeClassReference{Kind: KindEC2NodeClass, Name: "c"}}}}}},
		NodeClasses: []EC2NodeClass{{Metadata: ObjectMeta{Name: "c"}}, {Metadata: ObjectMeta{Name: "c"}}}}
	_, err := c.staticNotReady(&c.NodePools[0])
	assert.ErrorIs(t, err, ErrInvalid)
}
