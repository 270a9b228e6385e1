package drift_test

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nodeplan/nodeplan/disruption"
	"github.com/nodeplan/nodeplan/drift"
	"github.com/nodeplan/nodeplan/packing"
	"github.com/nodeplan/nodeplan/packing/verify"
)

func verifyFixtures() map[string]struct {
	cl  drift.Cluster
	now time.Time
} {
	out := map[string]struct {
		cl  drift.Cluster
		now time.Time
	}{}
	add := func(name string, cl drift.Cluster, at time.Time) {
		out[name] = struct {
			cl  drift.Cluster
			now time.Time
		}{cl, at}
	}
	open := func(cl drift.Cluster) drift.Cluster {
		cl.NodePools[0].NodePool.Disruption.Budgets = []packing.Budget{{Nodes: "100%"}}
		return cl
	}
	add("empty first", open(cluster(drifted("busy", 0, pod("p", "100m")), drifted("empty", time.Hour), state("spare"))), now)
	add("existing capacity", cluster(drifted("a", 0, pod("p", "100m")), state("spare")), now)
	add("replacement", cluster(drifted("a", 0, pod("p", "1500m"))), now)
	add("skip unfit", open(cluster(drifted("first", 0, pod("huge", "64")), drifted("second", time.Minute, pod("p", "100m")), state("spare"))), now)
	var many []drift.NodeClaimState
	for _, n := range []string{"a", "b", "c", "d", "e"} {
		many = append(many, drifted(n, 0))
	}
	capped := cluster(many...)
	capped.NodePools[0].NodePool.Disruption.Budgets = []packing.Budget{{Nodes: "2"}}
	add("budget cap", capped, now)
	p := pod("p", "100m")
	p.DoNotDisrupt = "true"
	forced := cluster(state("old", p), state("spare"))
	forced.Nodes[1].Node.CreationTime = t0.Add(700 * time.Hour)
	forced.NodePools[0].NodePool.Disruption.Budgets = []packing.Budget{{Nodes: "0"}}
	add("forceful expiration", forced, t0.Add(721*time.Hour))
	return out
}

func TestVerifyCommandsAcceptsCommands(t *testing.T) {
	for name, f := range verifyFixtures() {
		t.Run(name, func(t *testing.T) {
			cmds, _ := run(t, f.cl, f.now)
			require.NotEmpty(t, cmds)
			assert.Empty(t, drift.VerifyCommands(clusterAt(f.cl, f.now), cmds), "%+v", cmds)
		})
	}
}

// mutationBase drifts a (one pod, to spare) with budget 1; spare has room
// for one small pod more and full has none.
func mutationBase(t testing.TB) (drift.Cluster, []drift.Command) {
	cl := cluster(drifted("a", 0, pod("p", "100m")), state("spare"), state("full", pod("big", "1850m")),
		drifted("b", time.Minute, pod("q", "100m")))
	cl.NodePools[0].NodePool.Disruption.Budgets = []packing.Budget{{Nodes: "1"}}
	cmds, _ := run(t, cl, now)
	return cl, cmds
}

