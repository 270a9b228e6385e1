package consolidation_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nodeplan/nodeplan/consolidation"
	"github.com/nodeplan/nodeplan/disruption"
	"github.com/nodeplan/nodeplan/instancetypes"
	"github.com/nodeplan/nodeplan/packing"
	"github.com/nodeplan/nodeplan/requirements"
	"github.com/nodeplan/nodeplan/resources"
)

// anyCapacity lets the pool launch spot and on-demand.
func anyCapacity(p packing.NodePool) packing.NodePool {
	p.Requirements = requirements.Set{}
	return p
}

type want struct {
	cmds []string                     // Command.String() of each command
	kept map[string]consolidation.Why // node -> why, for the nodes named
}

func TestPlanBehaviours(t *testing.T) {
	tests := []struct {
		name  string
		build func(c *cluster)
		opts  consolidation.Options
		want  want
	}{
		{"empty node is deleted", func(c *cluster) { c.node("a", 4); c.node("b", 4, 3000) }, consolidation.Options{},
			want{cmds: []string{"Empty delete [a] (+0) saves 0.200000/h"}}},
		{"all empty nodes go in one command", func(c *cluster) { c.node("a", 4); c.node("b", 2); c.node("c", 4, 3000) }, consolidation.Options{},
			want{cmds: []string{"Empty delete [a b] (+0) saves 0.300000/h"}}},
		{"daemonset pods do not make a node non-empty", func(c *cluster) {
			n := c.node("a", 4, 100)
			n.Pods[0].Owner = "DaemonSet/logs"
			c.node("b", 4, 3000)
		}, consolidation.Options{}, want{cmds: []string{"Empty delete [a] (+0) saves 0.200000/h"}}},
		{"mirror pods do not make a node non-empty", func(c *cluster) {
			c.node("a", 4, 100).Pods[0].Owner = "Node/a"
			c.node("b", 4, 3000)
		}, consolidation.Options{}, want{cmds: []string{"Empty delete [a] (+0) saves 0.200000/h"}}},
		{"terminating pods do not make a node non-empty", func(c *cluster) {
			c.node("a", 4, 100).Pods[0].Terminating = true
			c.node("b", 4, 3000)
		}, consolidation.Options{}, want{cmds: []string{"Empty delete [a] (+0) saves 0.200000/h"}}},
		{"a terminating pod's do-not-disrupt does not block", func(c *cluster) {
			n := c.node("a", 4, 100)
			n.Pods[0].Terminating, n.Pods[0].DoNotDisrupt = true, "true"
			c.node("b", 4, 3000)
		}, consolidation.Options{}, want{cmds: []string{"Empty delete [a] (+0) saves 0.200000/h"}}},
		{"a terminating pod does not count against a PDB", func(c *cluster) {
			c.node("a", 4, 100).Pods[0].Terminating = true
			c.node("b", 4, 3000)
			c.PDBs = []disruption.PDB{{Namespace: "default", Name: "web"}}
		}, consolidation.Options{}, want{cmds: []string{"Empty delete [a] (+0) saves 0.200000/h"}, kept: map[string]consolidation.Why{"b": consolidation.PDBBlocked}}},
		{"a terminating StatefulSet pod moves", func(c *cluster) {
			n := c.node("a", 4, 100)
			n.Pods[0].Terminating, n.Pods[0].Owner = true, "StatefulSet/db"
			c.node("b", 4, 3000)
		}, consolidation.Options{}, want{cmds: []string{"Underutilized delete [a] (+0) saves 0.200000/h"}}},
		{"a mirror pod is not moved with its node", func(c *cluster) {
			n := c.node("a", 4, 100, 100)
			n.Pods[1].Owner = "Node/a"
			c.node("b", 4, 3850)
		}, consolidation.Options{}, want{cmds: []string{"Underutilized delete [a] (+0) saves 0.200000/h"}}},
		{"a running daemonset pod leaves its node room for one more pod", func(c *cluster) {
			c.DaemonSets = []packing.DaemonSet{{Namespace: "kube-system", Name: "logs", Requests: resources.List{CPU: 1000}}}
			for _, n := range []*packing.Node{c.node("a", 4, 1000, 1000), c.node("b", 4, 1000, 2000)} {
				n.Pods[0].Namespace, n.Pods[0].Owner = "kube-system", "DaemonSet/logs"
			}
		}, consolidation.Options{}, want{cmds: []string{"Underutilized delete [a] (+0) saves 0.200000/h"}}},
		{"empty budget limits emptiness", func(c *cluster) {
			c.NodePools[0] = pool("default", packing.Budget{Nodes: "1", Reasons: []string{"Empty"}})
			c.node("a", 4)
			c.node("b", 4)
			c.node("c", 8, 3000)
		}, consolidation.Options{}, want{cmds: []string{"Empty delete [a] (+0) saves 0.200000/h", "Underutilized delete [c] (+0) saves 0.400000/h"},
			kept: map[string]consolidation.Why{"b": consolidation.NoCheaperReplacement}}},
		{"zero budget blocks everything", func(c *cluster) {
			c.NodePools[0] = pool("default", packing.Budget{Nodes: "0"})
			c.node("a", 4)
			c.node("b", 4, 100)
		}, consolidation.Options{}, want{kept: map[string]consolidation.Why{"a": consolidation.Budget, "b": consolidation.Budget}}},
		{"default budget is 10% rounded up", func(c *cluster) {
			c.NodePools[0].Disruption.Budgets = nil
			for _, n := range []string{"a", "b", "c"} {
				c.node(n, 4)
			}
			c.node("d", 8, 3000)
		}, consolidation.Options{}, want{cmds: []string{"Empty delete [a] (+0) saves 0.200000/h"}}},
		{"deleting nodes consume the budget", func(c *cluster) {
			c.NodePools[0] = pool("default", packing.Budget{Nodes: "1"})
			c.node("gone", 4).MarkedForDeletion = true
			c.node("a", 4)
		}, consolidation.Options{}, want{kept: map[string]consolidation.Why{"a": consolidation.Budget, "gone": consolidation.Deleting}}},
		{"uninitialized nodes neither count for nor consume the budget and are not candidates", func(c *cluster) {
			c.NodePools[0] = pool("default", packing.Budget{Nodes: "1"})
			c.node("new", 4).Initialized = false
			c.node("a", 4)
		}, consolidation.Options{}, want{cmds: []string{"Empty delete [a] (+0) saves 0.200000/h"},
			kept: map[string]consolidation.Why{"new": consolidation.NotInitialized}}},
		{"not ready nodes consume the budget", func(c *cluster) {
			c.NodePools[0] = pool("default", packing.Budget{Nodes: "1"})
			c.node("sick", 4, 1000).NotReady = true
			c.node("a", 4)
			c.node("b", 4, 1000)
		}, consolidation.Options{}, want{kept: map[string]consolidation.Why{"a": consolidation.Budget}}},
		{"budget outside its schedule does not apply", func(c *cluster) {
			c.NodePools[0] = pool("default", packing.Budget{Nodes: "0", Schedule: "0 0 * * *", Duration: time.Hour}, packing.Budget{Nodes: "100%"})
			c.node("a", 4)
			c.node("b", 4, 100)
		}, consolidation.Options{}, want{cmds: []string{"Empty delete [a] (+0) saves 0.200000/h", "Underutilized replace [b] (+1) saves 0.150000/h"}}},
		{"underused nodes are merged by multi-node delete", func(c *cluster) {
			c.node("a", 8, 1000)
			c.node("b", 8, 1000)
			c.node("c", 8, 6000)
		}, consolidation.Options{}, want{cmds: []string{"Underutilized delete [a b] (+0) saves 0.800000/h"}}},
		{"multi-node replaces several nodes with one cheaper", func(c *cluster) {
			for _, n := range []string{"a", "b", "c", "d"} {
				c.node(n, 4, 2500)
			}
		}, consolidation.Options{}, want{cmds: []string{"Underutilized replace [a b c] (+1) saves 0.200000/h"},
			kept: map[string]consolidation.Why{"d": consolidation.NoCheaperReplacement}}},
		{"binary search misses a longer prefix, as Karpenter's", func(c *cluster) {
			for _, n := range []string{"a", "b", "c"} {
				c.node(n, 4, 2500)
			}
		}, consolidation.Options{}, want{kept: map[string]consolidation.Why{"a": consolidation.NoCheaperReplacement}}},
		{"repack finds what the binary search misses", func(c *cluster) {
			for _, n := range []string{"a", "b", "c"} {
				c.node(n, 4, 2500)
			}
		}, consolidation.Options{Repack: true}, want{cmds: []string{"Underutilized replace [a b c] (+1) saves 0.200000/h"}}},
		{"karpenter cannot split a large node", func(c *cluster) {
			c.node("big", 32, 4000, 4000, 4000, 4000, 4000)
		}, consolidation.Options{}, want{kept: map[string]consolidation.Why{"big": consolidation.NoCheaperReplacement}}},
		{"repack splits a large node into smaller ones", func(c *cluster) {
			c.node("big", 32, 4000, 4000, 4000, 4000, 4000)
		}, consolidation.Options{Repack: true}, want{cmds: []string{"Underutilized replace [big] (+2) saves 0.600000/h"}}},
		{"single-node replace with a strictly cheaper node", func(c *cluster) {
			c.node("a", 16, 1500)
		}, consolidation.Options{}, want{cmds: []string{"Underutilized replace [a] (+1) saves 0.700000/h"}}},
		{"no cheaper replacement keeps the node", func(c *cluster) {
			c.node("a", 2, 1800)
		}, consolidation.Options{}, want{kept: map[string]consolidation.Why{"a": consolidation.NoCheaperReplacement}}},
		{"on-demand replaced by spot when the pool allows both", func(c *cluster) {
			c.NodePools[0] = anyCapacity(c.NodePools[0])
			c.node("a", 2, 1800)
		}, consolidation.Options{}, want{cmds: []string{"Underutilized replace [a] (+1) saves 0.060000/h"}}},
		{"spot to spot disabled by default", func(c *cluster) {
			c.NodePools[0] = anyCapacity(c.NodePools[0])
			c.nodeCT("a", 16, instancetypes.Spot, 500)
		}, consolidation.Options{}, want{kept: map[string]consolidation.Why{"a": consolidation.SpotToSpot}}},
		{"spot to spot needs 15 cheaper types", func(c *cluster) {
			c.NodePools[0] = anyCapacity(c.NodePools[0])
			c.nodeCT("a", 16, instancetypes.Spot, 500)
		}, consolidation.Options{SpotToSpot: true}, want{kept: map[string]consolidation.Why{"a": consolidation.SpotToSpot}}},
		{"spot to spot with enough types, truncated to 15", func(c *cluster) {
			c.NodePools[0] = anyCapacity(c.NodePools[0])
			c.Catalog = testCatalog(20)
			c.nodeCT("a", 32, instancetypes.Spot, 500)
		}, consolidation.Options{SpotToSpot: true}, want{cmds: []string{"Underutilized replace [a] (+1) saves 0.630000/h"}}},
		{"WhenEmpty leaves underused nodes", func(c *cluster) {
			c.NodePools[0].Disruption.Policy = packing.WhenEmpty
			c.node("a", 8, 500)
			c.node("b", 8, 500)
		}, consolidation.Options{}, want{kept: map[string]consolidation.Why{"a": consolidation.PolicyWhenEmpty, "b": consolidation.PolicyWhenEmpty}}},
		{"WhenEmpty still deletes empty nodes", func(c *cluster) {
			c.NodePools[0].Disruption.Policy = packing.WhenEmpty
			c.node("a", 8)
			c.node("b", 8, 500)
		}, consolidation.Options{}, want{cmds: []string{"Empty delete [a] (+0) saves 0.400000/h"}}},
		{"consolidation disabled", func(c *cluster) {
			c.NodePools[0].Disruption.ConsolidateNever = true
			c.node("a", 8)
		}, consolidation.Options{}, want{kept: map[string]consolidation.Why{"a": consolidation.Disabled}}},
		{"consolidateAfter not yet passed since the last pod event", func(c *cluster) {
			c.NodePools[0].Disruption.ConsolidateAfter = 10 * time.Minute
			c.node("a", 8)
			c.LastPodEvent = map[string]time.Time{"a": now.Add(-5 * time.Minute)}
		}, consolidation.Options{}, want{kept: map[string]consolidation.Why{"a": consolidation.ConsolidateAfter}}},
		{"consolidateAfter passed", func(c *cluster) {
			c.NodePools[0].Disruption.ConsolidateAfter = 10 * time.Minute
			c.node("a", 8)
			c.LastPodEvent = map[string]time.Time{"a": now.Add(-15 * time.Minute)}
		}, consolidation.Options{}, want{cmds: []string{"Empty delete [a] (+0) saves 0.400000/h"}}},
		{"a node inside consolidateAfter takes no displaced pods", func(c *cluster) {
			c.NodePools[0].Disruption.ConsolidateAfter = 10 * time.Minute
			c.node("a", 8, 900)
			c.node("b", 8, 3000)
			c.LastPodEvent = map[string]time.Time{"a": now.Add(-15 * time.Minute), "b": now.Add(-5 * time.Minute)}
		}, consolidation.Options{}, want{cmds: []string{"Underutilized replace [a] (+1) saves 0.350000/h"},
			kept: map[string]consolidation.Why{"b": consolidation.ConsolidateAfter}}},
		{"the same pod moves onto a node past consolidateAfter", func(c *cluster) {
			c.NodePools[0].Disruption.ConsolidateAfter = 10 * time.Minute
			c.node("a", 8, 900)
			c.node("b", 8, 3000).Annotations = map[string]string{disruption.AnnotationDoNotDisrupt: "true"}
			c.LastPodEvent = map[string]time.Time{"a": now.Add(-15 * time.Minute), "b": now.Add(-12 * time.Minute)}
		}, consolidation.Options{}, want{cmds: []string{"Underutilized delete [a] (+0) saves 0.400000/h"}}},
		{"node do-not-disrupt", func(c *cluster) {
			c.node("a", 8).Annotations = map[string]string{disruption.AnnotationDoNotDisrupt: "true"}
		}, consolidation.Options{}, want{kept: map[string]consolidation.Why{"a": consolidation.NodeDoNotDisrupt}}},
		{"pod do-not-disrupt blocks its node", func(c *cluster) {
			c.node("a", 8, 500).Pods[0].DoNotDisrupt = "true"
			c.node("b", 8, 500)
		}, consolidation.Options{}, want{cmds: []string{"Underutilized delete [b] (+0) saves 0.400000/h"}, kept: map[string]consolidation.Why{"a": consolidation.PodDoNotDisrupt}}},
		{"expired do-not-disrupt duration no longer blocks", func(c *cluster) {
			c.node("a", 8, 500).Pods[0].DoNotDisrupt = "30m"
			c.node("b", 8, 500).Pods[0].DoNotDisrupt = "true"
		}, consolidation.Options{}, want{cmds: []string{"Underutilized delete [a] (+0) saves 0.400000/h"}}},
		{"PDB allowing none blocks", func(c *cluster) {
			c.node("a", 8, 500)
			c.node("b", 8, 500)
			c.PDBs = []disruption.PDB{{Namespace: "default", Name: "web"}}
		}, consolidation.Options{}, want{kept: map[string]consolidation.Why{"a": consolidation.PDBBlocked, "b": consolidation.PDBBlocked}}},
		{"pods that fit nowhere keep the node", func(c *cluster) {
			c.NodePools[0].Limits = map[resources.Name]int64{packing.LimitNodes: 2}
			c.node("a", 8, 6000)
			c.node("b", 8, 6000)
		}, consolidation.Options{}, want{kept: map[string]consolidation.Why{"a": consolidation.NoCheaperReplacement, "b": consolidation.NoCheaperReplacement}}},
		{"nominated nodes are not candidates", func(c *cluster) {
			c.node("a", 8)
			c.NominatedUntil = map[string]time.Time{"a": now.Add(time.Minute)}
		}, consolidation.Options{}, want{kept: map[string]consolidation.Why{"a": consolidation.Nominated}}},
		{"unmanaged nodes are left alone", func(c *cluster) {
			c.node("a", 8).NodePool = ""
		}, consolidation.Options{}, want{kept: map[string]consolidation.Why{"a": consolidation.NotManaged}}},
		{"displaced pods may not land on uninitialized nodes", func(c *cluster) {
			c.node("new", 8).Initialized = false
			c.node("a", 2, 1500)
		}, consolidation.Options{}, want{kept: map[string]consolidation.Why{"a": consolidation.PodsDoNotFit}}},
		{"minimum price improvement blocks small savings", func(c *cluster) {
			c.node("a", 4, 1500)
		}, consolidation.Options{MinPriceImprovement: 0.6}, want{kept: map[string]consolidation.Why{"a": consolidation.NoCheaperReplacement}}},
		{"minimum price improvement allows large savings", func(c *cluster) {
			c.node("a", 4, 1500)
		}, consolidation.Options{MinPriceImprovement: 0.4}, want{cmds: []string{"Underutilized replace [a] (+1) saves 0.100000/h"}}},
		{"Balanced rejects a move not worth the disruption", func(c *cluster) {
			c.NodePools[0].Disruption.Policy = packing.Balanced
			c.node("a", 2, 100, 100, 100, 100, 100, 100, 100, 100)
			c.node("z", 32, 31000)
		}, consolidation.Options{}, want{kept: map[string]consolidation.Why{"a": consolidation.ScoreTooLow, "z": consolidation.NoCheaperReplacement}}},
		{"the same move passes without Balanced", func(c *cluster) {
			c.node("a", 2, 100, 100, 100, 100, 100, 100, 100, 100)
			c.node("z", 32, 31000)
		}, consolidation.Options{}, want{cmds: []string{"Underutilized delete [a] (+0) saves 0.100000/h"}}},
		{"among equal savings ratios the budget keeps the dearer nodes", func(c *cluster) {
			// a: $0.05/h for 1 pod, b: $0.10/h for 3, d: $0.20/h for 7,
			// each $0.025/h per unit of disruption (1 + a pod each); by
			// name the budget of two kept a and b ($0.15/h).
			c.NodePools[0] = pool("default", packing.Budget{Nodes: "2"})
			c.node("a", 1, 500)
			c.node("b", 2, 500, 500, 500)
			c.node("d", 4, 400, 400, 400, 400, 400, 400, 400)
			c.node("z", 16, 1000).Pods[0].DoNotDisrupt = "true"
		}, consolidation.Options{}, want{cmds: []string{"Underutilized delete [b d] (+0) saves 0.300000/h"},
			kept: map[string]consolidation.Why{"a": consolidation.Budget}}},
		{"MinScore applies to every pool", func(c *cluster) {
			c.node("a", 2, 100, 100, 100, 100, 100, 100, 100, 100)
			c.node("z", 32, 31000)
		}, consolidation.Options{MinScore: 0.5}, want{kept: map[string]consolidation.Why{"a": consolidation.ScoreTooLow}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c := newCluster()
			tc.build(c)
			before := price(c.Cluster)
			r, err := consolidation.Plan(c.Cluster, tc.opts)
			require.NoError(t, err)
			var got []string
			var saved instancetypes.Price
			for _, cmd := range r.Commands {
				got = append(got, cmd.String())
				saved += cmd.Savings
			}
			assert.Equal(t, tc.want.cmds, got, "kept: %v", r.Kept)
			assert.Empty(t, consolidation.VerifyCommands(c.Cluster, r.Commands))
			kept := map[string]consolidation.Why{}
			for _, k := range r.Kept {
				kept[k.Node] = k.Why
				assert.NotEmpty(t, k.Message)
			}
			for n, w := range tc.want.kept {
				assert.Equal(t, w.String(), kept[n].String(), "node %s: %v", n, r.Kept)
			}
			assert.Equal(t, before, price(c.Cluster), "input unchanged")
			assert.GreaterOrEqual(t, int64(saved), int64(0))
		})
	}
}

