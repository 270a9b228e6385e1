package packing

import (
	"math"
	"slices"
)

// freeTree is a max segment tree over the existing nodes, in placement
// order, of their free CPU and memory, so that "the first node from i on
// with this much room" skips full nodes in O(log n) steps instead of a pass.
// The two maxima are kept apart: a subtree may pass both and still have no
// one node with both, so the caller checks each node found in full.
type freeTree struct {
	size     int
	cpu, mem []int64
}

// newFreeTree returns the tree of nodes in cpu and mem, which it resizes
// (reusing their arrays when large enough) and overwrites.
func newFreeTree(nodes []nodeT, cpu, mem []int64) *freeTree {
	size := 1
	for size < len(nodes) {
		size *= 2
	}
	t := &freeTree{size: size, cpu: resize(cpu, 2*size), mem: resize(mem, 2*size)}
	for i := range t.cpu {
		t.cpu[i], t.mem[i] = math.MinInt64, math.MinInt64
	}
	for i := range nodes {
		t.cpu[size+i], t.mem[size+i] = nodes[i].free.CPU, nodes[i].free.Memory
	}
	for i := size - 1; i > 0; i-- {
		t.pull(i)
	}
	return t
}

// clone returns a copy of t that shares nothing with it.
func (t *freeTree) clone() *freeTree {
	return &freeTree{size: t.size, cpu: slices.Clone(t.cpu), mem: slices.Clone(t.mem)}
}

func (t *freeTree) pull(i int) {
	t.cpu[i], t.mem[i] = max(t.cpu[2*i], t.cpu[2*i+1]), max(t.mem[2*i], t.mem[2*i+1])
}

// set records node i's free room.
func (t *freeTree) set(i int, cpu, mem int64) {
	i += t.size
	t.cpu[i], t.mem[i] = cpu, mem
	for i /= 2; i > 0; i /= 2 {
		t.pull(i)
	}
}

// next returns the first node index at or after from with at least cpu and
// mem free, or -1.
func (t *freeTree) next(from int, cpu, mem int64) int {
	return t.find(1, 0, t.size, from, cpu, mem)
}

func (t *freeTree) find(i, lo, hi, from int, cpu, mem int64) int {
	if hi <= from || t.cpu[i] < cpu || t.mem[i] < mem {
		return -1
	}
	if hi-lo == 1 {
		return lo
	}
	mid := (lo + hi) / 2
	if r := t.find(2*i, lo, mid, from, cpu, mem); r >= 0 {
		return r
	}
	return t.find(2*i+1, mid, hi, from, cpu, mem)
}
