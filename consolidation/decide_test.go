package consolidation_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nodeplan/nodeplan/consolidation"
)

// TestPlanDeleteOrReplace: a multi-node command is decided as Karpenter's
// computeConsolidation decides (K/controllers/disruption/consolidation.go):
// the candidates' pods are simulated on the cluster without them, so a
// node of the prefix is no home for the others' pods; no new node means
// delete (:181-187), more than one means no command (:190-195), exactly
// one means replace if a type is cheaper than the candidates together
// (:210-233) and, for multi-node, cheaper than any candidate of its own
// type (filterOutSameInstanceType,
// K/controllers/disruption/multinodeconsolidation.go:158-165, :196-208).
// The binary search keeps the longest valid prefix (:176-179), so a
// replace of three nodes wins over a delete of two: a new node is
// launched although an existing node could have held the pods — that node
// was in the prefix. This is the c6i.2xlarge for one 8Gi pod: the
// decision follows the prefix, and prefixes of candidates with equal
// savings ratios differ (Karpenter sorts them with sort.Slice, unstable;
// nodeplan by name).
func TestPlanDeleteOrReplace(t *testing.T) {
	tests := []struct {
		name  string
		build func(c *cluster)
		want  []string
	}{
		{"the longest valid prefix launches a node that the existing node of the prefix made unneeded", func(c *cluster) {
			c.node("a", 16, 1000)
			c.node("b", 16, 1000)
			c.node("c", 8, 500, 500)
		}, []string{"Underutilized replace [a b c] (+1) saves 1.800000/h"}},
		{"without the third node the same pods go to it: delete", func(c *cluster) {
			c.node("a", 16, 1000)
			c.node("b", 16, 1000)
			c.node("c", 8, 500, 500).Annotations = map[string]string{"karpenter.sh/do-not-disrupt": "true"}
		}, []string{"Underutilized delete [a b] (+0) saves 1.600000/h"}},
		{"a replacement of a candidate's own type is no cheaper than keeping it: delete", func(c *cluster) {
			c.node("a", 16, 1000)
			c.node("b", 16, 1000)
			c.node("c", 4, 500, 500)
		}, []string{"Underutilized delete [a b] (+0) saves 1.600000/h"}},
		{"two new nodes: no multi-node command, single-node then", func(c *cluster) {
			a := c.node("a", 16, 3000, 3000)
			inZone(a, 0, "a")
			inZone(a, 1, "a")
			b := c.node("b", 16, 3000, 3000)
			b.Zone = "b"
			inZone(b, 0, "b")
			inZone(b, 1, "b")
		}, []string{"Underutilized replace [a] (+1) saves 0.400000/h", "Underutilized replace [b] (+1) saves 0.400000/h"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c := newCluster()
			tc.build(c)
			r, err := consolidation.Plan(c.Cluster, consolidation.Options{})
			require.NoError(t, err)
			var got []string
			for _, cmd := range r.Commands {
				got = append(got, cmd.String())
			}
			assert.Equal(t, tc.want, got, "kept: %v", r.Kept)
			assert.Empty(t, consolidation.VerifyCommands(c.Cluster, r.Commands))
		})
	}
}
