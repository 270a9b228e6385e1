package drift_test

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nodeplan/nodeplan/disruption"
	"github.com/nodeplan/nodeplan/drift"
	"github.com/nodeplan/nodeplan/packing"
	"github.com/nodeplan/nodeplan/requirements"
	"github.com/nodeplan/nodeplan/resources"
)

func drifted(name string, since time.Duration, pods ...packing.Pod) drift.NodeClaimState {
	s := state(name, pods...)
	s.Image = "ami-ancient"
	s.DriftedSince = t0.Add(since)
	return s
}

func cluster(nodes ...drift.NodeClaimState) drift.Cluster {
	return drift.Cluster{Input: input(nodes...)}
}

// run evaluates cl and turns the findings into commands; cl must be valid.
func run(t testing.TB, cl drift.Cluster, now time.Time) ([]drift.Command, []drift.Blocked) {
	t.Helper()
	return commands(t, evaluate(t, cl.Input, now), cl, now)
}

// commands is drift.Commands on valid input.
func commands(t testing.TB, findings []drift.Finding, cl drift.Cluster, now time.Time) ([]drift.Command, []drift.Blocked) {
	t.Helper()
	cmds, blocked, err := drift.Commands(findings, clusterAt(cl, now))
	require.NoError(t, err)
	return cmds, blocked
}

func names(cmds []drift.Command) []string {
	out := []string{}
	for _, c := range cmds {
		out = append(out, c.Node)
	}
	return out
}

var now = t0.Add(2 * time.Hour)

