package requirements

import (
	"cmp"
	"fmt"
	"iter"
	"maps"
	"slices"
	"strings"
)

// Set is a conjunction of requirements, at most one per label key, kept
// sorted by key. The zero Set has no requirements and is satisfied by every
// node.
//
// Set is immutable: Add and Intersect return new sets, or the receiver
// when they add nothing; no method changes a set. It is safe for
// concurrent use.
type Set struct {
	reqs []Requirement // sorted by key, unique keys
}

// NewSet returns the set of reqs; requirements on the same key are
// intersected. NewSet does not modify reqs.
func NewSet(reqs ...Requirement) Set {
	if len(reqs) == 0 {
		return Set{}
	}
	if strictlySorted(reqs) {
		return Set{reqs: slices.Clone(reqs)}
	}
	var buf [32]int
	order := buf[:0]
	for i := range reqs {
		order = append(order, i)
	}
	slices.SortFunc(order, func(i, j int) int { // by key, then as given: stable
		return cmp.Or(strings.Compare(reqs[i].key, reqs[j].key), cmp.Compare(i, j))
	})
	out := make([]Requirement, 0, len(reqs))
	for _, i := range order {
		if n := len(out); n > 0 && out[n-1].key == reqs[i].key {
			out[n-1] = out[n-1].Intersect(reqs[i]) // in the order given, as Add
			continue
		}
		out = append(out, reqs[i])
	}
	return Set{reqs: out}
}

// strictlySorted reports whether the keys of reqs increase: a set as is.
func strictlySorted(reqs []Requirement) bool {
	for i := 1; i < len(reqs); i++ {
		if reqs[i-1].key >= reqs[i].key {
			return false
		}
	}
	return true
}

// FromLabels returns the set a node with these labels satisfies exactly:
// each key In its one value. Keys are normalised.
func FromLabels(labels map[string]string) Set {
	reqs := make([]Requirement, 0, len(labels))
	for _, k := range slices.Sorted(maps.Keys(labels)) {
		reqs = append(reqs, Requirement{key: Normalize(k), values: []string{labels[k]}})
	}
	return NewSet(reqs...)
}

// FromLabel returns the set a node with the one label key=value satisfies
// exactly: FromLabels of that label, without its map.
func FromLabel(key, value string) Set {
	return Set{reqs: []Requirement{{key: Normalize(key), values: []string{value}}}}
}

// SameKeys reports whether s and o constrain the same keys. It does not
// allocate.
func (s Set) SameKeys(o Set) bool {
	if len(s.reqs) != len(o.reqs) {
		return false
	}
	for i := range s.reqs {
		if s.reqs[i].key != o.reqs[i].key {
			return false
		}
	}
	return true
}

// Validate reports the first requirement of s whose key is not a label key
// ([ValidateKey]) or one of whose values is not a label value
// ([ValidateValue]), wrapping [ErrInvalid]. Sets built by [New] and [Parse]
// are valid; [FromLabels] and the zero [Requirement] do not validate, so a
// set built from them may not be. It does not allocate when s is valid.
func (s Set) Validate() error {
	for _, r := range s.reqs {
		if err := ValidateKey(r.key); err != nil {
			return err
		}
		if err := validateValues(r.key, r.values); err != nil {
			return err
		}
	}
	return nil
}

// Add returns s with each of reqs intersected into the requirement on its
// key. The complexity is O((n+m) log) for m requirements added to n; s
// itself, without allocating, when reqs is empty (a Set is never changed
// in place, so the two may share their requirements).
func (s Set) Add(reqs ...Requirement) Set {
	if len(reqs) == 0 {
		return s
	}
	out := make([]Requirement, len(s.reqs), len(s.reqs)+len(reqs))
	copy(out, s.reqs)
	return Set{reqs: addTo(out, reqs)}
}

// Replace returns s with the requirements on the keys of reqs replaced:
// s.Without(the keys of reqs).Add(reqs...), in one allocation.
func (s Set) Replace(reqs ...Requirement) Set {
	if strictlySorted(reqs) {
		return s.merge(reqs)
	}
	out := make([]Requirement, 0, len(s.reqs)+len(reqs))
	for _, r := range s.reqs {
		if !slices.ContainsFunc(reqs, func(o Requirement) bool { return o.key == r.key }) {
			out = append(out, r)
		}
	}
	if len(out)+len(reqs) == 0 {
		return Set{}
	}
	return Set{reqs: addTo(out, reqs)}
}

