package bound

import (
	"cmp"
	"math"
	"slices"
)

// cheap returns the two cheap certificates: the largest single-pod price
// (the cheapest room holding one pod of a class: 0 when an existing node
// may) and, over the anti-affinity groups, the largest sum of the
// single-pod prices of a group's pods but the dearest ones the existing
// nodes could take, one per node. Each pod of a group needs a node of its
// own that costs at least its single-pod price.
func (m *model) cheap() (single, anti float64) {
	sp := make([]float64, len(m.count))
	for k := range m.count {
		sp[k] = m.singlePod(int32(k))
		if !math.IsInf(sp[k], 1) {
			single = max(single, sp[k])
		}
	}
	for g := range m.groups {
		anti = max(anti, m.groupSum(g, sp))
	}
	// The prices are dollars rounded from integer nanodollars, the sums
	// off by a few ulps: shave them as the LP's.
	return single * (1 - slack), anti * (1 - slack)
}

// singlePod is the cheapest room that holds one pod of class k, +Inf for
// none.
func (m *model) singlePod(k int32) float64 {
	best := math.Inf(1)
	for _, n := range m.nodes {
		if m.sets[n.set][k] && m.fitsOne(k, n.alloc) {
			return 0
		}
	}
	for _, c := range m.cols {
		if c.price < best && m.sets[c.set][k] && m.fitsOne(k, c.alloc) {
			best = c.price
		}
	}
	return best
}

// fitsOne reports whether alloc holds one pod of class k.
func (m *model) fitsOne(k int32, alloc []int64) bool { return m.holds(k, alloc) > 0 }

// holds is how many pods of class k alloc holds, alone and whatever the
// class's count (math.MaxInt64 for a class requesting nothing); 0 when a
// dimension is short, one it does not request included.
func (m *model) holds(k int32, alloc []int64) int64 {
	n := int64(math.MaxInt64)
	for d, r := range m.req[k] {
		switch {
		case r > alloc[d]:
			return 0
		case r > 0:
			n = min(n, alloc[d]/r)
		}
	}
	return n
}

// groupSum is group g's certificate.
func (m *model) groupSum(g int, sp []float64) float64 {
	var members []int32
	for k, gk := range m.group {
		if gk == g && !math.IsInf(sp[k], 1) {
			members = append(members, int32(k))
		}
	}
	free := 0
	for _, n := range m.nodes {
		if slices.ContainsFunc(members, func(k int32) bool { return m.sets[n.set][k] && m.fitsOne(k, n.alloc) }) {
			free++
		}
	}
	slices.SortStableFunc(members, func(a, b int32) int { return cmp.Compare(sp[b], sp[a]) })
	sum := 0.0
	for _, k := range members {
		n := int(m.count[k])
		skip := min(free, n)
		free -= skip
		sum += float64(n-skip) * sp[k]
	}
	return sum
}