// TestPlanNamesReplacementsApartFromNodes: a replacement never takes the
// name (the hostname) of a node; named consolidation-1 beside a node of
// that name, it made every later simulation fail on the duplicate, node d
// was kept as PodsDoNotFit, and VerifyCommands saw nothing wrong.
func TestPlanNamesReplacementsApartFromNodes(t *testing.T) {
	c := newCluster()
	c.node("a", 16, 1500)
	c.node("consolidation-1", 2, 1800)
	c.node("d", 2, 1800)
	r, err := consolidation.Plan(c.Cluster, consolidation.Options{})
	require.NoError(t, err)
	require.Len(t, r.Commands, 1, "kept: %v", r.Kept)
	require.Len(t, r.Commands[0].Replacements, 1)
	assert.Equal(t, "consolidation-2", r.Commands[0].Replacements[0].Name)
	for _, k := range r.Kept {
		assert.Equal(t, consolidation.NoCheaperReplacement.String(), k.Why.String(), "%s: %s", k.Node, k.Message)
	}
	assert.Empty(t, consolidation.VerifyCommands(c.Cluster, r.Commands))
}

// TestApplyForeignHome: a command's home for a pod that none of its
// candidates gave up (a command not made for the state) moves nothing:
// the candidate's own pods land where their homes say, nothing else
// changes, and nothing panics.
func TestApplyForeignHome(t *testing.T) {
	c := newCluster()
	c.node("a", 16, 500)
	c.node("b", 16, 700)
	c.node("c", 16)
	a, b := c.Nodes[0].Pods[0], c.Nodes[1].Pods[0]
	cmd := consolidation.Command{Reason: disruption.Underutilized, Method: consolidation.SingleNode, Candidates: []string{"a"},
		Homes: []disruption.Home{{Pod: disruption.Ref(&b), Node: "c"}, {Pod: disruption.Ref(&a), Node: "c"}}}
	after, err := consolidation.After(c.Cluster, consolidation.Options{}, []consolidation.Command{cmd})
	require.NoError(t, err)
	require.Len(t, after.Nodes, 3)
	assert.True(t, after.Nodes[0].MarkedForDeletion)
	assert.Equal(t, []packing.Pod{b}, after.Nodes[1].Pods, "b's pod stays")
	require.Len(t, after.Nodes[2].Pods, 1, "only a's pod moves")
	assert.Equal(t, a.Name, after.Nodes[2].Pods[0].Name)
}

// TestDuplicatePodNameFailsTheMove: a pending pod named like a pod bound to
// node a makes every simulation that displaces a's pods fail on the
// duplicate, so a stays, explained; b, whose pods are named apart, goes.
// (Plan takes a simulation's pending pods as validated only when the
// cluster names every pod apart.)
func TestDuplicatePodNameFailsTheMove(t *testing.T) {
	c := newCluster()
	c.node("a", 16, 1000)
	c.node("b", 16, 1000)
	c.Pending = append(c.Pending, pod("a-p0", 500))
	r, err := consolidation.Plan(c.Cluster, consolidation.Options{})
	require.NoError(t, err)
	require.Len(t, r.Commands, 1)
	assert.Equal(t, []string{"b"}, r.Commands[0].Candidates)
	require.Len(t, r.Kept, 1)
	assert.Equal(t, consolidation.PodsDoNotFit, r.Kept[0].Why)
	assert.Contains(t, r.Kept[0].Message, "duplicate pod")
}
