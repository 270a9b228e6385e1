package repair_test

import (
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nodeplan/nodeplan/repair"
)

var noon = time.Date(2025, 6, 11, 12, 0, 0, 0, time.UTC)

// badNode is the fake cloud provider's only policy in Karpenter's suite
// (pkg/cloudprovider/fake/cloudprovider.go, Reset).
var badNode = []repair.Policy{{ConditionType: "BadNode", ConditionStatus: repair.ConditionFalse, TolerationDuration: 30 * time.Minute}}

func cond(typ string, st repair.Status, ago time.Duration) repair.Condition {
	return repair.Condition{Type: typ, Status: st, LastTransitionTime: noon.Add(-ago)}
}

// pool returns n nodes named prefix-0.. of pool, the first bad of them
// BadNode=False for an hour.
func pool(prefix, name string, n, bad int) []repair.Node {
	nodes := make([]repair.Node, n)
	for i := range nodes {
		nodes[i] = repair.Node{Name: fmt.Sprintf("%s-%02d", prefix, i), NodePool: name}
		if i < bad {
			nodes[i].Conditions = []repair.Condition{cond("BadNode", repair.ConditionFalse, time.Hour)}
		}
	}
	return nodes
}

// outcome is one node's verdict: "replace" or the Reason kept.
func outcomes(res repair.Result) map[string]string {
	out := map[string]string{}
	for _, r := range res.Replace {
		out[r.Node] = "replace"
	}
	for _, k := range res.Kept {
		out[k.Node] = k.Why.String()
	}
	return out
}