// merge is Replace for reqs with strictly increasing keys, in one pass.
func (s Set) merge(reqs []Requirement) Set {
	if len(s.reqs)+len(reqs) == 0 {
		return Set{}
	}
	out := make([]Requirement, 0, len(s.reqs)+len(reqs))
	i := 0
	for _, r := range s.reqs {
		for i < len(reqs) && reqs[i].key < r.key {
			out = append(out, reqs[i])
			i++
		}
		if i < len(reqs) && reqs[i].key == r.key {
			continue // replaced by reqs[i], which the next key or the tail appends
		}
		out = append(out, r)
	}
	return Set{reqs: append(out, reqs[i:]...)}
}

// addTo intersects each of reqs into the sorted requirements out, whose
// capacity must hold them all, and returns the extended slice.
func addTo(out, reqs []Requirement) []Requirement {
	for _, r := range reqs {
		i, found := slices.BinarySearchFunc(out, r.key, func(r Requirement, k string) int { return strings.Compare(r.key, k) })
		if found {
			out[i] = out[i].Intersect(r)
		} else {
			out = slices.Insert(out, i, r)
		}
	}
	return out
}

// Intersect returns the set every node satisfying both s and o satisfies.
func (s Set) Intersect(o Set) Set { return s.Add(o.reqs...) }

// index is the position of key's requirement in s, and whether s has
// one. A short set, as most are (a pod's or a claim's few keys), is
// scanned for an equal key: keys of other lengths, as the well-known ones
// mostly are, are told apart without reading them, where the binary
// search's ordered comparisons read each. A longer one is searched.
func (s Set) index(key string) (int, bool) {
	if len(s.reqs) <= shortSet {
		for i := range s.reqs {
			if s.reqs[i].key == key {
				return i, true
			}
		}
		return 0, false
	}
	return slices.BinarySearchFunc(s.reqs, key, func(r Requirement, k string) int {
		return strings.Compare(r.key, k)
	})
}

// shortSet is the most requirements index scans.
const shortSet = 8

// Has reports whether s constrains key. It does not allocate.
func (s Set) Has(key string) bool {
	_, ok := s.index(key)
	return ok
}

// Get returns the requirement on key, or Exists when s does not constrain
// key. It does not allocate.
func (s Set) Get(key string) Requirement {
	if i, ok := s.index(key); ok {
		return s.reqs[i]
	}
	return Requirement{key: key, complement: true}
}

// Len returns the number of keys s constrains.
func (s Set) Len() int { return len(s.reqs) }

// All yields the requirements of s in key order.
func (s Set) All() iter.Seq[Requirement] { return slices.Values(s.reqs) }

// Keys returns the constrained keys, sorted.
func (s Set) Keys() []string {
	keys := make([]string, len(s.reqs))
	for i, r := range s.reqs {
		keys[i] = r.key
	}
	return keys
}

// Without returns s less the requirements on keys.
func (s Set) Without(keys ...string) Set {
	return Set{reqs: slices.DeleteFunc(slices.Clone(s.reqs), func(r Requirement) bool {
		return slices.Contains(keys, r.key)
	})}
}

// Compatible reports, as Karpenter's Compatible with well-known labels
// allowed undefined, whether a node described by s can satisfy incoming. A
// key of incoming that s does not constrain is accepted when incoming says
// NotIn or DoesNotExist for it or when the key is well-known ([IsWellKnown]);
// shared keys must intersect ([Set.Intersects]). The error is an
// [*IncompatibleError] naming the key and both sides. It does not allocate
// when the sets are compatible.
func (s Set) Compatible(incoming Set) error { return s.CompatibleWith(incoming, IsWellKnown) }

// CompatibleWith is [Set.Compatible] with the keys allowed undefined given
// by allowUndefined instead of [IsWellKnown]: a provider's instance-type
// labels, say. It does not allocate when the sets are compatible.
func (s Set) CompatibleWith(incoming Set, allowUndefined func(key string) bool) error {
	return s.compatible(incoming, allowUndefined)
}

// StrictlyCompatible is [Set.Compatible] with no allowance for undefined
// well-known labels: every positive requirement of incoming must be met by a
// key that s constrains.
func (s Set) StrictlyCompatible(incoming Set) error { return s.compatible(incoming, nil) }

