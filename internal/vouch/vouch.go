// Package vouch lets nodeplan's own packages tell packing which nodes of a
// cluster they have already validated, so that the many solves of one
// consolidation or drift plan do not check the same nodes again (see
// packing.SolveVouched). A caller vouches for the nodes of a problem that
// packing.Problem.Validate accepted; every node of a later simulation with
// one of those names must be that node, with at most its pods (themselves
// validated, bound or pending, pods of that problem) and its
// Initialized, MarkedForDeletion and Settling flags changed, and its
// labels replaced by its effective labels. A slice of pods given for a
// vouched node is never changed in place but in their Displaced flags
// (other pods come in a new slice), so that packing may remember what it
// read from the slice ([Memo]).
//
// The package is internal: a program outside the module cannot import it,
// so the only Nodes it can hand to packing is the zero value, which
// vouches for nothing. A Nodes's names are immutable once made; its
// [Memo], which the solves of one plan share, is its only mutable
// state, and there is no global state.
package vouch

import (
	"sync"
	"sync/atomic"
)

// SameSlice reports whether a and b are the same slice: the same length
// and, when not empty, the same first element. By the package's contract,
// the same pods slice of a vouched node holds the same pods, so what a
// solve derived from it holds too.
func SameSlice[T any](a, b []T) bool {
	return len(a) == len(b) && (len(a) == 0 || &a[0] == &b[0])
}

// Nodes is a set of vouched-for node names, each with its index (its
// position among the items it was made from), with a memo for what the
// solves derive from them. The zero Nodes is empty and has no memo. It is
// safe for concurrent use.
type Nodes struct {
	names map[string]int
	memo  *Memo
	pods  bool
}

// Of vouches for the nodes items, named by name: the caller has validated
// them, so their names are unique. It does not keep items. O(len(items)).
func Of[T any](items []T, name func(*T) string) Nodes {
	names := make(map[string]int, len(items))
	for i := range items {
		names[name(&items[i])] = i
	}
	return Nodes{names: names, memo: &Memo{nodes: make([]atomic.Value, len(items))}}
}

// WithPods returns n vouching also for the pending pods of every problem
// it is given with: each is a pod of the validated problem, pending or
// bound to one of its nodes, with at most its Displaced flag changed, and
// no two pending pods share a namespace and name. The caller vouches so
// only when the validated problem's pods, pending and bound, all have
// names of their own, and a simulation moves each at most once.
func (n Nodes) WithPods() Nodes {
	n.pods = true
	return n
}

// Pods reports whether n vouches for the pending pods (WithPods).
func (n Nodes) Pods() bool { return n.pods }

// Memo returns the memo of n: nil for the zero Nodes.
func (n Nodes) Memo() *Memo { return n.memo }

// Len is the number of items n was made from: every index is below it.
func (n Nodes) Len() int {
	if n.memo == nil {
		return 0
	}
	return len(n.memo.nodes)
}

// Memo keeps, across the solves of the simulations of one validated
// cluster, what a solve derives from a vouched node's pods alone, one
// value a node, by the node's index; a value records the slice it was
// derived from, and a solve uses it only for that same slice (the
// vouched contract: a slice of a vouched node's pods is never changed but
// in Displaced, so the same slice is the same pods). Values are of one
// type and must not be modified once stored. A nil *Memo stores nothing.
// It also keeps the scratch a solve gives back for a later solve to
// reuse ([Memo.Give], [Memo.Take]). It is safe for concurrent use.
type Memo struct {
	nodes []atomic.Value
	mu    sync.Mutex
	spare []any
}

// Load returns the value stored for node i, or nil.
func (m *Memo) Load(i int) any {
	if m == nil {
		return nil
	}
	return m.nodes[i].Load()
}

// Store keeps value, not nil, for node i, in place of the one before.
func (m *Memo) Store(i int, value any) {
	if m != nil {
		m.nodes[i].Store(value)
	}
}

// maxSpare is how much scratch a Memo keeps: the solves of one plan run
// a few at a time at most.
const maxSpare = 4

// Give keeps scratch, which its solve no longer reads, for a later solve
// to Take: the solves of one plan are alike, so what one allocated fits
// the next. Beyond maxSpare, or on a nil Memo, it is dropped.
func (m *Memo) Give(scratch any) {
	if m == nil {
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if len(m.spare) < maxSpare {
		m.spare = append(m.spare, scratch)
	}
}

// Take returns scratch an earlier solve gave, no longer shared with
// anything, or nil. Which one a solve gets depends on timing, so a solve
// must overwrite what it reads of it: it saves allocations, never changes
// a result.
func (m *Memo) Take() any {
	if m == nil {
		return nil
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	n := len(m.spare)
	if n == 0 {
		return nil
	}
	v := m.spare[n-1]
	m.spare[n-1] = nil
	m.spare = m.spare[:n-1]
	return v
}

// Has reports whether n vouches for the node named name. O(1), no
// allocation.
func (n Nodes) Has(name string) bool {
	_, ok := n.names[name]
	return ok
}

// Index returns the index of the node named name and whether n vouches
// for it. O(1), no allocation.
func (n Nodes) Index(name string) (int, bool) {
	i, ok := n.names[name]
	return i, ok
}