func TestDecide(t *testing.T) {
	one := func(c ...repair.Condition) []repair.Node {
		return []repair.Node{{Name: "n", NodePool: "default", Conditions: c}}
	}
	tests := []struct {
		name     string
		nodes    []repair.Node
		policies []repair.Policy
		want     map[string]string
	}{
		// It("should delete nodes that are unhealthy by the cloud provider") (suite_test.go:98)
		{"unhealthy past toleration", one(cond("BadNode", repair.ConditionFalse, time.Hour)), badNode,
			map[string]string{"n": "replace"}},
		// It("should not delete node when unhealthy type does not match cloud provider passed in value") (suite_test.go:112)
		{"type does not match", one(cond("FakeHealthyNode", repair.ConditionFalse, time.Hour)), badNode,
			map[string]string{"n": "Healthy"}},
		// It("should not delete node when health status does not match cloud provider passed in value") (suite_test.go:126)
		{"status does not match", one(cond("BadNode", repair.ConditionTrue, time.Hour)), badNode,
			map[string]string{"n": "Healthy"}},
		// It("should not delete node when health duration is not reached") (suite_test.go:140)
		{"toleration not reached", one(cond("BadNode", repair.ConditionFalse, 20*time.Minute)), badNode,
			map[string]string{"n": "Tolerating"}},
		// controller.go: now.Before(terminationTime) waits, so the deadline itself repairs.
		{"at the deadline", one(cond("BadNode", repair.ConditionFalse, 30*time.Minute)), badNode,
			map[string]string{"n": "replace"}},
		// It("should ignore node disruption budgets") (suite_test.go:251), It("should ignore do-not-disrupt on a node") (suite_test.go:273):
		// neither is an input of repair, so the node is replaced.
		{"budgets and do-not-disrupt ignored", one(cond("BadNode", repair.ConditionFalse, time.Hour)), badNode,
			map[string]string{"n": "replace"}},
		// It("should ignore unhealthy nodes if more then 20% of the nodes are unhealthy in a nodepool") (suite_test.go:288)
		{"3 of 10 in a pool", pool("n", "default", 10, 3), badNode, want(10, 3, "PoolUnhealthy")},
		// It("should ignore unhealthy nodes if more then 20% of the nodes are unhealthy in a cluster") (suite_test.go:322)
		{"3 of 10 in the cluster", pool("n", "", 10, 3), badNode, want(10, 3, "ClusterUnhealthy")},
		// It("should consider round up when there is a low number of nodes for a nodepool") (suite_test.go:359)
		{"1 of 3 rounds up", pool("n", "default", 3, 1), badNode, want(3, 1, "replace")},
		// areNodesHealthy: unhealthyNodeCount <= threshold is healthy.
		{"2 of 10 is the cap", pool("n", "default", 10, 2), badNode, want(10, 2, "replace")},
		{"2 of 6 rounds up to the cap", pool("n", "default", 6, 2), badNode, want(6, 2, "replace")},
		{"2 of 4 is over", pool("n", "default", 4, 2), badNode, want(4, 2, "PoolUnhealthy")},
		{"a pool's cap is its own", append(pool("a", "a", 10, 3), pool("b", "b", 10, 1)...), badNode,
			merge(prefixed("a", want(10, 3, "PoolUnhealthy")), prefixed("b", want(10, 1, "replace")))},
		// isClusterHealthy lists every node, those of pools included.
		{"the cluster counts pool nodes", append(pool("p", "p", 4, 2), pool("x", "", 1, 1)...), badNode,
			merge(prefixed("p", want(4, 2, "PoolUnhealthy")), map[string]string{"x-00": "ClusterUnhealthy"})},
		// deleteNodeClaim: a NodeClaim with a deletion timestamp is not deleted again.
		{"already deleting", []repair.Node{{Name: "n", Deleting: true,
			Conditions: []repair.Condition{cond("BadNode", repair.ConditionFalse, time.Hour)}}}, badNode,
			map[string]string{"n": "Deleting"}},
		// Reconcile: NodeClaimForNode fails for a node without a NodeClaim; it
		// still counts, so 2 of 4 block the managed one.
		{"unmanaged counts but stays", unmanaged(pool("n", "default", 4, 2)), badNode,
			map[string]string{"n-00": "Unmanaged", "n-01": "PoolUnhealthy", "n-02": "Healthy", "n-03": "Healthy"}},
		{"unmanaged alone", unmanaged(pool("n", "default", 5, 1)), badNode, want(5, 1, "Unmanaged")},
		// nodeutils.GetCondition: the first condition of a type.
		{"first condition of a type", one(cond("BadNode", repair.ConditionTrue, time.Hour), cond("BadNode", repair.ConditionFalse, time.Hour)),
			badNode, map[string]string{"n": "Healthy"}},
		{"AWS: Ready Unknown", one(cond("Ready", repair.ConditionUnknown, 31*time.Minute)), nil,
			map[string]string{"n": "replace"}},
		{"AWS: accelerated hardware after 10m", one(cond("AcceleratedHardwareReady", repair.ConditionFalse, 11*time.Minute)), nil,
			map[string]string{"n": "replace"}},
		{"AWS: Ready False within 30m", one(cond("Ready", repair.ConditionFalse, 29*time.Minute)), nil,
			map[string]string{"n": "Tolerating"}},
		{"AWS: Ready True", one(cond("Ready", repair.ConditionTrue, 29*time.Hour)), nil,
			map[string]string{"n": "Healthy"}},
		{"no nodes", nil, nil, map[string]string{}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res, err := repair.Decide(repair.Input{Nodes: tc.nodes, Policies: tc.policies, Now: noon})
			require.NoError(t, err)
			assert.Equal(t, tc.want, outcomes(res))
		})
	}
}

// want: n nodes n-00.., the first bad of them with verdict, the rest Healthy.
func want(n, bad int, verdict string) map[string]string {
	out := map[string]string{}
	for i := range n {
		out[fmt.Sprintf("n-%02d", i)] = "Healthy"
		if i < bad {
			out[fmt.Sprintf("n-%02d", i)] = verdict
		}
	}
	return out
}

func prefixed(p string, m map[string]string) map[string]string {
	out := map[string]string{}
	for k, v := range m {
		out[p+k[1:]] = v
	}
	return out
}

func merge(a, b map[string]string) map[string]string {
	for k, v := range b {
		a[k] = v
	}
	return a
}

func unmanaged(nodes []repair.Node) []repair.Node {
	nodes[0].Unmanaged = true
	return nodes
}