func TestVerifyCommandsMutations(t *testing.T) {
	cl, base := mutationBase(t)
	require.Len(t, base, 1)
	require.Equal(t, "a", base[0].Node)
	require.Empty(t, drift.VerifyCommands(clusterAt(cl, now), base))
	tests := []struct {
		name   string
		mutate func(cl *drift.Cluster, cmds *[]drift.Command)
		rule   drift.Rule
		pack   verify.Rule
	}{
		{"drop a home", func(_ *drift.Cluster, cmds *[]drift.Command) { (*cmds)[0].Homes = nil }, drift.RuleHomes, 0},
		{"two homes", func(_ *drift.Cluster, cmds *[]drift.Command) {
			(*cmds)[0].Homes = append((*cmds)[0].Homes, (*cmds)[0].Homes[0])
		}, drift.RuleHomes, 0},
		{"unschedulable in a budgeted command", func(_ *drift.Cluster, cmds *[]drift.Command) {
			(*cmds)[0].Homes[0] = disruption.Home{Pod: (*cmds)[0].Homes[0].Pod, Unschedulable: "no room"}
		}, drift.RuleHomes, 0},
		{"move a pod to a full node", func(_ *drift.Cluster, cmds *[]drift.Command) { (*cmds)[0].Homes[0].Node = "full" }, drift.RulePacking, verify.RuleOverCapacity},
		{"move a pod to the node itself", func(_ *drift.Cluster, cmds *[]drift.Command) { (*cmds)[0].Homes[0].Node = "a" }, drift.RulePacking, verify.RuleUnknownNode},
		{"exceed a budget", func(_ *drift.Cluster, cmds *[]drift.Command) {
			*cmds = append(*cmds, drift.Command{Node: "b", NodePool: "default", Reason: disruption.Drifted,
				Homes: []disruption.Home{{Pod: disruption.PodRef{Namespace: "default", Name: "q"}, Node: "spare"}}})
		}, drift.RuleBudget, 0},
		{"touch a do-not-disrupt node", func(cl *drift.Cluster, _ *[]drift.Command) {
			cl.Nodes[0].Node.Annotations = map[string]string{disruption.AnnotationDoNotDisrupt: "true"}
		}, drift.RuleDoNotDisrupt, 0},
		{"touch a do-not-disrupt pod", func(cl *drift.Cluster, _ *[]drift.Command) {
			cl.Nodes[0].Node.Pods = slices.Clone(cl.Nodes[0].Node.Pods)
			cl.Nodes[0].Node.Pods[0].DoNotDisrupt = "true"
		}, drift.RuleDoNotDisrupt, 0},
		{"PDB blocks", func(cl *drift.Cluster, _ *[]drift.Command) {
			cl.PDBs = []disruption.PDB{{Namespace: "default", Name: "all"}}
		}, drift.RulePDB, 0},
		{"touch a node whose daemonset pod has do-not-disrupt", func(cl *drift.Cluster, _ *[]drift.Command) {
			ds := pod("logs", "10m")
			ds.Owner, ds.DoNotDisrupt = "DaemonSet/logs", "true"
			cl.Nodes[0].Node.Pods = append(slices.Clone(cl.Nodes[0].Node.Pods), ds)
		}, drift.RuleDoNotDisrupt, 0},
		{"a replacement named as a node", func(_ *drift.Cluster, cmds *[]drift.Command) {
			(*cmds)[0].Replacements = []packing.NodeClaim{{Name: "full", NodePool: "default"}}
		}, drift.RuleReplacement, 0},
		{"a replacement without a name", func(_ *drift.Cluster, cmds *[]drift.Command) {
			(*cmds)[0].Replacements = []packing.NodeClaim{{NodePool: "default"}}
		}, drift.RuleReplacement, 0},
		{"a replacement name too long for a hostname", func(_ *drift.Cluster, cmds *[]drift.Command) {
			(*cmds)[0].Replacements = []packing.NodeClaim{{Name: strings.Repeat("r", 64), NodePool: "default"}}
		}, drift.RuleReplacement, 0},
		{"a replacement name with a character no hostname has", func(_ *drift.Cluster, cmds *[]drift.Command) {
			(*cmds)[0].Replacements = []packing.NodeClaim{{Name: "a/replacement", NodePool: "default"}}
		}, drift.RuleReplacement, 0},
		{"two replacements of one name", func(_ *drift.Cluster, cmds *[]drift.Command) {
			(*cmds)[0].Replacements = []packing.NodeClaim{{Name: "r", NodePool: "default"}, {Name: "r", NodePool: "default"}}
		}, drift.RuleReplacement, 0},
		{"replace a node twice", func(_ *drift.Cluster, cmds *[]drift.Command) { *cmds = append(*cmds, (*cmds)[0]) }, drift.RuleNode, 0},
		{"unknown node", func(_ *drift.Cluster, cmds *[]drift.Command) { (*cmds)[0].Node = "ghost" }, drift.RuleNode, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cl, cmds := mutationBase(t)
			cmds[0].Homes = slices.Clone(cmds[0].Homes)
			tc.mutate(&cl, &cmds)
			got := drift.VerifyCommands(clusterAt(cl, now), cmds)
			assert.True(t, slices.ContainsFunc(got, func(v drift.Violation) bool {
				return v.Rule == tc.rule && (tc.rule != drift.RulePacking || v.Packing == tc.pack)
			}), "want %s/%s, got %v", tc.rule, tc.pack, got)
		})
	}
}

