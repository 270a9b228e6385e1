// Package vouch lets nodeplan's own packages tell packing which nodes of a
// cluster they have already validated, so that the many solves of one
// consolidation or drift plan do not check the same nodes again (see
// packing.SolveVouched). A caller vouches for the nodes of a problem that
// packing.Problem.Validate accepted; every node of a later simulation with
// one of those names must be that node, with at most its pods (themselves
// validated, bound or pending, pods of that problem) and its
// Initialized, MarkedForDeletion and Settling flags changed, and its
// labels replaced by its effective labels.
//
// The package is internal: a program outside the module cannot import it,
// so the only Nodes it can hand to packing is the zero value, which
// vouches for nothing. A Nodes is immutable once made; there is no global
// state.
package vouch

// Nodes is a set of vouched-for node names. The zero Nodes is empty. It is
// safe for concurrent use.
type Nodes struct{ names map[string]struct{} }

// Of vouches for the nodes items, named by name: the caller has validated
// them. It does not keep items. O(len(items)).
func Of[T any](items []T, name func(*T) string) Nodes {
	names := make(map[string]struct{}, len(items))
	for i := range items {
		names[name(&items[i])] = struct{}{}
	}
	return Nodes{names: names}
}

// Has reports whether n vouches for the node named name. O(1), no
// allocation.
func (n Nodes) Has(name string) bool {
	_, ok := n.names[name]
	return ok
}
