package consolidation_test

import (
	"fmt"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nodeplan/nodeplan/consolidation"
	"github.com/nodeplan/nodeplan/disruption"
	"github.com/nodeplan/nodeplan/packing"
	"github.com/nodeplan/nodeplan/packing/verify"
	"github.com/nodeplan/nodeplan/requirements"
)

// spreadMove is the reduction of the 13 generated clusters (of 200,
// benchmarks/karpenter/sidebyside TestConsolidationCommandsVerify) whose
// Plan VerifyCommands rejected for zone skew: three pods of a zone spread
// (maxSkew 1) leave their candidates, two for zone a and one for zone b,
// an end state within the skew; with filler pods the command moves more
// than verify.MaxReorder pods, so no other replay order is searched. Node
// c1 (zone b) runs s-0 and s-1 and the fillers, c2 (zone a) s-2; stay-a
// and stay-b take them. Binding s-0 and s-1 first (the cluster's node
// order) puts 2 pods in zone a against 0 in zone b; s-0, s-2, s-1 holds
// at every step.
func spreadMove(fillers int) (consolidation.Cluster, consolidation.Command) {
	c := newCluster()
	spread := packing.TopologySpread{TopologyKey: requirements.LabelZone, MaxSkew: 1,
		Selector: requirements.FromLabels(map[string]string{"app": "spread"})}
	c1 := c.node("c1", 4)
	c1.Zone = "b"
	for i := range 2 {
		c1.Pods = append(c1.Pods, pod(fmt.Sprint("s-", i), 100))
	}
	for i := range fillers {
		c1.Pods = append(c1.Pods, pod(fmt.Sprint("f-", i), 10))
	}
	c2 := c.node("c2", 4)
	c2.Pods = append(c2.Pods, pod("s-2", 100))
	for _, n := range []*packing.Node{c1, c2} {
		for i := range n.Pods {
			if n.Pods[i].Name[0] == 's' {
				n.Pods[i].Labels = map[string]string{"app": "spread"}
				n.Pods[i].TopologySpread = []packing.TopologySpread{spread}
			}
		}
	}
	c.node("stay-a", 32)
	c.node("stay-b", 32).Zone = "b"
	home := func(pod, node string) disruption.Home {
		return disruption.Home{Pod: disruption.PodRef{Namespace: "default", Name: pod}, Node: node}
	}
	cmd := consolidation.Command{Reason: disruption.Underutilized, Method: consolidation.MultiNode, Candidates: []string{"c1", "c2"},
		Savings: c.Nodes[0].Price + c.Nodes[1].Price,
		Homes:   []disruption.Home{home("s-0", "stay-a"), home("s-2", "stay-b"), home("s-1", "stay-a")}}
	for i := range fillers {
		cmd.Homes = append(cmd.Homes, home(fmt.Sprint("f-", i), "stay-a"))
	}
	return c.Cluster, cmd
}

// TestVerifyCommandsReplaysHomesOrder: VerifyCommands replays a command's
// topology in the order of its Homes (Plan lists them in its solve's
// placement order), not in the cluster's node order; beyond
// verify.MaxReorder displaced pods an order that breaks the spread is
// reported, within it another order is searched.
func TestVerifyCommandsReplaysHomesOrder(t *testing.T) {
	swap := func(cmd *consolidation.Command) { cmd.Homes[1], cmd.Homes[2] = cmd.Homes[2], cmd.Homes[1] }
	rows := []struct {
		name    string
		fillers int
		reorder func(*consolidation.Command)
		skewed  bool
	}{
		{name: "homes in a valid order, over MaxReorder pods", fillers: verify.MaxReorder},
		{name: "homes s-0, s-1 first, over MaxReorder pods", fillers: verify.MaxReorder, reorder: swap, skewed: true},
		{name: "homes s-0, s-1 first, within MaxReorder pods: searched", fillers: 0, reorder: swap},
	}
	for _, row := range rows {
		t.Run(row.name, func(t *testing.T) {
			c, cmd := spreadMove(row.fillers)
			if row.reorder != nil {
				row.reorder(&cmd)
			}
			got := consolidation.VerifyCommands(c, []consolidation.Command{cmd})
			skew := slices.ContainsFunc(got, func(v consolidation.Violation) bool { return v.Packing == verify.RuleTopologySpread })
			assert.Equal(t, row.skewed, skew, "%v", got)
			assert.Len(t, got, map[bool]int{false: 0, true: 1}[row.skewed], "%v", got)
		})
	}
}

// TestPlanHomesInBindOrder: Plan's Homes on spreadMove's cluster (its
// candidates left to Plan, stay-a and stay-b pinned by a do-not-disrupt
// pod, s-1 and s-2 made larger so that the solve places them first) pass
// VerifyCommands with more displaced pods than verify.MaxReorder; Plan
// sends s-1 and s-0 to one zone, which the node order replays first.
func TestPlanHomesInBindOrder(t *testing.T) {
	c, _ := spreadMove(verify.MaxReorder)
	for i := range c.Nodes[2:] {
		n := &c.Nodes[2+i]
		n.Pods = append(n.Pods, pod(n.Name+"-pinned", 100))
		n.Pods[0].DoNotDisrupt = "true"
	}
	c.Nodes[0].Pods[1].Requests.CPU = 300 // s-1
	c.Nodes[1].Pods[0].Requests.CPU = 200 // s-2
	r, err := consolidation.Plan(c, consolidation.Options{})
	require.NoError(t, err)
	require.NotEmpty(t, r.Commands, "kept: %v", r.Kept)
	assert.Empty(t, consolidation.VerifyCommands(c, r.Commands), "%v", r.Commands)
}