// It("should return the requeue interval for the condition closest to its
// terminationDuration") (suite_test.go:203): of two matching policies the one whose toleration
// ends first is the node's, 3 minutes after 27.
func TestDecideClosestCondition(t *testing.T) {
	policies := []repair.Policy{
		{ConditionType: "BadNode", ConditionStatus: repair.ConditionFalse, TolerationDuration: time.Hour},
		{ConditionType: "ValidUnhealthyCondition", ConditionStatus: repair.ConditionFalse, TolerationDuration: 30 * time.Minute},
	}
	node := repair.Node{Name: "n", Conditions: []repair.Condition{
		cond("ValidUnhealthyCondition", repair.ConditionFalse, 27*time.Minute),
		cond("BadNode", repair.ConditionFalse, 27*time.Minute),
	}}
	res, err := repair.Decide(repair.Input{Nodes: []repair.Node{node}, Policies: policies, Now: noon})
	require.NoError(t, err)
	require.Len(t, res.Kept, 1)
	assert.Equal(t, repair.Tolerating, res.Kept[0].Why)
	assert.Equal(t, noon.Add(3*time.Minute), res.Kept[0].Deadline)

	res, err = repair.Decide(repair.Input{Nodes: []repair.Node{node}, Policies: policies, Now: noon.Add(3 * time.Minute)})
	require.NoError(t, err)
	require.Len(t, res.Replace, 1)
	assert.Equal(t, policies[1], res.Replace[0].Policy)
	assert.Equal(t, "ValidUnhealthyCondition", res.Replace[0].Condition.Type)
}

// A blocked node's explanation names the pool, its unhealthy count and the cap.
func TestDecideCapExplanation(t *testing.T) {
	res, err := repair.Decide(repair.Input{Nodes: pool("n", "default", 10, 3), Policies: badNode, Now: noon})
	require.NoError(t, err)
	assert.Empty(t, res.Replace)
	k := res.Kept[0]
	assert.Equal(t, repair.Explanation{Node: "n-00", NodePool: "default", Why: repair.PoolUnhealthy, Unhealthy: 3, Total: 10, Cap: 2,
		Condition: cond("BadNode", repair.ConditionFalse, time.Hour), Policy: badNode[0], Deadline: noon.Add(-30 * time.Minute),
		Message: `3 of 10 nodes of NodePool "default" are unhealthy, more than 20% rounded up (2)`}, k)
}

func TestDecideInvalid(t *testing.T) {
	ok := repair.Node{Name: "a"}
	tests := []struct {
		name string
		in   repair.Input
		want string
	}{
		{"zero now", repair.Input{Nodes: []repair.Node{ok}}, "now: zero time"},
		{"empty name", repair.Input{Nodes: []repair.Node{{}}, Now: noon}, "nodes[0]: empty name"},
		{"duplicate name", repair.Input{Nodes: []repair.Node{ok, ok}, Now: noon}, `nodes[1]: duplicate name "a"`},
		{"negative toleration", repair.Input{Policies: []repair.Policy{{ConditionType: "X", ConditionStatus: repair.ConditionFalse, TolerationDuration: -1}}, Now: noon},
			"policies[0]: negative toleration -1ns"},
		{"policy status", repair.Input{Policies: []repair.Policy{{ConditionType: "X"}}, Now: noon}, "policies[0]: unknown condition status Status(0)"},
		{"policy type", repair.Input{Policies: []repair.Policy{{ConditionStatus: repair.ConditionTrue}}, Now: noon}, "policies[0]: empty condition type"},
		{"condition status", repair.Input{Nodes: []repair.Node{{Name: "a", Conditions: []repair.Condition{{Type: "Ready", Status: 9, LastTransitionTime: noon}}}}, Now: noon},
			"nodes[0].conditions[0]: unknown status Status(9)"},
		{"condition type", repair.Input{Nodes: []repair.Node{{Name: "a", Conditions: []repair.Condition{{Status: repair.ConditionTrue, LastTransitionTime: noon}}}}, Now: noon},
			"nodes[0].conditions[0]: empty type"},
		{"condition time", repair.Input{Nodes: []repair.Node{{Name: "a", Conditions: []repair.Condition{{Type: "Ready", Status: repair.ConditionTrue}}}}, Now: noon},
			"nodes[0].conditions[0]: zero last transition time"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res, err := repair.Decide(tc.in)
			require.Error(t, err)
			assert.True(t, errors.Is(err, repair.ErrInvalidInput))
			var ie *repair.InputError
			require.True(t, errors.As(err, &ie))
			assert.Contains(t, err.Error(), tc.want)
			assert.Equal(t, repair.Result{}, res)
		})
	}
}