// TestCommands restates behaviours of Karpenter's disruption drift suite.
func TestCommands(t *testing.T) {
	t.Run("empty drifted nodes go before non-empty ones", func(t *testing.T) {
		cl := cluster(drifted("busy", 0, pod("p", "100m")), drifted("empty", time.Hour), state("spare"))
		cl.NodePools[0].NodePool.Disruption.Budgets = []packing.Budget{{Nodes: "100%"}}
		cmds, _ := run(t, cl, now)
		assert.Equal(t, []string{"empty", "busy"}, names(cmds))
	})
	t.Run("the earliest drift goes first", func(t *testing.T) {
		cl := cluster(drifted("late", time.Hour, pod("a", "100m")), drifted("early", time.Minute, pod("b", "100m")), state("spare"))
		cl.NodePools[0].NodePool.Disruption.Budgets = []packing.Budget{{Nodes: "100%"}}
		cmds, _ := run(t, cl, now)
		assert.Equal(t, []string{"early", "late"}, names(cmds))
	})
	t.Run("budgets cap the commands and the rest are explained", func(t *testing.T) {
		var nodes []drift.NodeClaimState
		for _, n := range []string{"a", "b", "c", "d", "e"} {
			nodes = append(nodes, drifted(n, 0))
		}
		cl := cluster(nodes...)
		cl.NodePools[0].NodePool.Disruption.Budgets = []packing.Budget{{Nodes: "2"}}
		cmds, blocked := run(t, cl, now)
		assert.Equal(t, []string{"a", "b"}, names(cmds))
		require.Len(t, blocked, 3)
		assert.Contains(t, blocked[0].Message, "disruption budget")
	})
	t.Run("the default budget is 10% rounded up", func(t *testing.T) {
		var nodes []drift.NodeClaimState
		for _, n := range []string{"a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k"} {
			nodes = append(nodes, drifted(n, 0))
		}
		cmds, _ := run(t, cluster(nodes...), now)
		assert.Len(t, cmds, 2)
	})
	t.Run("a budget for another reason does not apply", func(t *testing.T) {
		cl := cluster(drifted("a", 0), drifted("b", 0))
		cl.NodePools[0].NodePool.Disruption.Budgets = []packing.Budget{{Nodes: "0", Reasons: []string{"Underutilized"}}, {Nodes: "100%"}}
		cmds, _ := run(t, cl, now)
		assert.Len(t, cmds, 2)
	})
	t.Run("budgets of different NodePools are separate", func(t *testing.T) {
		cl := cluster(drifted("a", 0), drifted("b", 0))
		other := template("other")
		other.NodePool.Disruption.Budgets = []packing.Budget{{Nodes: "0"}}
		cl.NodePools = append(cl.NodePools, other)
		cl.Nodes[1].Node.NodePool = "other"
		cl.Nodes[1].NodePoolHash = other.Hash()
		cmds, blocked := run(t, cl, now)
		assert.Equal(t, []string{"a"}, names(cmds))
		require.Len(t, blocked, 1)
		assert.Equal(t, "other", blocked[0].NodePool)
	})
	t.Run("a do-not-disrupt node is not drifted away", func(t *testing.T) {
		s := drifted("a", 0)
		s.Node.Annotations = map[string]string{disruption.AnnotationDoNotDisrupt: "true"}
		cmds, blocked := run(t, cluster(s), now)
		assert.Empty(t, cmds)
		require.Len(t, blocked, 1)
		assert.Equal(t, drift.ImageDrifted, blocked[0].Reason)
	})
	t.Run("do-not-disrupt false does not protect a node", func(t *testing.T) {
		s := drifted("a", 0)
		s.Node.Annotations = map[string]string{disruption.AnnotationDoNotDisrupt: "false"}
		cmds, _ := run(t, cluster(s), now)
		assert.Len(t, cmds, 1)
	})
	t.Run("a pod whose do-not-disrupt duration is still running blocks", func(t *testing.T) {
		p := pod("p", "100m")
		p.DoNotDisrupt = "3h"
		cmds, _ := run(t, cluster(drifted("a", 0, p), state("spare")), now)
		assert.Empty(t, cmds)
		p.DoNotDisrupt = "1h"
		cmds, _ = run(t, cluster(drifted("a", 0, p), state("spare")), now)
		assert.Len(t, cmds, 1, "an elapsed duration no longer blocks")
	})
	t.Run("a blocking PodDisruptionBudget blocks", func(t *testing.T) {
		cl := cluster(drifted("a", 0, pod("p", "100m")), state("spare"))
		cl.PDBs = []disruption.PDB{{Namespace: "default", Name: "all", DisruptionsAllowed: 0}}
		cmds, blocked := run(t, cl, now)
		assert.Empty(t, cmds)
		require.Len(t, blocked, 1)
		assert.Contains(t, blocked[0].Message, "all")
	})
	t.Run("a node whose pods fit nowhere is skipped for the next one", func(t *testing.T) {
		big := pod("huge", "64")
		cl := cluster(drifted("first", 0, big), drifted("second", time.Minute, pod("p", "100m")), state("spare"))
		cl.NodePools[0].NodePool.Disruption.Budgets = []packing.Budget{{Nodes: "100%"}}
		cmds, blocked := run(t, cl, now)
		assert.Equal(t, []string{"second"}, names(cmds))
		require.Len(t, blocked, 1)
		assert.Contains(t, blocked[0].Message, "default/huge")
	})
	t.Run("pods move to existing capacity without a replacement", func(t *testing.T) {
		cmds, _ := run(t, cluster(drifted("a", 0, pod("p", "100m")), state("spare")), now)
		require.Len(t, cmds, 1)
		assert.Empty(t, cmds[0].Replacements)
		assert.Equal(t, []disruption.Home{{Pod: disruption.PodRef{Namespace: "default", Name: "p"}, Node: "spare"}}, cmds[0].Homes)
		assert.Equal(t, disruption.Drifted, cmds[0].Reason)
	})
	t.Run("a replacement is launched when nothing else has room", func(t *testing.T) {
		cmds, _ := run(t, cluster(drifted("a", 0, pod("p", "1500m"))), now)
		require.Len(t, cmds, 1)
		require.Len(t, cmds[0].Replacements, 1)
		assert.Equal(t, "a-replacement-1", cmds[0].Replacements[0].Name)
		assert.Equal(t, "a-replacement-1", cmds[0].Homes[0].NodeClaim)
	})
	t.Run("a later command sees the earlier command's replacement", func(t *testing.T) {
		cl := cluster(drifted("a", 0, pod("p", "1")), drifted("b", time.Minute, pod("q", "1")))
		cl.NodePools[0].NodePool.Disruption.Budgets = []packing.Budget{{Nodes: "100%"}}
		cmds, _ := run(t, cl, now)
		require.Len(t, cmds, 2)
		for _, c := range cmds {
			for _, h := range c.Homes {
				assert.NotEqual(t, "a", h.Node)
				assert.NotEqual(t, "b", h.Node)
			}
		}
	})
	t.Run("forceful expiration ignores budgets and do-not-disrupt", func(t *testing.T) {
		p := pod("p", "100m")
		p.DoNotDisrupt = "true"
		cl := cluster(state("old", p), state("spare"))
		cl.Nodes[1].Node.CreationTime = t0.Add(700 * time.Hour)
		cl.NodePools[0].NodePool.Disruption.Budgets = []packing.Budget{{Nodes: "0"}}
		cmds, blocked := run(t, cl, t0.Add(721*time.Hour))
		assert.Empty(t, blocked)
		require.Len(t, cmds, 1)
		assert.True(t, cmds[0].Forceful)
		assert.Equal(t, disruption.Expired, cmds[0].Reason)
	})
	t.Run("graceful expiration is budgeted", func(t *testing.T) {
		cl := cluster(state("old"))
		cl.NodePools[0].NodePool.Disruption.Budgets = []packing.Budget{{Nodes: "0", Reasons: []string{"Expired"}}}
		cl.Expiration.GracePeriod = time.Hour
		cmds, blocked := run(t, cl, t0.Add(720*time.Hour+time.Minute))
		assert.Empty(t, cmds)
		require.Len(t, blocked, 1)
		assert.Equal(t, drift.Expired, blocked[0].Reason)
		cmds, _ = run(t, cl, t0.Add(722*time.Hour))
		assert.Len(t, cmds, 1, "after the grace period it is forceful")
	})
	t.Run("terminationGracePeriod gives every pod a deletion deadline", func(t *testing.T) {
		cl := cluster(drifted("a", 0, pod("p", "100m"), pod("q", "100m")), state("spare"))
		cl.NodePools[0].NodePool.Disruption.TerminationGracePeriod = 10 * time.Minute
		cl.Nodes[0].PodGracePeriods = map[string]time.Duration{"default/q": time.Hour}
		cl.Nodes[0].NodePoolHash, cl.Nodes[1].NodePoolHash = "", ""
		cmds, _ := run(t, cl, now)
		require.Len(t, cmds, 1)
		assert.Equal(t, now.Add(10*time.Minute), cmds[0].Deadline)
		assert.Equal(t, []drift.PodDeadline{
			{Pod: disruption.PodRef{Namespace: "default", Name: "p"}, DeleteAt: now.Add(10*time.Minute - 30*time.Second)},
			{Pod: disruption.PodRef{Namespace: "default", Name: "q"}, DeleteAt: now},
		}, cmds[0].PodDeadlines)
	})
	t.Run("daemonset pods do not make a node non-empty", func(t *testing.T) {
		ds := pod("ds", "100m")
		ds.Owner = "DaemonSet/logs"
		cl := cluster(drifted("busy", 0, pod("p", "100m")), drifted("ds-only", time.Hour, ds), state("spare"))
		cl.NodePools[0].NodePool.Disruption.Budgets = []packing.Budget{{Nodes: "100%"}}
		cmds, _ := run(t, cl, now)
		assert.Equal(t, []string{"ds-only", "busy"}, names(cmds))
		assert.Empty(t, cmds[0].Homes)
	})
	t.Run("a finding for an unknown node is explained", func(t *testing.T) {
		_, blocked := commands(t, []drift.Finding{{Node: "ghost", Reason: drift.ImageDrifted}}, cluster(), now)
		require.Len(t, blocked, 1)
		assert.Contains(t, blocked[0].Message, "not in the cluster")
	})
	t.Run("commands do not modify the cluster", func(t *testing.T) {
		cl := cluster(drifted("a", 0, pod("p", "100m")), state("spare"))
		run(t, cl, now)
		assert.Len(t, cl.Nodes[1].Node.Pods, 0)
		assert.False(t, cl.Nodes[0].Node.MarkedForDeletion)
		assert.Len(t, cl.Nodes[0].Node.Pods, 1)
	})
}

