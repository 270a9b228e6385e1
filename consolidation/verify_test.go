package consolidation_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nodeplan/nodeplan/consolidation"
	"github.com/nodeplan/nodeplan/disruption"
	"github.com/nodeplan/nodeplan/instancetypes"
	"github.com/nodeplan/nodeplan/packing"
	"github.com/nodeplan/nodeplan/packing/verify"
	"github.com/nodeplan/nodeplan/requirements"
	"github.com/nodeplan/nodeplan/resources"
)

// verifyFixtures are clusters of plan_test's kinds, each with commands.
var verifyFixtures = []struct {
	name  string
	build func(c *cluster)
	opts  consolidation.Options
}{
	{"emptiness", func(c *cluster) { c.node("a", 4); c.node("b", 2); c.node("c", 4, 3000) }, consolidation.Options{}},
	{"multi-node delete", func(c *cluster) { c.node("a", 8, 1000); c.node("b", 8, 1000); c.node("c", 8, 6000) }, consolidation.Options{}},
	{"multi-node replace", func(c *cluster) {
		for _, n := range []string{"a", "b", "c", "d"} {
			c.node(n, 4, 2500)
		}
	}, consolidation.Options{}},
	{"repack", func(c *cluster) {
		for _, n := range []string{"a", "b", "c"} {
			c.node(n, 4, 2500)
		}
	}, consolidation.Options{Repack: true}},
	{"single-node replace", func(c *cluster) { c.node("a", 16, 1500) }, consolidation.Options{}},
	{"on-demand to spot", func(c *cluster) {
		c.NodePools[0] = anyCapacity(c.NodePools[0])
		c.node("a", 2, 1800)
	}, consolidation.Options{}},
	{"spot to spot", func(c *cluster) {
		c.NodePools[0] = anyCapacity(c.NodePools[0])
		c.Catalog = testCatalog(20)
		c.nodeCT("a", 32, instancetypes.Spot, 500)
	}, consolidation.Options{SpotToSpot: true}},
	{"empty budget then underutilized", func(c *cluster) {
		c.NodePools[0] = pool("default", packing.Budget{Nodes: "1", Reasons: []string{"Empty"}})
		c.node("a", 4)
		c.node("b", 4)
		c.node("c", 8, 3000)
	}, consolidation.Options{}},
	{"protected nodes are skipped", func(c *cluster) {
		c.node("a", 8, 500).Pods[0].DoNotDisrupt = "true"
		c.node("b", 8, 500)
		c.node("c", 8).Annotations = map[string]string{disruption.AnnotationDoNotDisrupt: "true"}
	}, consolidation.Options{}},
	{"deleting node's pods are re-placed", func(c *cluster) {
		c.node("gone", 4, 500).MarkedForDeletion = true
		c.node("a", 8, 1000)
		c.node("b", 8, 1000)
		c.node("c", 8, 4000)
	}, consolidation.Options{}},
	{"terminating, mirror and daemonset pods stay", func(c *cluster) {
		c.DaemonSets = []packing.DaemonSet{{Namespace: "kube-system", Name: "logs", Requests: resources.List{CPU: 100}}}
		for _, name := range []string{"a", "b"} {
			n := c.node(name, 4, 100, 100, 100, 1000)
			n.Pods[0].Terminating = true
			n.Pods[1].Owner = "Node/" + name
			n.Pods[2].Namespace, n.Pods[2].Owner = "kube-system", "DaemonSet/logs"
		}
		c.node("c", 4, 100).Pods[0].Terminating = true
	}, consolidation.Options{}},
	{"zone spread", func(c *cluster) {
		spread := packing.TopologySpread{TopologyKey: requirements.LabelZone, MaxSkew: 1,
			Selector: requirements.FromLabels(map[string]string{"app": "web"})}
		for _, n := range []string{"a", "b", "c", "d"} {
			nd := c.node(n, 8, 1000, 1000)
			if n >= "c" {
				nd.Zone = "b"
			}
			for i := range nd.Pods {
				nd.Pods[i].TopologySpread = []packing.TopologySpread{spread}
			}
		}
	}, consolidation.Options{Repack: true}},
}

