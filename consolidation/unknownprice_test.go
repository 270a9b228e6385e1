package consolidation_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nodeplan/nodeplan/consolidation"
	"github.com/nodeplan/nodeplan/disruption"
	"github.com/nodeplan/nodeplan/instancetypes"
	"github.com/nodeplan/nodeplan/packing"
)

// unpriced marks n as of unknown price and moves it to zone z, which the
// catalog lacks, as package kube does for a node whose offering the
// catalog lacks.
func unpriced(n *packing.Node) *packing.Node {
	n.Price, n.PriceUnknown, n.Zone = 0, true, "z"
	return n
}

// TestPlanUnknownPrice: a node of unknown price is deleted when empty (the
// savings leave it out and Unpriced counts it) and otherwise kept, Why
// PriceUnknown, with a message naming what the catalog lacks.
func TestPlanUnknownPrice(t *testing.T) {
	tests := []struct {
		name     string
		build    func(c *cluster)
		opts     consolidation.Options
		cmds     []string
		unpriced []int
		kept     map[string]string // node -> message, Why PriceUnknown
	}{
		{"an underused node of unknown price is not replaced", func(c *cluster) {
			unpriced(c.node("a", 16, 1500))
		}, consolidation.Options{}, nil, nil,
			map[string]string{"a": `node a has no known price: the catalog has no on-demand offering of c-16 in zone "z"; it is deleted only when empty`}},
		{"an instance type the catalog lacks", func(c *cluster) {
			unpriced(c.node("a", 16, 1500)).InstanceType = "m9.huge"
		}, consolidation.Options{}, nil, nil,
			map[string]string{"a": `node a has no known price: the catalog has no instance type "m9.huge"; it is deleted only when empty`}},
		{"a zone the catalog lacks", func(c *cluster) {
			unpriced(c.node("a", 16, 1500)).Zone = "cn-north-1a"
		}, consolidation.Options{}, nil, nil,
			map[string]string{"a": `node a has no known price: the catalog has no on-demand offering of c-16 in zone "cn-north-1a"; it is deleted only when empty`}},
		{"an offering the catalog has (the price was not looked up)", func(c *cluster) {
			unpriced(c.node("a", 16, 1500))
			c.Nodes[0].Zone = "b"
		}, consolidation.Options{}, nil, nil,
			map[string]string{"a": `node a has no known price; it is deleted only when empty`}},
		{"an empty node of unknown price is deleted, its price left out", func(c *cluster) {
			unpriced(c.node("a", 4))
			c.node("b", 4)
			c.node("c", 4, 3000)
		}, consolidation.Options{}, []string{"Empty delete [b a] (+0) saves 0.200000/h and 1 of unknown price"}, []int{1}, nil},
		{"it joins no multi-node delete", func(c *cluster) {
			c.node("a", 8, 1000)
			unpriced(c.node("b", 8, 7500))
			c.node("c", 8, 6000)
		}, consolidation.Options{}, []string{"Underutilized delete [a] (+0) saves 0.400000/h"}, []int{0},
			map[string]string{"b": `node b has no known price: the catalog has no on-demand offering of c-8 in zone "z"; it is deleted only when empty`}},
		{"nor a repack", func(c *cluster) {
			unpriced(c.node("big", 32, 4000, 4000, 4000, 4000, 4000))
		}, consolidation.Options{Repack: true}, nil, nil,
			map[string]string{"big": `node big has no known price: the catalog has no on-demand offering of c-32 in zone "z"; it is deleted only when empty`}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c := newCluster()
			tc.build(c)
			r, err := consolidation.Plan(c.Cluster, tc.opts)
			require.NoError(t, err)
			var got []string
			var counts []int
			for _, cmd := range r.Commands {
				got, counts = append(got, cmd.String()), append(counts, cmd.Unpriced)
			}
			assert.Equal(t, tc.cmds, got, "kept: %v", r.Kept)
			assert.Equal(t, tc.unpriced, counts)
			for node, msg := range tc.kept {
				i := indexKept(r.Kept, node)
				require.GreaterOrEqual(t, i, 0, "node %s not kept: %v", node, r.Kept)
				assert.Equal(t, consolidation.PriceUnknown, r.Kept[i].Why)
				assert.Equal(t, msg, r.Kept[i].Message)
			}
			assert.Empty(t, consolidation.VerifyCommands(c.Cluster, r.Commands))
		})
	}
}

func indexKept(kept []consolidation.Explanation, node string) int {
	for i, k := range kept {
		if k.Node == node {
			return i
		}
	}
	return -1
}

// TestValidateUnknownPrice: an underutilized command whose candidate's
// price became unknown is stale; an emptiness command is not.
func TestValidateUnknownPrice(t *testing.T) {
	c := newCluster()
	c.node("a", 8, 500)
	c.node("b", 8)
	c.node("busy", 8, 3000).Pods[0].DoNotDisrupt = "true"
	r, err := consolidation.Plan(c.Cluster, consolidation.Options{})
	require.NoError(t, err)
	require.Len(t, r.Commands, 2, "%v", r.Commands)
	empty, under := r.Commands[0], r.Commands[1]
	require.Equal(t, consolidation.Emptiness, empty.Method)

	fresh := newCluster()
	unpriced(fresh.node("a", 8, 500))
	unpriced(fresh.node("b", 8))
	fresh.node("busy", 8, 3000).Pods[0].DoNotDisrupt = "true"
	assert.NoError(t, consolidation.Validate(empty, fresh.Cluster))
	err = consolidation.Validate(under, fresh.Cluster)
	var se *consolidation.StaleError
	require.ErrorAs(t, err, &se)
	assert.Equal(t, consolidation.PriceUnknown, se.Why, se.Message)
}

// TestVerifyCommandsUnknownPrice: replacing a node of unknown price, or
// miscounting such candidates, breaks RuleCost.
func TestVerifyCommandsUnknownPrice(t *testing.T) {
	c := newCluster()
	unpriced(c.node("a", 16, 1500))
	unpriced(c.node("e", 4))
	cmds := []consolidation.Command{
		{Reason: disruption.Underutilized, Method: consolidation.SingleNode, Candidates: []string{"a"},
			Replacements: []packing.NodeClaim{claim("r1", "c-2", 0.1)}, Savings: -instancetypes.MustPriceFromDollars(0.1),
			Homes: []disruption.Home{{Pod: disruption.PodRef{Namespace: "default", Name: "a-p0"}, NodeClaim: "r1"}}},
		{Reason: disruption.Empty, Method: consolidation.Emptiness, Candidates: []string{"e"}},
	}
	got := consolidation.VerifyCommands(c.Cluster, cmds)
	var msgs []string
	for _, v := range got {
		assert.Equal(t, consolidation.RuleCost, v.Rule, "%v", v)
		msgs = append(msgs, v.Message)
	}
	assert.Equal(t, []string{"Unpriced is 0, but 1 candidates are of unknown price",
		"the replacements cost 0.100000/h, more than the 0.000000/h of the candidates they replace",
		"candidate a, of unknown price, is replaced: the replacements cannot be shown cheaper",
		"Unpriced is 0, but 1 candidates are of unknown price"}, msgs)
}
