// Package requirements is the label algebra of node scheduling: requirements on
// node labels (In, NotIn, Exists, DoesNotExist, Gt, Lt, Gte, Lte), sets of them
// keyed by label key, the node-affinity terms a pod carries, and taints and
// tolerations.
//
// The semantics are Karpenter's (its pkg/scheduling): a [Requirement] is a
// possibly complemented set of values with optional inclusive integer bounds,
// so that every operator is closed under [Requirement.Intersect]. Gt N is
// stored as Gte N+1 and Lt N as Lte N-1. Values are kept sorted and unique, so
// intersection is a merge and iteration is deterministic.
//
// A [Set] maps label keys to requirements. [Set.Compatible] is Karpenter's
// "loosely compatible" test: a key the receiver does not define is accepted
// only when the other side says NotIn or DoesNotExist for it, or when the key
// is a well-known label ([IsWellKnown]) that a provider fills in later.
//
// Cost model: a Requirement is a small value (its values slice is shared and
// never modified after construction). Has, Intersects, Set.Has, Set.Get,
// Set.Intersects and Set.Compatible (when compatible) do not allocate.
// Intersect and Add allocate the result. Sets are immutable: every method
// returns a new Set and leaves its receiver and arguments untouched, so a Set
// may be shared freely between goroutines.
//
// See ExampleSet_Compatible and ExampleRequirement_Intersect.
package requirements
