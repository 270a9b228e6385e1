package disruption

import (
	"cmp"
	"slices"
	"time"

	"github.com/nodeplan/nodeplan/packing"
)

// Scales of Karpenter's eviction cost: a pod-deletion-cost of 2^27 or a
// priority of 2^25 weighs as much as one more pod.
const (
	deletionCostScale = 1 << 27
	priorityScale     = 1 << 25
	maxPodCost        = 10.0
)

// PodCost is the cost of evicting p, Karpenter's disruptionutils
// EvictionCost: 1 + DeletionCost/2^27 + Priority/2^25, clamped to
// [-10, 10].
func PodCost(p packing.Pod) float64 {
	c := 1 + float64(p.DeletionCost)/deletionCostScale + float64(p.Priority)/priorityScale
	return min(max(c, -maxPodCost), maxPodCost)
}

// EvictionCost is the cost of rescheduling pods, Karpenter's
// ReschedulingCost: the sum of their [PodCost]s. An empty node costs 0.
// The complexity is O(len(pods)); it does not allocate.
func EvictionCost(pods []packing.Pod) float64 {
	var c float64
	for _, p := range pods {
		c += PodCost(p)
	}
	return c
}

// Order returns the indexes of nodes in the order Karpenter tries
// disruption candidates: by [EvictionCost] of their pods ascending, ties by
// name, then by index. It returns a new slice and never sorts the input.
// The complexity is O(pods + n log n).
func Order(nodes []packing.Node) []int {
	costs := make([]float64, len(nodes))
	idx := make([]int, len(nodes))
	for i, n := range nodes {
		costs[i], idx[i] = EvictionCost(n.Pods), i
	}
	slices.SortStableFunc(idx, func(a, b int) int {
		return cmp.Or(cmp.Compare(costs[a], costs[b]), cmp.Compare(nodes[a].Name, nodes[b].Name))
	})
	return idx
}

// defaultExpireAfter is Karpenter's default node lifetime.
const defaultExpireAfter = 720 * time.Hour

// LifetimeRemaining is the fraction of node n's lifetime left at now, in
// [0, 1], under pool's expireAfter (zero means 720h; ExpireNever gives 1);
// Karpenter multiplies a candidate's [EvictionCost] by it, so nodes close to
// expiry are cheaper to disrupt. A node without CreationTime gives 1.
func LifetimeRemaining(n packing.Node, pool packing.NodePool, now time.Time) float64 {
	d := pool.Disruption
	if d.ExpireNever || n.CreationTime.IsZero() {
		return 1
	}
	total := cmp.Or(d.ExpireAfter, defaultExpireAfter)
	left := float64(total-now.Sub(n.CreationTime)) / float64(total)
	return min(max(left, 0), 1)
}