func TestRequirementDriftCommand(t *testing.T) {
	cl := cluster(state("a", pod("p", "100m")))
	cl.NodePools[0].NodePool.Requirements = requirements.NewSet(expr(requirements.LabelCapacityType, requirements.In, "spot"))
	cmds, _ := run(t, cl, now)
	require.Len(t, cmds, 1)
	require.Len(t, cmds[0].Replacements, 1)
	assert.Equal(t, "spot", cmds[0].Replacements[0].Offering.CapacityType.String())
}

// TestCommandsJudgeEachCommandOnTheClusterLeftBefore: a command is decided
// on the cluster the earlier commands leave, so a pod a forceful command
// moves still protects its new node, and a replacement never takes the name
// (the hostname) of a node; the checker accepts what Commands returns.
func TestCommandsJudgeEachCommandOnTheClusterLeftBefore(t *testing.T) {
	at := t0.Add(721 * time.Hour)
	// forced returns an expired node "old" running p and a drifted,
	// empty node "next" (the only room for p) under a budget of two, one
	// of which old takes.
	forced := func(p packing.Pod) drift.Cluster {
		next := drifted("next", 0)
		next.Node.CreationTime = t0.Add(700 * time.Hour)
		cl := cluster(state("old", p), next)
		cl.NodePools[0].NodePool.Disruption.Budgets = []packing.Budget{{Nodes: "2"}}
		return cl
	}
	dnd := pod("p", "1500m")
	dnd.DoNotDisrupt = "true"
	guarded := pod("p", "1500m")
	guarded.Labels = map[string]string{"app": "db"}
	withPDB := forced(guarded)
	withPDB.PDBs = []disruption.PDB{{Namespace: "default", Name: "db",
		Selector: requirements.NewSet(requirements.MustNew("app", requirements.In, "db"))}}
	web := func(name string) packing.Pod {
		p := pod(name, "1500m")
		p.Labels = map[string]string{"app": "web"}
		p.TopologySpread = []packing.TopologySpread{{TopologyKey: requirements.LabelHostname, MaxSkew: 1,
			Selector: requirements.NewSet(requirements.MustNew("app", requirements.In, "web"))}}
		return p
	}
	spread := cluster(drifted("a", 0, web("w1")), state("a-replacement-1", web("w2")))
	tests := []struct {
		name       string
		cl         drift.Cluster
		now        time.Time
		commanded  []string
		blocked    string // the node blocked, and a part of why
		why        string
		claimNames []string
	}{
		{"a do-not-disrupt pod moved by a forceful command protects its new node", forced(dnd), at,
			[]string{"old"}, "next", "do-not-disrupt", nil},
		{"a pod under a PDB allowing 0 moved by a forceful command protects its new node", withPDB, at,
			[]string{"old"}, "next", "PodDisruptionBudget default/db", nil},
		{"a replacement never shares a node's hostname", spread, now,
			[]string{"a"}, "", "", []string{"a-replacement-2"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cmds, blocked := run(t, tc.cl, tc.now)
			assert.Equal(t, tc.commanded, names(cmds))
			assert.Empty(t, drift.VerifyCommands(clusterAt(tc.cl, tc.now), cmds))
			if tc.blocked != "" {
				require.Len(t, blocked, 1)
				assert.Equal(t, tc.blocked, blocked[0].Node)
				assert.Contains(t, blocked[0].Message, tc.why)
			}
			var claims []string
			for _, c := range cmds {
				for _, r := range c.Replacements {
					claims = append(claims, r.Name)
				}
			}
			if tc.claimNames != nil {
				assert.Equal(t, tc.claimNames, claims)
			}
		})
	}
}

