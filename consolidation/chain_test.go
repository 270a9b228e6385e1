package consolidation_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nodeplan/nodeplan/consolidation"
	"github.com/nodeplan/nodeplan/packing"
	"github.com/nodeplan/nodeplan/requirements"
)

// inZone pins pod i of node n to zone z.
func inZone(n *packing.Node, i int, z string) {
	n.Pods[i].NodeAffinity.Selector = requirements.NewSet(requirements.MustNew(requirements.LabelZone, requirements.In, z))
}

// zonedChain: a and b, large and nearly empty, hold one zone-pinned pod
// each (zone a and zone b); d, in zone a, has room. Multi-node replaces a
// and b by one small zone-b node, a's pod going to d (the prefix [a b d]
// would need a node in each zone); then d, holding a's pod and its own, is
// worth replacing by a smaller node.
func zonedChain(c *cluster) {
	inZone(c.node("a", 16, 800), 0, "a")
	b := c.node("b", 16, 800)
	b.Zone = "b"
	inZone(b, 0, "b")
	c.node("d", 8, 800)
}

// TestPlanChains: every pass re-evaluates every node, those that took
// displaced pods included, as Karpenter's disruption controller requeues
// at once after each command and evaluates all methods anew
// (K/controllers/disruption/controller.go:176-178); such a node is a
// candidate as soon as its NodePool's consolidateAfter has passed since
// its last pod event (the Consolidatable condition,
// K/controllers/nodeclaim/disruption/consolidation.go:65-80), so at once
// with consolidateAfter 0, and not in the same plan with a longer one
// (K/controllers/nodeclaim/disruption/consolidation_test.go:116-123: the
// condition goes when the last pod event is too recent).
func TestPlanChains(t *testing.T) {
	tests := []struct {
		name  string
		build func(c *cluster)
		want  []string
		kept  map[string]consolidation.Why
	}{
		{"a node that took displaced pods is consolidated next (consolidateAfter 0)", zonedChain, []string{
			"Underutilized replace [a b] (+1) saves 1.550000/h",
			"Underutilized replace [d] (+1) saves 0.300000/h",
		}, nil},
		{"not within its consolidateAfter", func(c *cluster) {
			c.NodePools[0].Disruption.ConsolidateAfter = time.Minute
			zonedChain(c)
		}, []string{"Underutilized replace [a b] (+1) saves 1.550000/h"},
			map[string]consolidation.Why{"d": consolidation.ConsolidateAfter}},
		{"multi-node runs again after single-node commands", func(c *cluster) {
			// x, first by savings ratio, blocks every multi-node prefix
			// (its pods are pinned to zone b, the others' to zone a, so
			// it and a need two new nodes); alone it is
			// replaced. Then a, b and c (2.5 cores each on 4) go together
			// onto one 8-core node, which none of them can alone.
			x := c.node("x", 32, 3000, 3000)
			x.Zone = "b"
			inZone(x, 0, "b")
			inZone(x, 1, "b")
			for _, n := range []string{"a", "b", "c", "d"} {
				inZone(c.node(n, 4, 2500), 0, "a")
			}
		}, []string{
			"Underutilized replace [x] (+1) saves 1.200000/h",
			"Underutilized replace [a b c] (+1) saves 0.200000/h",
		}, map[string]consolidation.Why{"d": consolidation.NoCheaperReplacement}},
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
			kept := map[string]consolidation.Why{}
			for _, k := range r.Kept {
				kept[k.Node] = k.Why
			}
			for n, w := range tc.kept {
				assert.Equal(t, w.String(), kept[n].String(), "node %s: %v", n, r.Kept)
			}
		})
	}
}