func TestVerifyCommandsAcceptsPlans(t *testing.T) {
	for _, tc := range verifyFixtures {
		t.Run(tc.name, func(t *testing.T) {
			c := newCluster()
			tc.build(c)
			r, err := consolidation.Plan(c.Cluster, tc.opts)
			require.NoError(t, err)
			require.NotEmpty(t, r.Commands, "kept: %v", r.Kept)
			assert.Empty(t, consolidation.VerifyCommands(c.Cluster, r.Commands), "%v", r.Commands)
		})
	}
}

// mutationBase is a cluster whose plan deletes a into b and replaces c by
// a smaller node; d is full and e protected.
func mutationBase() (consolidation.Cluster, []consolidation.Command) {
	c := newCluster(pool("default", packing.Budget{Nodes: "2"}))
	c.node("a", 8, 1000)
	c.node("b", 8, 1000, 5000)
	c.node("c", 16, 1500)
	c.node("d", 2, 1900)
	c.node("e", 8, 500).Annotations = map[string]string{disruption.AnnotationDoNotDisrupt: "true"}
	c.node("f", 8, 500).Pods[0].DoNotDisrupt = "true"
	cmds := []consolidation.Command{
		{Reason: disruption.Underutilized, Method: consolidation.SingleNode, Candidates: []string{"a"},
			Savings: instancetypes.MustPriceFromDollars(0.4),
			Homes:   []disruption.Home{{Pod: disruption.PodRef{Namespace: "default", Name: "a-p0"}, Node: "b"}}},
		{Reason: disruption.Underutilized, Method: consolidation.SingleNode, Candidates: []string{"c"},
			Replacements: []packing.NodeClaim{claim("r1", "c-2", 0.1)}, Savings: instancetypes.MustPriceFromDollars(0.7),
			Homes: []disruption.Home{{Pod: disruption.PodRef{Namespace: "default", Name: "c-p0"}, NodeClaim: "r1"}}},
	}
	return c.Cluster, cmds
}

func claim(name, typ string, dollars float64) packing.NodeClaim {
	off := instancetypes.Offering{Zone: "a", CapacityType: instancetypes.OnDemand, Price: instancetypes.MustPriceFromDollars(dollars), Available: true}
	return packing.NodeClaim{Name: name, NodePool: "default", InstanceTypes: []string{typ}, InstanceType: typ, Offering: off,
		Requirements: requirements.NewSet(requirements.MustNew(requirements.LabelCapacityType, requirements.In, "on-demand")),
		Labels: []requirements.Label{{Key: requirements.LabelNodePool, Value: "default"}, {Key: requirements.LabelZone, Value: "a"},
			{Key: requirements.LabelCapacityType, Value: "on-demand"}, {Key: requirements.LabelInstanceType, Value: typ}}}
}