// TestCommandsSeeEarlierMoves: the order and the deadlines of later
// commands follow the pods earlier commands moved.
func TestCommandsSeeEarlierMoves(t *testing.T) {
	at := t0.Add(721 * time.Hour)
	young := func(s drift.NodeClaimState) drift.NodeClaimState {
		s.Node.CreationTime = t0.Add(700 * time.Hour)
		return s
	}
	t.Run("a node a forceful command filled is no longer empty", func(t *testing.T) {
		cl := cluster(state("old", pod("q", "1000m")), young(drifted("x", 0, pod("p", "1500m"))), young(drifted("e", time.Hour)))
		cl.NodePools[0].NodePool.Disruption.Budgets = []packing.Budget{{Nodes: "2"}}
		cmds, blocked := run(t, cl, at)
		require.Equal(t, "e", cmds[0].Homes[0].Node)
		assert.Equal(t, []string{"old", "x"}, names(cmds), "the oldest drift goes first among non-empty nodes")
		require.Len(t, blocked, 1)
		assert.Equal(t, "e", blocked[0].Node)
		assert.Empty(t, drift.VerifyCommands(clusterAt(cl, at), cmds))
	})
	t.Run("a moved pod keeps its grace period", func(t *testing.T) {
		cl := cluster(state("old", pod("q", "1000m")), young(drifted("e", 0)))
		cl.NodePools[0].NodePool.Disruption.Budgets = []packing.Budget{{Nodes: "100%"}}
		cl.NodePools[0].NodePool.Disruption.TerminationGracePeriod = 10 * time.Minute
		cl.Nodes[0].PodGracePeriods = map[string]time.Duration{"default/q": time.Hour}
		cmds, _ := run(t, cl, at)
		require.Equal(t, []string{"old", "e"}, names(cmds))
		assert.Equal(t, []drift.PodDeadline{{Pod: disruption.PodRef{Namespace: "default", Name: "q"}, DeleteAt: at}}, cmds[1].PodDeadlines)
	})
}

