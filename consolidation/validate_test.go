package consolidation_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nodeplan/nodeplan/consolidation"
	"github.com/nodeplan/nodeplan/packing"
)

func TestValidate(t *testing.T) {
	base := func() *cluster {
		c := newCluster()
		c.node("a", 8, 500)
		c.node("b", 8, 3000).Pods[0].DoNotDisrupt = "true"
		return c
	}
	r, err := consolidation.Plan(base().Cluster, consolidation.Options{})
	require.NoError(t, err)
	require.Len(t, r.Commands, 1)
	cmd := r.Commands[0]
	require.Equal(t, "Underutilized delete [a] (+0) saves 0.400000/h", cmd.String())

	tests := []struct {
		name   string
		change func(c *cluster)
		why    consolidation.Why
	}{
		{"unchanged", func(*cluster) {}, 0},
		{"candidate gone", func(c *cluster) { c.Nodes = c.Nodes[1:] }, consolidation.Deleting},
		{"pod became do-not-disrupt", func(c *cluster) { c.Nodes[0].Pods[0].DoNotDisrupt = "true" }, consolidation.PodDoNotDisrupt},
		{"destination filled up", func(c *cluster) { c.Nodes[1].Pods[0].Requests.CPU = 7800 }, consolidation.NoCheaperReplacement},
		{"budget closed", func(c *cluster) { c.NodePools[0] = pool("default", packing.Budget{Nodes: "0"}) }, consolidation.Budget},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c := base()
			tc.change(c)
			err := consolidation.Validate(cmd, c.Cluster)
			if tc.name == "unchanged" {
				assert.NoError(t, err)
				return
			}
			require.ErrorIs(t, err, consolidation.ErrStale)
			var se *consolidation.StaleError
			require.ErrorAs(t, err, &se)
			assert.Equal(t, tc.why.String(), se.Why.String(), se.Message)
		})
	}
}

func TestPlanErrors(t *testing.T) {
	c := newCluster(pool("default", packing.Budget{Nodes: "lots"}))
	c.node("a", 8)
	_, err := consolidation.Plan(c.Cluster, consolidation.Options{})
	assert.ErrorContains(t, err, `nodepool "default": disruption budget 0`)
	assert.ErrorIs(t, err, consolidation.ErrInvalidCluster, "a bad budget is a bad snapshot")
	c.node("b", 8, 500)
	err = consolidation.Validate(consolidation.Command{}, c.Cluster)
	assert.ErrorIs(t, err, consolidation.ErrInvalidCluster, "Validate rejects it as Plan does")

	c = newCluster()
	c.node("a", 8)
	c.Catalog = nil
	_, err = consolidation.Plan(c.Cluster, consolidation.Options{})
	assert.ErrorIs(t, err, consolidation.ErrInvalidCluster)

	c = newCluster()
	c.node("a", 8, 1000)
	c.node("a", 8)
	_, err = consolidation.Plan(c.Cluster, consolidation.Options{})
	assert.ErrorIs(t, err, consolidation.ErrInvalidCluster)
	assert.ErrorContains(t, err, "node a")

	r, err := consolidation.Plan(consolidation.Cluster{}, consolidation.Options{})
	assert.NoError(t, err)
	assert.Empty(t, r.Commands)
}