func TestVerifyCommandsMutations(t *testing.T) {
	c, base := mutationBase()
	require.Empty(t, consolidation.VerifyCommands(c, base))
	tests := []struct {
		name   string
		mutate func(c *consolidation.Cluster, cmds []consolidation.Command)
		rule   consolidation.Rule
		pack   verify.Rule
	}{
		{"drop a placement", func(_ *consolidation.Cluster, cmds []consolidation.Command) { cmds[0].Homes = nil }, consolidation.RuleHomes, 0},
		{"duplicate a placement", func(_ *consolidation.Cluster, cmds []consolidation.Command) {
			cmds[0].Homes = append(cmds[0].Homes, disruption.Home{Pod: disruption.PodRef{Namespace: "default", Name: "a-p0"}, Node: "b"})
		}, consolidation.RuleHomes, 0},
		{"place an unknown pod", func(_ *consolidation.Cluster, cmds []consolidation.Command) {
			cmds[0].Homes = append(cmds[0].Homes, disruption.Home{Pod: disruption.PodRef{Namespace: "default", Name: "ghost"}, Node: "b"})
		}, consolidation.RuleHomes, 0},
		{"move a terminating pod", func(c *consolidation.Cluster, _ []consolidation.Command) {
			c.Nodes[0].Pods[0].Terminating = true
		}, consolidation.RuleHomes, 0},
		{"move a mirror pod", func(c *consolidation.Cluster, _ []consolidation.Command) {
			c.Nodes[0].Pods[0].Owner = "Node/a"
		}, consolidation.RuleHomes, 0},
		{"place on an unknown claim", func(_ *consolidation.Cluster, cmds []consolidation.Command) {
			cmds[1].Homes[0].NodeClaim = "r9"
		}, consolidation.RuleHomes, 0},
		{"move a pod to a full node", func(_ *consolidation.Cluster, cmds []consolidation.Command) {
			cmds[0].Homes[0].Node = "d"
		}, consolidation.RulePacking, verify.RuleOverCapacity},
		{"replacement too small", func(_ *consolidation.Cluster, cmds []consolidation.Command) {
			cmds[1].Replacements[0] = claim("r1", "c-1", 0.05)
			cmds[1].Savings = instancetypes.MustPriceFromDollars(0.75)
		}, consolidation.RulePacking, verify.RuleOverCapacity},
		{"place on a deleted candidate", func(_ *consolidation.Cluster, cmds []consolidation.Command) {
			cmds[1].Homes[0] = disruption.Home{Pod: disruption.PodRef{Namespace: "default", Name: "c-p0"}, Node: "a"}
			cmds[1].Replacements = nil
			cmds[1].Savings = instancetypes.MustPriceFromDollars(0.8)
		}, consolidation.RulePacking, verify.RuleUnknownNode},
		{"place on an in-flight node", func(_ *consolidation.Cluster, cmds []consolidation.Command) {
			cmds[0].Homes[0].Node = "r1"
			cmds[0], cmds[1] = cmds[1], cmds[0]
		}, consolidation.RuleUninitialized, 0},
		{"untolerated taint", func(c *consolidation.Cluster, _ []consolidation.Command) {
			c.Nodes[1].Taints = []requirements.Taint{{Key: "dedicated", Effect: requirements.NoSchedule}}
		}, consolidation.RulePacking, verify.RuleTaint},
		{"exceed a budget", func(c *consolidation.Cluster, _ []consolidation.Command) {
			c.NodePools[0].Disruption.Budgets = []packing.Budget{{Nodes: "1"}}
		}, consolidation.RuleBudget, 0},
		{"touch a do-not-disrupt node", func(_ *consolidation.Cluster, cmds []consolidation.Command) {
			cmds[0].Candidates = []string{"e"}
			cmds[0].Homes[0].Pod = disruption.PodRef{Namespace: "default", Name: "e-p0"}
		}, consolidation.RuleDoNotDisrupt, 0},
		{"touch a do-not-disrupt pod", func(_ *consolidation.Cluster, cmds []consolidation.Command) {
			cmds[0].Candidates = []string{"f"}
			cmds[0].Homes[0].Pod = disruption.PodRef{Namespace: "default", Name: "f-p0"}
		}, consolidation.RuleDoNotDisrupt, 0},
		{"PDB blocks", func(c *consolidation.Cluster, _ []consolidation.Command) {
			c.PDBs = []disruption.PDB{{Namespace: "default", Name: "web"}}
		}, consolidation.RulePDB, 0},
		{"raise cost", func(_ *consolidation.Cluster, cmds []consolidation.Command) {
			cmds[1].Replacements[0] = claim("r1", "c-32", 1.6)
			cmds[1].Savings = -instancetypes.MustPriceFromDollars(0.8)
		}, consolidation.RuleCost, 0},
		{"wrong savings", func(_ *consolidation.Cluster, cmds []consolidation.Command) { cmds[0].Savings++ }, consolidation.RuleCost, 0},
		{"candidate twice", func(_ *consolidation.Cluster, cmds []consolidation.Command) {
			cmds[1].Candidates = []string{"a"}
			cmds[1].Homes[0].Pod = disruption.PodRef{Namespace: "default", Name: "a-p0"}
		}, consolidation.RuleCandidate, 0},
		{"unknown candidate", func(_ *consolidation.Cluster, cmds []consolidation.Command) {
			cmds[0].Candidates = append(cmds[0].Candidates, "zz")
		}, consolidation.RuleCandidate, 0},
		{"a replacement named as a node", func(_ *consolidation.Cluster, cmds []consolidation.Command) {
			rename(&cmds[1], "d")
		}, consolidation.RuleReplacement, 0},
		{"a replacement named as its candidate", func(_ *consolidation.Cluster, cmds []consolidation.Command) {
			rename(&cmds[1], "c")
		}, consolidation.RuleReplacement, 0},
		{"a replacement named as an earlier command's", func(_ *consolidation.Cluster, cmds []consolidation.Command) {
			cmds[0].Replacements = []packing.NodeClaim{claim("r1", "c-1", 0.05)}
			cmds[0].Savings = instancetypes.MustPriceFromDollars(0.35)
		}, consolidation.RuleReplacement, 0},
		{"a replacement without a name", func(_ *consolidation.Cluster, cmds []consolidation.Command) {
			rename(&cmds[1], "")
		}, consolidation.RuleReplacement, 0},
		{"a replacement name too long for a hostname", func(_ *consolidation.Cluster, cmds []consolidation.Command) {
			rename(&cmds[1], strings.Repeat("r", 64))
		}, consolidation.RuleReplacement, 0},
		{"two replacements of one name", func(_ *consolidation.Cluster, cmds []consolidation.Command) {
			cmds[1].Replacements = append(cmds[1].Replacements, claim("r1", "c-1", 0.05))
			cmds[1].Savings = instancetypes.MustPriceFromDollars(0.65)
		}, consolidation.RuleReplacement, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c, cmds := mutationBase()
			tc.mutate(&c, cmds)
			got := consolidation.VerifyCommands(c, cmds)
			require.NotEmpty(t, got)
			assert.True(t, slices.ContainsFunc(got, func(v consolidation.Violation) bool {
				return v.Rule == tc.rule && (tc.rule != consolidation.RulePacking || v.Packing == tc.pack)
			}), "want %s/%s, got %v", tc.rule, tc.pack, got)
			for _, v := range got {
				assert.NotEmpty(t, v.Message)
			}
		})
	}
}