func TestParseStatus(t *testing.T) {
	for _, s := range []repair.Status{repair.ConditionTrue, repair.ConditionFalse, repair.ConditionUnknown} {
		got, err := repair.ParseStatus(s.String())
		require.NoError(t, err)
		assert.Equal(t, s, got)
	}
	_, err := repair.ParseStatus("true")
	assert.True(t, errors.Is(err, repair.ErrInvalidInput))
}

func TestReasonString(t *testing.T) {
	assert.Equal(t, "PoolUnhealthy", repair.PoolUnhealthy.String())
	assert.Equal(t, "Reason(0)", repair.Reason(0).String())
	assert.Equal(t, "Reason(200)", repair.Reason(200).String())
}

func TestStatusString(t *testing.T) {
	assert.Equal(t, "Unknown", repair.ConditionUnknown.String())
	assert.Equal(t, "Status(0)", repair.Status(0).String())
	assert.Equal(t, "Status(4)", repair.Status(4).String())
}

// Result.Pools counts each pool against the cap; pool "" counts the
// whole input, as the cap of nodes of no pool does.
func TestDecidePools(t *testing.T) {
	nodes := append(append(pool("a", "web", 4, 1), pool("b", "batch", 3, 2)...), pool("x", "", 1, 1)...)
	res, err := repair.Decide(repair.Input{Nodes: nodes, Policies: badNode, Now: noon})
	require.NoError(t, err)
	assert.Equal(t, []repair.PoolHealth{
		{NodePool: "", Total: 8, Unhealthy: 4, Cap: 2, Blocked: true},
		{NodePool: "batch", Total: 3, Unhealthy: 2, Cap: 1, Blocked: true},
		{NodePool: "web", Total: 4, Unhealthy: 1, Cap: 1},
	}, res.Pools)
	assert.Equal(t, map[string]string{"a-00": "replace", "a-01": "Healthy", "a-02": "Healthy", "a-03": "Healthy",
		"b-00": "PoolUnhealthy", "b-01": "PoolUnhealthy", "b-02": "Healthy", "x-00": "ClusterUnhealthy"}, outcomes(res))
	res, err = repair.Decide(repair.Input{Now: noon})
	require.NoError(t, err)
	assert.Empty(t, res.Pools)
}

// A kept node whose condition matched says which, the policy and the
// deadline, whatever kept it; a healthy node has none.
func TestDecideKeptCondition(t *testing.T) {
	bad := cond("BadNode", repair.ConditionFalse, 10*time.Minute)
	nodes := []repair.Node{{Name: "tolerated", NodePool: "p", Conditions: []repair.Condition{bad}},
		{Name: "unmanaged", NodePool: "q", Unmanaged: true, Conditions: []repair.Condition{bad}},
		{Name: "well", NodePool: "p"}, {Name: "well2", NodePool: "p"}, {Name: "well3", NodePool: "p"}}
	res, err := repair.Decide(repair.Input{Nodes: nodes, Policies: badNode, Now: noon})
	require.NoError(t, err)
	require.Empty(t, res.Replace)
	for _, k := range res.Kept {
		switch k.Node {
		case "tolerated", "unmanaged":
			assert.Equal(t, bad, k.Condition, k.Node)
			assert.Equal(t, badNode[0], k.Policy, k.Node)
			assert.Equal(t, noon.Add(20*time.Minute), k.Deadline, k.Node)
		default:
			assert.Zero(t, k.Condition, k.Node)
			assert.Zero(t, k.Deadline, k.Node)
		}
	}
}