// TestVerifyCommandsFlagsHomesOnInFlightNodes records a deviation of
// Commands from Karpenter: a later budgeted command sends its pods to an
// earlier command's replacement, still in flight, which Karpenter's
// scheduling simulation refuses (a move may only rely on initialized
// nodes). VerifyCommands reports it.
// A later command must not send pods to an earlier command's replacement
// while it is still in flight, as Karpenter's simulation refuses; the
// checker flags such a home.
func TestCommandsAvoidInFlightReplacements(t *testing.T) {
	cl := cluster(drifted("a", 0, pod("p", "1")), drifted("b", time.Minute, pod("q", "1")))
	cl.NodePools[0].NodePool.Disruption.Budgets = []packing.Budget{{Nodes: "100%"}}
	cmds, _ := run(t, cl, now)
	require.Len(t, cmds, 2)
	assert.Empty(t, drift.VerifyCommands(clusterAt(cl, now), cmds))
	for _, h := range cmds[1].Homes {
		assert.NotEqual(t, "a-replacement-1", h.Node, "pod %s homed on an in-flight replacement", h.Pod)
	}
	// The checker catches the home the simulation now avoids.
	cmds[1].Homes[0] = disruption.Home{Pod: cmds[1].Homes[0].Pod, Node: "a-replacement-1"}
	got := drift.VerifyCommands(clusterAt(cl, now), cmds)
	require.NotEmpty(t, got)
	assert.Equal(t, drift.RuleUninitialized, got[0].Rule, "%v", got)
}

func TestVerifyCommandsForcefulSkipsProtection(t *testing.T) {
	f := verifyFixtures()["forceful expiration"]
	cmds, _ := run(t, f.cl, f.now)
	require.True(t, cmds[0].Forceful)
	cmds[0].Homes = []disruption.Home{{Pod: cmds[0].Homes[0].Pod, Unschedulable: "no room"}}
	assert.Empty(t, drift.VerifyCommands(clusterAt(f.cl, f.now), cmds))
	cmds[0].Forceful = false
	assert.NotEmpty(t, drift.VerifyCommands(clusterAt(f.cl, f.now), cmds))
}

func TestVerifyRuleString(t *testing.T) {
	assert.Equal(t, "Budget", drift.RuleBudget.String())
	assert.Equal(t, "Deadline", drift.RuleDeadline.String())
	assert.Equal(t, "Rule(99)", drift.Rule(99).String())
	v := drift.Violation{Rule: drift.RulePacking, Packing: verify.RuleTaint, Message: "m"}
	assert.Equal(t, "command 0: Packing/Taint: m", v.String())
}

// TestVerifyCommandsJudgesOnTheClusterLeftBefore: the checker judges a
// budgeted command on the pods its node runs after the earlier commands,
// so a protected pod a forceful command moved there blocks it.
func TestVerifyCommandsJudgesOnTheClusterLeftBefore(t *testing.T) {
	at := t0.Add(721 * time.Hour)
	for _, protect := range []string{"do-not-disrupt", "PDB"} {
		t.Run(protect, func(t *testing.T) {
			p := pod("p", "1500m")
			next := drifted("next", 0)
			next.Node.CreationTime = t0.Add(700 * time.Hour)
			cl := cluster(state("old", p), next)
			cl.NodePools[0].NodePool.Disruption.Budgets = []packing.Budget{{Nodes: "100%"}}
			want := drift.RulePDB
			if protect == "PDB" {
				cl.PDBs = []disruption.PDB{{Namespace: "default", Name: "all"}}
			} else {
				cl.Nodes[0].Node.Pods = []packing.Pod{p}
				cl.Nodes[0].Node.Pods[0].DoNotDisrupt = "true"
				want = drift.RuleDoNotDisrupt
			}
			cmds, _ := run(t, cl, at)
			require.Equal(t, []string{"old"}, names(cmds))
			require.Equal(t, "next", cmds[0].Homes[0].Node)
			require.Empty(t, drift.VerifyCommands(clusterAt(cl, at), cmds))
			cmds = append(cmds, drift.Command{Node: "next", NodePool: "default", Reason: disruption.Drifted,
				Replacements: []packing.NodeClaim{{Name: "next-replacement-1", NodePool: "default", InstanceType: "m5.large"}},
				Homes:        []disruption.Home{{Pod: disruption.PodRef{Namespace: "default", Name: "p"}, NodeClaim: "next-replacement-1"}}})
			got := drift.VerifyCommands(clusterAt(cl, at), cmds)
			assert.True(t, slices.ContainsFunc(got, func(v drift.Violation) bool { return v.Command == 1 && v.Rule == want }), "%v", got)
		})
	}
}