func (s Set) compatible(incoming Set, allow func(string) bool) error {
	for _, in := range incoming.reqs {
		if s.Has(in.key) || in.negative() || (allow != nil && allow(in.key)) {
			continue
		}
		return &IncompatibleError{Key: in.key, Incoming: in, Undefined: true}
	}
	return s.Intersects(incoming)
}

// Intersects reports whether every key both sets constrain has a common
// value; a key where both sides are NotIn or DoesNotExist always passes, as
// both are satisfied by a node without the label. The error is an
// [*IncompatibleError]. It does not allocate when the sets intersect.
func (s Set) Intersects(incoming Set) error {
	i, j := 0, 0
	for i < len(s.reqs) && j < len(incoming.reqs) {
		a, b := s.reqs[i], incoming.reqs[j]
		switch c := strings.Compare(a.key, b.key); {
		case c < 0:
			i++
		case c > 0:
			j++
		default:
			if !a.Intersects(b) && !(a.negative() && b.negative()) {
				return &IncompatibleError{Key: a.key, Existing: a, Incoming: b}
			}
			i, j = i+1, j+1
		}
	}
	return nil
}

// Label is one label key and value.
type Label struct{ Key, Value string }

// Labels returns, sorted by key, a label for every requirement of s that
// allows some value ([Requirement.Any]): the labels a node built from s
// would carry. Such a node satisfies every requirement of s that has a label
// here and every NotIn or DoesNotExist one.
func (s Set) Labels() []Label {
	labels := make([]Label, 0, len(s.reqs))
	for _, r := range s.reqs {
		if v, ok := r.Any(); ok {
			labels = append(labels, Label{r.key, v})
		}
	}
	return labels
}

// Matches reports whether a node with these labels satisfies every
// requirement of s, the way kube-scheduler matches a node selector: an
// absent label satisfies only NotIn and DoesNotExist. The error is an
// [*IncompatibleError] for the first requirement not met.
func (s Set) Matches(labels map[string]string) error {
	if s.Satisfied(labels) {
		return nil
	}
	for _, r := range s.reqs {
		v, ok := labels[r.key]
		if (ok && !r.Has(v)) || (!ok && !r.negative()) {
			return &IncompatibleError{Key: r.key, Incoming: r, Label: v, Present: ok}
		}
	}
	return nil
}

// Satisfied reports whether a node with these labels satisfies every
// requirement of s, as [Set.Matches] does, without allocating.
func (s Set) Satisfied(labels map[string]string) bool {
	for _, r := range s.reqs {
		v, ok := labels[r.key]
		if (ok && !r.Has(v)) || (!ok && !r.negative()) {
			return false
		}
	}
	return true
}

// String formats s as its requirements joined by ", ".
func (s Set) String() string { return s.text(shownValues) }

// Format implements fmt.Formatter: %+v (and %#v) print s as String does
// but with every value of every requirement; any other verb prints String
// as that verb would.
func (s Set) Format(f fmt.State, verb rune) { format(f, verb, s.text) }

func (s Set) text(shown int) string {
	parts := make([]string, len(s.reqs))
	for i, r := range s.reqs {
		parts[i] = r.text(shown)
	}
	return strings.Join(parts, ", ")
}

// IncompatibleError says why a requirement set does not admit another, or a
// node's labels. Error formats the sentence lazily.
type IncompatibleError struct {
	Key       string
	Existing  Requirement // the receiver's requirement on Key, if it has one
	Incoming  Requirement // the requirement that is not met
	Undefined bool        // the receiver does not define Key at all
	Label     string      // for Matches: the node's value for Key
	Present   bool        // for Matches: whether the node has the label
}

func (e *IncompatibleError) Error() string {
	switch {
	case e.Undefined:
		return fmt.Sprintf("label %q does not have known values (required %s)", e.Key, e.Incoming)
	case e.Existing.key == "" && e.Present:
		return fmt.Sprintf("label %s=%q does not satisfy %s", e.Key, e.Label, e.Incoming)
	case e.Existing.key == "":
		return fmt.Sprintf("label %q is missing, required %s", e.Key, e.Incoming)
	}
	return fmt.Sprintf("key %s: %s does not intersect %s", e.Key, e.Incoming, e.Existing)
}