// TestCommandsBlockNodesNoCommandMayTake: findings (as a host may pass
// them) for a node already being deleted or of an unknown NodePool get no
// command, forceful or not.
func TestCommandsBlockNodesNoCommandMayTake(t *testing.T) {
	gone := state("gone")
	gone.Node.MarkedForDeletion = true
	stray := state("stray")
	stray.Node.NodePool = "nowhere"
	cl := cluster(gone, stray, state("spare"))
	var findings []drift.Finding
	for _, n := range []string{"gone", "stray"} {
		findings = append(findings, drift.Finding{Node: n, Reason: drift.Interrupted, Forceful: true, Since: now},
			drift.Finding{Node: n, Reason: drift.ImageDrifted, Since: now})
	}
	cmds, blocked := commands(t, findings, cl, now)
	assert.Empty(t, cmds)
	require.Len(t, blocked, 2)
	assert.Contains(t, blocked[0].Message+blocked[1].Message, "already being deleted")
	assert.Contains(t, blocked[0].Message+blocked[1].Message, `no NodePool of the cluster ("nowhere")`)
}

// TestEventualDisruption restates Karpenter's eventual disruption class
// (disruption.NewCandidate with EventualDisruptionClass, which drift uses,
// and the disruption suite's terminationGracePeriod cases): a drifted node
// of a NodePool with a terminationGracePeriod is replaced although a pod
// on it has do-not-disrupt or a blocking PodDisruptionBudget, whose pods
// are then deleted by the grace period's end; the node's own
// do-not-disrupt, the budgets and the homes still block, and expiration
// is not eventual (forceful in Karpenter v1; nodeplan's graceful
// expiration stays graceful).
func TestEventualDisruption(t *testing.T) {
	const tgp = 10 * time.Minute
	expiring := t0.Add(720*time.Hour + time.Minute) // a node created at t0 expired a minute ago
	protected := func(mark string) packing.Pod {
		p := pod("p", "100m")
		switch mark {
		case "dnd":
			p.DoNotDisrupt = "true"
		case "pdb":
			p.Labels = map[string]string{"app": "db"}
		}
		return p
	}
	// on puts n and an empty spare node (younger, so never expired) in a
	// cluster whose pool has terminationGracePeriod grace, with the
	// NodePool hashes cleared, as the grace period is hashed.
	on := func(n drift.NodeClaimState, grace time.Duration) drift.Cluster {
		spare := state("spare")
		spare.Node.CreationTime = t0.Add(700 * time.Hour)
		cl := cluster(n, spare)
		cl.NodePools[0].NodePool.Disruption.TerminationGracePeriod = grace
		for i := range cl.Nodes {
			cl.Nodes[i].NodePoolHash = ""
		}
		return cl
	}
	dbPDB := disruption.PDB{Namespace: "default", Name: "db", Selector: requirements.NewSet(requirements.MustNew("app", requirements.In, "db"))}
	withPDBs := func(cl drift.Cluster, pdbs ...disruption.PDB) drift.Cluster {
		cl.PDBs = pdbs
		return cl
	}
	dndNode := drifted("a", 0, protected("dnd"))
	dndNode.Node.Annotations = map[string]string{disruption.AnnotationDoNotDisrupt: "true"}
	closed := on(drifted("a", 0, protected("dnd")), tgp)
	closed.NodePools[0].NodePool.Disruption.Budgets = []packing.Budget{{Nodes: "0"}}
	ds := pod("logs", "10m")
	ds.Owner, ds.DoNotDisrupt = "DaemonSet/logs", "true"
	huge := pod("p", "64")
	huge.DoNotDisrupt = "true"
	graceful := func(n drift.NodeClaimState) drift.Cluster {
		cl := on(n, tgp)
		cl.Expiration.GracePeriod = time.Hour
		return cl
	}
	tests := []struct {
		name string
		cl   drift.Cluster
		at   time.Time
		// why is a part of the Blocked entry's Why; empty when the node
		// gets a command.
		why string
		// protected is a part of the PodDeadline.Protected of pod p (or
		// of logs) when the node gets a command; forceful says it is one.
		protected string
		forceful  bool
	}{
		{"do-not-disrupt pod without terminationGracePeriod blocks", on(drifted("a", 0, protected("dnd")), 0), now,
			"pod default/p has karpenter.sh/do-not-disrupt=true", "", false},
		{"do-not-disrupt pod with terminationGracePeriod: replaced, deleted by the deadline", on(drifted("a", 0, protected("dnd")), tgp), now,
			"", "do-not-disrupt", false},
		{"do-not-disrupt daemonset pod with terminationGracePeriod: replaced", on(drifted("a", 0, pod("q", "100m"), ds), tgp), now,
			"", "do-not-disrupt", false},
		{"PDB allowing 0 without terminationGracePeriod blocks", withPDBs(on(drifted("a", 0, protected("pdb")), 0), dbPDB), now,
			"PodDisruptionBudget default/db", "", false},
		{"PDB allowing 0 with terminationGracePeriod: replaced", withPDBs(on(drifted("a", 0, protected("pdb")), tgp), dbPDB), now,
			"", "PodDisruptionBudget default/db", false},
		{"two PDBs with terminationGracePeriod: replaced", withPDBs(on(drifted("a", 0, protected("pdb")), tgp),
			disruption.PDB{Namespace: "default", Name: "all", DisruptionsAllowed: 5}, dbPDB), now,
			"", "more than one PodDisruptionBudget", false},
		{"do-not-disrupt node with terminationGracePeriod blocks", on(dndNode, tgp), now,
			"node a has karpenter.sh/do-not-disrupt=true", "", false},
		{"budgets still apply", closed, now, "disruption budget", "", false},
		{"a protected pod still needs a home", on(drifted("a", 0, huge), tgp), now, "cannot be replaced", "", false},
		{"graceful expiration is not eventual", graceful(state("a", protected("dnd"))), expiring,
			"pod default/p has karpenter.sh/do-not-disrupt=true", "", false},
		{"drifted and gracefully expired: the drift decides, eventual", graceful(drifted("a", 0, protected("dnd"))), expiring,
			"", "do-not-disrupt", false},
		{"forceful expiration without terminationGracePeriod", on(state("a", protected("dnd")), 0), expiring.Add(time.Hour),
			"", "", true},
		{"forceful expiration with terminationGracePeriod bounds the protected pod", on(state("a", protected("dnd")), tgp), expiring.Add(time.Hour),
			"", "do-not-disrupt", true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cmds, blocked := run(t, tc.cl, tc.at)
			require.Empty(t, drift.VerifyCommands(clusterAt(tc.cl, tc.at), cmds))
			if tc.why != "" {
				assert.Empty(t, cmds)
				require.Len(t, blocked, 1)
				assert.Equal(t, "a", blocked[0].Node)
				assert.Contains(t, blocked[0].Message, tc.why)
				return
			}
			require.Empty(t, blocked)
			require.Len(t, cmds, 1)
			c := cmds[0]
			assert.Equal(t, "a", c.Node)
			assert.Equal(t, tc.forceful, c.Forceful)
			var marked []drift.PodDeadline
			for _, d := range c.PodDeadlines {
				if d.Protected != "" {
					marked = append(marked, d)
				}
			}
			if tc.protected == "" {
				assert.Empty(t, marked)
				return
			}
			require.Len(t, marked, 1, "%+v", c.PodDeadlines)
			assert.Contains(t, marked[0].Protected, tc.protected)
			assert.Equal(t, tc.at.Add(tgp), c.Deadline)
			assert.Equal(t, tc.at.Add(tgp-drift.DefaultPodGracePeriod), marked[0].DeleteAt)
		})
	}
}

