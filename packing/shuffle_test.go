package packing_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/nodeplan/nodeplan/packing"
	"github.com/nodeplan/nodeplan/packing/verify"
	"github.com/nodeplan/nodeplan/requirements"
)

// TestShuffledPassesPlaceTheSpreadPodFirst: two 1-cpu pods labelled app=g
// and a 100m pod whose zone spread counts them. Every size order puts the
// small pod last: the g pods share a node in one zone, where the spread
// then sees a skew of 2, so the small pod takes a second node in another
// zone. Placed first, it counts nothing and the g pods join its node. The
// default search's shuffled passes find that order (one node, checked in
// its order by verify.Plan); the same number of restarts without them
// (Restarts set explicitly) keeps two nodes.
func TestShuffledPassesPlaceTheSpreadPodFirst(t *testing.T) {
	p := packing.Problem{
		Catalog:   buildCatalog(t, fakeIts(8)),
		NodePools: []packing.NodePool{pool("default")},
		Pods: []packing.Pod{
			mkPod("g1", req("cpu", "1"), podLabels("app", "g")),
			mkPod("g2", req("cpu", "1"), podLabels("app", "g")),
			mkPod("s", req("cpu", "100m"), spread(spreadBy(requirements.LabelZone, 1, "app", "g"))),
		},
	}
	plan, err := packing.Solve(p, packing.Options{})
	require.NoError(t, err)
	require.Empty(t, plan.Unschedulable)
	require.Len(t, plan.NodeClaims, 1, "%v", plan.NodeClaims)
	require.Empty(t, verify.Plan(p, plan))
	again, err := packing.Solve(p, packing.Options{})
	require.NoError(t, err)
	require.Equal(t, plan, again)

	fixed, err := packing.Solve(p, packing.Options{Restarts: 32})
	require.NoError(t, err)
	require.Len(t, fixed.NodeClaims, 2, "%v", fixed.NodeClaims)
	require.Less(t, plan.Price, fixed.Price)
}