// rename renames cmd's one replacement, and the placements on it.
func rename(cmd *consolidation.Command, name string) {
	cmd.Replacements[0].Name = name
	for i := range cmd.Homes {
		if cmd.Homes[i].NodeClaim != "" {
			cmd.Homes[i].NodeClaim = name
		}
	}
}

func TestVerifyCommandsSearchesTopologyOrder(t *testing.T) {
	c := newCluster()
	spread := packing.TopologySpread{TopologyKey: requirements.LabelZone, MaxSkew: 1,
		Selector: requirements.FromLabels(map[string]string{"app": "web"})}
	a := c.node("a", 8, 1000, 1000)
	a.Pods[0].TopologySpread = []packing.TopologySpread{spread}
	a.Pods[1].TopologySpread = []packing.TopologySpread{spread}
	c.node("b", 8, 1000) // a web pod already in zone a
	c.node("z", 8).Zone = "b"
	// In placement order a-p0 makes zone a 2 against 0 in zone b; a-p1
	// must go first, to zone b, for every step to hold.
	cmd := consolidation.Command{Reason: disruption.Underutilized, Candidates: []string{"a"}, Savings: instancetypes.MustPriceFromDollars(0.4),
		Homes: []disruption.Home{{Pod: disruption.PodRef{Namespace: "default", Name: "a-p0"}, Node: "b"}, {Pod: disruption.PodRef{Namespace: "default", Name: "a-p1"}, Node: "z"}}}
	assert.Empty(t, consolidation.VerifyCommands(c.Cluster, []consolidation.Command{cmd}))
	cmd.Homes[1].Node = "b"
	got := consolidation.VerifyCommands(c.Cluster, []consolidation.Command{cmd})
	assert.True(t, slices.ContainsFunc(got, func(v consolidation.Violation) bool { return v.Packing == verify.RuleTopologySpread }), "%v", got)
}

func TestVerifyCommandsDoesNotModifyInput(t *testing.T) {
	c, cmds := mutationBase()
	before := price(c)
	pods := len(c.Nodes[1].Pods)
	consolidation.VerifyCommands(c, cmds)
	assert.Equal(t, before, price(c))
	assert.Len(t, c.Nodes[1].Pods, pods)
	assert.False(t, c.Nodes[0].MarkedForDeletion)
}

func TestRuleString(t *testing.T) {
	assert.Equal(t, "Budget", consolidation.RuleBudget.String())
	assert.Equal(t, "Rule(200)", consolidation.Rule(200).String())
	v := consolidation.Violation{Command: 1, Rule: consolidation.RulePacking, Packing: verify.RuleTaint, Message: "m"}
	assert.Equal(t, "command 1: Packing/Taint: m", v.String())
}