// TestCommandsNameReplacementsOfLongNodes: the replacements of nodes with
// names near the 63-character limit get names that are still label values
// (hostnames), so the later commands' simulations accept them; named
// "<node>-replacement-k" they were too long, Solve rejected the in-flight
// node and every later candidate was blocked.
func TestCommandsNameReplacementsOfLongNodes(t *testing.T) {
	long := func(c string) string { return strings.Repeat(c, 56) }
	cl := cluster(drifted(long("a"), 0, pod("p", "1500m")), drifted(long("b"), time.Minute, pod("q", "1500m")))
	cl.NodePools[0].NodePool.Disruption.Budgets = []packing.Budget{{Nodes: "100%"}}
	cmds, blocked := run(t, cl, now)
	assert.Empty(t, blocked)
	require.Equal(t, []string{long("a"), long("b")}, names(cmds))
	for _, c := range cmds {
		require.Len(t, c.Replacements, 1)
		name := c.Replacements[0].Name
		assert.NoError(t, requirements.ValidateValue(name))
		assert.True(t, strings.HasPrefix(name, c.Node[:40]), "%s does not start with its node's name", name)
	}
	assert.Empty(t, drift.VerifyCommands(clusterAt(cl, now), cmds))
}

// TestCommandsMoveOnlyReschedulablePods: daemonset, mirror (owner Node)
// and terminating pods stay with their node, as Karpenter's
// IsReschedulable rules: they give it no homes, do not make it non-empty,
// and a terminating pod's do-not-disrupt does not block it; a terminating
// StatefulSet pod still moves. A running daemonset pod is counted once on
// its node (packing.DaemonSet.Owns). The checker accepts every result.
func TestCommandsMoveOnlyReschedulablePods(t *testing.T) {
	with := func(p packing.Pod, f func(*packing.Pod)) packing.Pod { f(&p); return p }
	terminating := func(p *packing.Pod) { p.Terminating = true }
	mirror := func(p *packing.Pod) { p.Owner = "Node/x" }
	daemon := func(p *packing.Pod) { p.Namespace, p.Owner = "kube-system", "DaemonSet/logs" }
	tests := []struct {
		name  string
		nodes []drift.NodeClaimState
		ds    []packing.DaemonSet
		order []string // the commands' nodes
		homes []string // the first command's homes, "pod>node" or "pod>claim"
	}{
		{"a node with only a terminating pod is empty",
			[]drift.NodeClaimState{drifted("busy", 0, pod("p", "100m")), drifted("term", time.Hour, with(pod("t", "100m"), terminating)), state("spare")},
			nil, []string{"term", "busy"}, nil},
		{"a node with only a mirror pod is empty",
			[]drift.NodeClaimState{drifted("busy", 0, pod("p", "100m")), drifted("static", time.Hour, with(pod("m", "100m"), mirror)), state("spare")},
			nil, []string{"static", "busy"}, nil},
		{"a terminating StatefulSet pod moves",
			[]drift.NodeClaimState{drifted("a", 0, with(pod("db-0", "100m"), func(p *packing.Pod) { p.Owner, p.Terminating = "StatefulSet/db", true })), state("spare")},
			nil, []string{"a"}, []string{"db-0>spare"}},
		{"mirror and terminating pods get no home",
			[]drift.NodeClaimState{drifted("a", 0, pod("p", "100m"), with(pod("m", "100m"), mirror), with(pod("t", "100m"), terminating)), state("spare")},
			nil, []string{"a"}, []string{"p>spare"}},
		{"a terminating pod's do-not-disrupt does not block",
			[]drift.NodeClaimState{drifted("a", 0, with(pod("t", "100m"), func(p *packing.Pod) { p.Terminating, p.DoNotDisrupt = true, "true" })), state("spare")},
			nil, []string{"a"}, nil},
		{"a running daemonset pod is counted once",
			[]drift.NodeClaimState{drifted("a", 0, pod("p", "800m")), state("spare", with(pod("logs-x", "1"), daemon))},
			[]packing.DaemonSet{{Namespace: "kube-system", Name: "logs", Requests: resources.MustParse(map[resources.Name]string{resources.CPU: "1"})}},
			[]string{"a"}, []string{"p>spare"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cl := cluster(tc.nodes...)
			cl.DaemonSets = tc.ds
			cl.NodePools[0].NodePool.Disruption.Budgets = []packing.Budget{{Nodes: "100%"}}
			cmds, blocked := run(t, cl, now)
			assert.Equal(t, tc.order, names(cmds), "blocked: %v", blocked)
			if len(cmds) > 0 {
				var homes []string
				for _, h := range cmds[0].Homes {
					homes = append(homes, h.Pod.Name+">"+h.Node+h.NodeClaim)
				}
				assert.Equal(t, tc.homes, homes)
			}
			assert.Empty(t, drift.VerifyCommands(clusterAt(cl, now), cmds))
		})
	}
}
