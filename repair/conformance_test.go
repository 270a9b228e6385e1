package repair_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nodeplan/nodeplan/repair"
)

// TestHealthSuite mirrors every It of Karpenter v1.14.1's node health
// suite, K/controllers/node/health/suite_test.go (K is
// sigs.k8s.io/karpenter@v1.14.1/pkg), one row each with its line: the
// suite's node and NodeClaim of one NodePool (BeforeEach, :79-88), the fake
// cloud provider's BadNode=False 30m policy, the condition set at the
// suite's start and the clock stepped by step. Where the suite checks a
// requeue, the row checks the Explanation's Deadline (start + the
// toleration: the requeue is Deadline − now). The Metrics It (:386)
// checks a Prometheus counter, which a pure decision has none of.
func TestHealthSuite(t *testing.T) {
	start := noon
	at := func(typ string, st repair.Status) repair.Condition {
		return repair.Condition{Type: typ, Status: st, LastTransitionTime: start}
	}
	one := func(c ...repair.Condition) []repair.Node {
		return []repair.Node{{Name: "node", NodePool: "default", Conditions: c}}
	}
	// many is the suite's test.NodeClaimsAndNodes(n): nodes of the pool
	// (or of none), the first bad of them BadNode=False from start.
	many := func(pool string, n, bad int) []repair.Node {
		nodes := make([]repair.Node, n)
		for i := range nodes {
			nodes[i] = repair.Node{Name: string(rune('a'+i)) + "-node", NodePool: pool}
			if i < bad {
				nodes[i].Conditions = []repair.Condition{at("BadNode", repair.ConditionFalse)}
			}
		}
		return nodes
	}
	twoPolicies := []repair.Policy{
		{ConditionType: "BadNode", ConditionStatus: repair.ConditionFalse, TolerationDuration: 60 * time.Minute},
		{ConditionType: "ValidUnhealthyCondition", ConditionStatus: repair.ConditionFalse, TolerationDuration: 30 * time.Minute},
	}
	tests := []struct {
		name     string
		nodes    []repair.Node
		policies []repair.Policy
		step     time.Duration
		want     map[string]string // node → "replace" or the Reason kept
		deadline time.Duration     // of "node" kept Tolerating, from start
	}{
		// suite_test.go:98
		{"delete nodes that are unhealthy by the cloud provider", one(at("BadNode", repair.ConditionFalse)), badNode, time.Hour,
			map[string]string{"node": "replace"}, 0},
		// suite_test.go:112
		{"not delete when the unhealthy type does not match", one(at("FakeHealthyNode", repair.ConditionFalse)), badNode, time.Hour,
			map[string]string{"node": "Healthy"}, 0},
		// suite_test.go:126
		{"not delete when the health status does not match", one(at("BadNode", repair.ConditionTrue)), badNode, time.Hour,
			map[string]string{"node": "Healthy"}, 0},
		// suite_test.go:140
		{"not delete when the health duration is not reached", one(at("BadNode", repair.ConditionFalse)), badNode, 20 * time.Minute,
			map[string]string{"node": "Tolerating"}, 30 * time.Minute},
		// suite_test.go:155: Karpenter annotates the NodeClaim's termination
		// timestamp with now; a Repair is that forceful termination.
		{"set the termination annotation when force termination starts", one(at("BadNode", repair.ConditionFalse)), badNode, time.Hour,
			map[string]string{"node": "replace"}, 0},
		// suite_test.go:170: a NodePool's terminationGracePeriod (an
		// annotation 2h later) does not delay it: nothing in the input can.
		{"not respect the NodePool's termination grace period", one(at("BadNode", repair.ConditionFalse)), badNode, time.Hour,
			map[string]string{"node": "replace"}, 0},
		// suite_test.go:186: an annotation already past is kept; the node
		// is replaced all the same.
		{"not update a termination timestamp already past", one(at("BadNode", repair.ConditionFalse)), badNode, time.Hour,
			map[string]string{"node": "replace"}, 0},
		// suite_test.go:203: RequeueAfter ≈ 3m after 27m: the
		// ValidUnhealthyCondition policy's 30m ends first.
		{"requeue for the condition closest to its termination", one(at("ValidUnhealthyCondition", repair.ConditionFalse), at("BadNode", repair.ConditionFalse)),
			twoPolicies, 27 * time.Minute, map[string]string{"node": "Tolerating"}, 30 * time.Minute},
		// suite_test.go:234: RequeueAfter ≈ 3m after 27m of a 30m toleration.
		{"requeue for the time until the termination", one(at("BadNode", repair.ConditionFalse)), badNode, 27 * time.Minute,
			map[string]string{"node": "Tolerating"}, 30 * time.Minute},
		// suite_test.go:251: budgets (nodes: "0") are not an input: repair
		// ignores them.
		{"ignore node disruption budgets", one(at("BadNode", repair.ConditionFalse)), badNode, time.Hour,
			map[string]string{"node": "replace"}, 0},
		// suite_test.go:273: nor is karpenter.sh/do-not-disrupt.
		{"ignore do-not-disrupt on a node", one(at("BadNode", repair.ConditionFalse)), badNode, time.Hour,
			map[string]string{"node": "replace"}, 0},
		// suite_test.go:288: 3 of 10 in the pool; the suite checks the
		// first two, nodeplan every node.
		{"ignore unhealthy nodes over 20% of a nodepool", many("default", 10, 3), badNode, time.Hour,
			map[string]string{"a-node": "PoolUnhealthy", "b-node": "PoolUnhealthy", "c-node": "PoolUnhealthy", "d-node": "Healthy",
				"e-node": "Healthy", "f-node": "Healthy", "g-node": "Healthy", "h-node": "Healthy", "i-node": "Healthy", "j-node": "Healthy"}, 0},
		// suite_test.go:322: 3 of 10 nodes of no pool.
		{"ignore unhealthy nodes over 20% of the cluster", many("", 10, 3), badNode, time.Hour,
			map[string]string{"a-node": "ClusterUnhealthy", "b-node": "ClusterUnhealthy", "c-node": "ClusterUnhealthy", "d-node": "Healthy",
				"e-node": "Healthy", "f-node": "Healthy", "g-node": "Healthy", "h-node": "Healthy", "i-node": "Healthy", "j-node": "Healthy"}, 0},
		// suite_test.go:359: 1 of 3 is within ceil(0.6) = 1.
		{"round up for a low number of nodes", many("default", 3, 1), badNode, time.Hour,
			map[string]string{"a-node": "replace", "b-node": "Healthy", "c-node": "Healthy"}, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res, err := repair.Decide(repair.Input{Nodes: tc.nodes, Policies: tc.policies, Now: start.Add(tc.step)})
			require.NoError(t, err)
			assert.Equal(t, tc.want, outcomes(res))
			for _, k := range res.Kept {
				if k.Why == repair.Tolerating {
					assert.Equal(t, start.Add(tc.deadline), k.Deadline)
					assert.Equal(t, tc.deadline-tc.step, k.Deadline.Sub(start.Add(tc.step)), "the requeue")
				}
			}
		})
	}
}
