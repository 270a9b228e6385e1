package packing_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
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
	p := spreadAfterCounted(t)
	plan, err := packing.Solve(p, packing.Options{})
	require.NoError(t, err)
	assert.Empty(t, plan.Unschedulable)
	assert.Len(t, plan.NodeClaims, 1, "%v", plan.NodeClaims)
	assert.Empty(t, verify.Plan(p, plan))
	again, err := packing.Solve(p, packing.Options{})
	require.NoError(t, err)
	assert.Equal(t, plan, again)

	fixed, err := packing.Solve(p, packing.Options{Restarts: 32})
	require.NoError(t, err)
	assert.Len(t, fixed.NodeClaims, 2, "%v", fixed.NodeClaims)
	assert.Less(t, plan.Price, fixed.Price)
}

// TestShuffledPassesKeepPriorityFirst: with PriorityOrder a shuffled
// pass still takes higher-priority pods first. The two g pods outrank
// the small pod whose spread counts them, so every pass places it last
// and it takes a second node; a shuffle free to place it first would
// find the one-node plan the first test does.
func TestShuffledPassesKeepPriorityFirst(t *testing.T) {
	p := spreadAfterCounted(t)
	p.Pods[0].Priority, p.Pods[1].Priority = 10, 10
	plan, err := packing.Solve(p, packing.Options{PriorityOrder: true})
	require.NoError(t, err)
	assert.Len(t, plan.NodeClaims, 2, "%v", plan.NodeClaims)
	require.Len(t, plan.Order, 3)
	assert.Equal(t, 2, plan.Order[2], "the low-priority pod last")
	assert.Empty(t, verify.Plan(p, plan))
}

// spreadAfterCounted is the shuffle tests' problem: two 1-cpu pods
// labelled app=g and a 100m pod whose zone spread counts them.
func spreadAfterCounted(t *testing.T) packing.Problem {
	return packing.Problem{
		Catalog:   buildCatalog(t, fakeIts(8)),
		NodePools: []packing.NodePool{pool("default")},
		Pods: []packing.Pod{
			mkPod("g1", req("cpu", "1"), podLabels("app", "g")),
			mkPod("g2", req("cpu", "1"), podLabels("app", "g")),
			mkPod("s", req("cpu", "100m"), spread(spreadBy(requirements.LabelZone, 1, "app", "g"))),
		},
	}
}