// eventualBase drifts a, whose pod p is protected (by do-not-disrupt, or
// by a PDB allowing 0 when pdb is set), in a pool with a 10-minute
// terminationGracePeriod, with room for p on spare.
func eventualBase(t testing.TB, pdb bool) (drift.Cluster, []drift.Command) {
	p := pod("p", "100m")
	cl := cluster(drifted("a", 0, p), state("spare"))
	if pdb {
		cl.PDBs = []disruption.PDB{{Namespace: "default", Name: "all"}}
	} else {
		cl.Nodes[0].Node.Pods = []packing.Pod{p}
		cl.Nodes[0].Node.Pods[0].DoNotDisrupt = "true"
	}
	cl.NodePools[0].NodePool.Disruption.TerminationGracePeriod = 10 * time.Minute
	cl.Nodes[0].NodePoolHash, cl.Nodes[1].NodePoolHash = "", ""
	cmds, _ := run(t, cl, now)
	return cl, cmds
}

// TestVerifyCommandsEventual: the checker accepts a budgeted drift command
// of a NodePool with a terminationGracePeriod past protected pods when it
// bounds them by their deadlines, and only then; other commands and the
// node's own do-not-disrupt stay blocked.
func TestVerifyCommandsEventual(t *testing.T) {
	tests := []struct {
		name   string
		pdb    bool
		mutate func(cl *drift.Cluster, cmd *drift.Command)
		want   drift.Rule // RuleNode: no violation
	}{
		{"do-not-disrupt pod bounded", false, func(*drift.Cluster, *drift.Command) {}, drift.RuleNode},
		{"PDB-protected pod bounded", true, func(*drift.Cluster, *drift.Command) {}, drift.RuleNode},
		{"no terminationGracePeriod", false, func(cl *drift.Cluster, _ *drift.Command) {
			cl.NodePools[0].NodePool.Disruption.TerminationGracePeriod = 0
		}, drift.RuleDoNotDisrupt},
		{"no terminationGracePeriod, PDB", true, func(cl *drift.Cluster, _ *drift.Command) {
			cl.NodePools[0].NodePool.Disruption.TerminationGracePeriod = 0
		}, drift.RulePDB},
		{"charged to Expired", false, func(_ *drift.Cluster, c *drift.Command) { c.Reason = disruption.Expired }, drift.RuleDoNotDisrupt},
		{"do-not-disrupt node", false, func(cl *drift.Cluster, _ *drift.Command) {
			cl.Nodes[0].Node.Annotations = map[string]string{disruption.AnnotationDoNotDisrupt: "true"}
		}, drift.RuleDoNotDisrupt},
		{"no deadline", false, func(_ *drift.Cluster, c *drift.Command) { c.Deadline = time.Time{} }, drift.RuleDeadline},
		{"deadline past the grace period", true, func(_ *drift.Cluster, c *drift.Command) { c.Deadline = c.Deadline.Add(time.Second) }, drift.RuleDeadline},
		{"no pod deadlines", true, func(_ *drift.Cluster, c *drift.Command) { c.PodDeadlines = nil }, drift.RuleDeadline},
		{"pod deleted after the deadline", false, func(_ *drift.Cluster, c *drift.Command) {
			c.PodDeadlines = []drift.PodDeadline{{Pod: c.PodDeadlines[0].Pod, DeleteAt: c.Deadline.Add(time.Second)}}
		}, drift.RuleDeadline},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cl, cmds := eventualBase(t, tc.pdb)
			require.Len(t, cmds, 1)
			tc.mutate(&cl, &cmds[0])
			got := drift.VerifyCommands(clusterAt(cl, now), cmds)
			if tc.want == drift.RuleNode {
				assert.Empty(t, got)
				return
			}
			assert.True(t, slices.ContainsFunc(got, func(v drift.Violation) bool { return v.Rule == tc.want }), "want %s, got %v", tc.want, got)
		})
	}
}
