package consolidation_test

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nodeplan/nodeplan/consolidation"
	"github.com/nodeplan/nodeplan/instancetypes"
	"github.com/nodeplan/nodeplan/internal/problemgen"
	"github.com/nodeplan/nodeplan/packing"
)

func TestOptionsValidate(t *testing.T) {
	tests := []struct {
		name string
		o    consolidation.Options
		want string // the option named
	}{
		{"MinPriceImprovement negative", consolidation.Options{MinPriceImprovement: -0.1}, "MinPriceImprovement"},
		{"MinPriceImprovement above 1", consolidation.Options{MinPriceImprovement: 1.5}, "MinPriceImprovement"},
		{"MinPriceImprovement NaN", consolidation.Options{MinPriceImprovement: math.NaN()}, "MinPriceImprovement"},
		{"MinScore negative", consolidation.Options{MinScore: -1}, "MinScore"},
		{"MinScore infinite", consolidation.Options{MinScore: math.Inf(1)}, "MinScore"},
		{"MinScore NaN", consolidation.Options{MinScore: math.NaN()}, "MinScore"},
		{"MaxCandidates negative", consolidation.Options{MaxCandidates: -1}, "MaxCandidates"},
		{"MaxSingle negative", consolidation.Options{MaxSingle: -1}, "MaxSingle"},
		{"MaxIterations negative", consolidation.Options{MaxIterations: math.MinInt}, "MaxIterations"},
		{"Solver MaxInstanceTypes negative", consolidation.Options{Solver: packing.Options{MaxInstanceTypes: -1}}, "MaxInstanceTypes"},
		{"Solver Strategy", consolidation.Options{Solver: packing.Options{Strategy: 9}}, "Strategy"},
	}
	c := newCluster()
	c.node("a", 8, 500)
	c.node("b", 8, 500)
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := consolidation.Plan(c.Cluster, tc.o)
			require.ErrorIs(t, err, consolidation.ErrInvalidOptions)
			assert.ErrorContains(t, err, tc.want)
			err = consolidation.ValidateWith(consolidation.Command{Candidates: []string{"a"}}, c.Cluster, tc.o)
			assert.ErrorIs(t, err, consolidation.ErrInvalidOptions)
		})
	}
	for _, o := range []consolidation.Options{{}, {MinPriceImprovement: 1, MinScore: 2, MaxSingle: 1, MaxCandidates: 1, MaxIterations: 1}} {
		assert.NoError(t, o.Validate())
	}
}

// TestEveryNodeAccountedFor: whatever MaxSingle is, every node is a
// candidate of a command or explained in Kept (issue 20, point 11: a cap
// left nodes in neither).
func TestEveryNodeAccountedFor(t *testing.T) {
	for seed := range uint64(240) {
		p := problemgen.Generate(seed, problemgen.Size{Nodes: 8})
		c := consolidation.Cluster{Nodes: p.Nodes, NodePools: p.NodePools, Catalog: p.Catalog, DaemonSets: p.DaemonSets, Now: now}
		for _, maxSingle := range []int{0, 1, 2} {
			r, err := consolidation.Plan(c, consolidation.Options{MaxSingle: maxSingle})
			require.NoError(t, err, "seed %d", seed)
			seen := map[string]bool{}
			for _, cmd := range r.Commands {
				for _, n := range cmd.Candidates {
					seen[n] = true
				}
			}
			for _, k := range r.Kept {
				assert.False(t, seen[k.Node], "seed %d: node %s is both in a command and kept", seed, k.Node)
				seen[k.Node] = true
			}
			for _, n := range c.Nodes {
				assert.True(t, seen[n.Name], "seed %d, MaxSingle %d: node %s is in no command and not in Kept", seed, maxSingle, n.Name)
			}
		}
	}
}

// TestPrices: node prices outside 0..MaxValidPrice are rejected (issue 20,
// point 10: a command priced its candidates at −$9,223,372,036/h, and a
// negative price made a delete command fail the Cost rule); at the bound,
// the commands pass VerifyCommands.
func TestPrices(t *testing.T) {
	for _, p := range []instancetypes.Price{-1, math.MinInt64, instancetypes.MaxValidPrice + 1, instancetypes.MaxPrice} {
		c := newCluster()
		c.node("a", 8, 500)
		c.node("b", 8, 500).Price = p
		_, err := consolidation.Plan(c.Cluster, consolidation.Options{})
		assert.ErrorIs(t, err, consolidation.ErrInvalidCluster, p)
		assert.ErrorContains(t, err, "node b: price", p)
	}
	c := newCluster()
	c.node("a", 8, 500).Price = instancetypes.MaxValidPrice
	c.node("b", 8, 500).Price = instancetypes.MaxValidPrice
	r, err := consolidation.Plan(c.Cluster, consolidation.Options{})
	require.NoError(t, err)
	require.NotEmpty(t, r.Commands)
	for _, cmd := range r.Commands {
		assert.Positive(t, cmd.Savings, cmd)
	}
	assert.Empty(t, consolidation.VerifyCommands(c.Cluster, r.Commands))
}

// TestOptionsBudgetPreferences: the budget preference policy is
// provisioning's; consolidation refuses it by name rather than run a
// budget search in every simulation.
func TestOptionsBudgetPreferences(t *testing.T) {
	err := consolidation.Options{Solver: packing.Options{Preferences: packing.BudgetPreferences, PreferenceBudget: 0.1}}.Validate()
	require.ErrorIs(t, err, consolidation.ErrInvalidOptions)
	assert.Contains(t, err.Error(), "Solver.Preferences")
	for _, p := range []packing.PreferencePolicy{packing.RespectPreferences, packing.IgnorePreferences} {
		assert.NoError(t, consolidation.Options{Solver: packing.Options{Preferences: p}}.Validate(), p.String())
	}
}
