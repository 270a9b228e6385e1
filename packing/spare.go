package packing

// spare is the arrays a solve's compile fills, by size of the problem:
// the node starts, their order, the free-room index and the pod infos. A
// vouched solve takes them from its vouch.Memo and gives them back when it
// ends (solveValid), so that the many alike solves of one consolidation or
// drift plan reuse them instead of allocating them anew; other solves
// allocate them. Every element a solve reads it writes first, so which
// arrays a solve gets never changes its plan. A memo keeps at most a few
// sets, with what their last solve's elements point to (nodes, labels,
// pods of that simulation), until the plan drops the memo. The zero
// spare has none.
type spare struct {
	nodes    []nodeT
	order    []int
	cpu, mem []int64
	pods     []podInfo
}

// takeSpare returns the arrays vd's memo keeps, or new empty ones.
func takeSpare(vd vouched) *spare {
	if sp, _ := vd.v.Memo().Take().(*spare); sp != nil {
		return sp
	}
	return &spare{}
}

// giveSpare gives the solve's arrays back to vd's memo: the solve has
// ended and nothing it returned points into them.
func (s *static) giveSpare(vd vouched) {
	if s.spare != nil {
		vd.v.Memo().Give(s.spare)
		s.spare = nil
	}
}

// resize returns a of length n, its elements to be written by the caller,
// reusing a's array when it is large enough.
func resize[T any](a []T, n int) []T {
	if cap(a) < n {
		return make([]T, n)
	}
	return a[:n]
}

// nodeStarts returns n node starts, each to be written.
func (sp *spare) nodeStarts(n int) []nodeT {
	sp.nodes = resize(sp.nodes, n)
	return sp.nodes
}

// indexes returns 0, 1, …, n-1.
func (sp *spare) indexes(n int) []int {
	sp.order = identity(resize(sp.order, n))
	return sp.order
}

// podInfos returns n pod infos, each to be written.
func (sp *spare) podInfos(n int) []podInfo {
	sp.pods = resize(sp.pods, n)
	return sp.pods
}

// tree returns the free-room index of nodes (newFreeTree) in the spare's
// arrays.
func (sp *spare) tree(nodes []nodeT) *freeTree {
	t := newFreeTree(nodes, sp.cpu, sp.mem)
	sp.cpu, sp.mem = t.cpu, t.mem
	return t
}
