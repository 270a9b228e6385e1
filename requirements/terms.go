package requirements

import (
	"cmp"
	"errors"
	"fmt"
	"maps"
	"slices"
)

// Expression is one node-selector requirement as written in a manifest: a
// key, an operator, values and an optional minValues. It is the input form
// that [Parse] compiles into a [Set].
type Expression struct {
	Key       string
	Operator  Operator
	Values    []string
	MinValues int
}

// Parse compiles expressions into a Set, intersecting those on the same
// key. Every invalid expression is reported, joined, each naming its index
// and key. Parse does not retain exprs.
func Parse(exprs ...Expression) (Set, error) {
	reqs := make([]Requirement, 0, len(exprs))
	var errs []error
	for i, e := range exprs {
		r, err := e.compile()
		if err != nil {
			errs = append(errs, fmt.Errorf("expression %d: %w", i, err))
			continue
		}
		reqs = append(reqs, r)
	}
	return NewSet(reqs...), errors.Join(errs...)
}

// MustParse is like [Parse] but panics on invalid input; for tests.
func MustParse(exprs ...Expression) Set {
	s, err := Parse(exprs...)
	if err != nil {
		panic(err)
	}
	return s
}

func (e Expression) compile() (Requirement, error) {
	r, err := New(e.Key, e.Operator, e.Values...)
	if err != nil || e.MinValues == 0 {
		return r, err
	}
	return r.WithMinValues(e.MinValues)
}

// Preference is a weighted preferred node-affinity term.
type Preference struct {
	Weight int32 // 1..100
	Terms  Set
}

// NodeAffinity is the node-side constraint of a pod: its nodeSelector ANDed
// with any one of its required node-affinity terms, and its weighted
// preferences. The zero NodeAffinity admits every node.
type NodeAffinity struct {
	// Required are the alternatives (ORed); each already includes the
	// nodeSelector. Empty means the nodeSelector alone, in Selector.
	Required []Set
	// Selector is the nodeSelector as a Set.
	Selector Set
	// Preferred are sorted by weight, heaviest first; ties keep input order.
	Preferred []Preference
	// none is set when every required term contradicts itself or the
	// nodeSelector: no node can satisfy the pod.
	none bool
}

// NewNodeAffinity compiles a pod's nodeSelector, required terms (ORed) and
// preferred terms. A required term without expressions matches no node, as
// in Kubernetes (component-helpers' nodeaffinity): it is left out, and a pod
// whose required terms are all empty matches none. Errors name the term and
// expression by their index in required and preferred.
func NewNodeAffinity(nodeSelector map[string]string, required [][]Expression, preferred []WeightedTerm) (NodeAffinity, error) {
	sel, err := selectorSet(nodeSelector)
	if err != nil {
		return NodeAffinity{}, err
	}
	a := NodeAffinity{Selector: sel}
	var errs []error
	for i, term := range required {
		if len(term) == 0 {
			continue
		}
		s, err := Parse(term...)
		errs = appendErr(errs, err, "required term %d", i)
		if merged := sel.Intersect(s); !Contradicts(merged, append(exprSets(term), sel)...) {
			a.Required = append(a.Required, merged)
		}
	}
	a.none = len(required) > 0 && len(a.Required) == 0
	for i, p := range preferred {
		s, err := Parse(p.Expressions...)
		errs = appendErr(errs, err, "preferred term %d", i)
		errs = appendErr(errs, ValidateWeight(p.Weight), "preferred term %d", i)
		a.Preferred = append(a.Preferred, Preference{Weight: p.Weight, Terms: s})
	}
	slices.SortStableFunc(a.Preferred, func(x, y Preference) int { return cmp.Compare(y.Weight, x.Weight) })
	return a, errors.Join(errs...)
}

// WeightedTerm is a preferred node-affinity term as written in a manifest.
type WeightedTerm struct {
	Weight      int32
	Expressions []Expression
}

func selectorSet(nodeSelector map[string]string) (Set, error) {
	exprs := make([]Expression, 0, len(nodeSelector))
	for _, k := range slices.Sorted(maps.Keys(nodeSelector)) {
		exprs = append(exprs, Expression{Key: k, Operator: In, Values: []string{nodeSelector[k]}})
	}
	s, err := Parse(exprs...)
	if err != nil {
		return s, fmt.Errorf("nodeSelector: %w", err)
	}
	return s, nil
}

// ValidateWeight reports whether w is a preferred term's weight, 1..100,
// wrapping [ErrInvalid] when it is not.
func ValidateWeight(w int32) error {
	if w < 1 || w > 100 {
		return fmt.Errorf("%w: weight %d outside 1..100", ErrInvalid, w)
	}
	return nil
}

func appendErr(errs []error, err error, format string, args ...any) []error {
	if err == nil {
		return errs
	}
	return append(errs, fmt.Errorf(format+": %w", append(args, err)...))
}

// Validate reports the first invalid part of a: a set of Selector,
// Required or Preferred that does not [Set.Validate], or a preference
// weight outside 1..100. Affinities built by [NewNodeAffinity] are valid.
// It does not allocate when a is valid.
func (a NodeAffinity) Validate() error {
	if err := a.Selector.Validate(); err != nil {
		return fmt.Errorf("nodeSelector: %w", err)
	}
	for i, s := range a.Required {
		if err := s.Validate(); err != nil {
			return fmt.Errorf("required term %d: %w", i, err)
		}
	}
	for i, p := range a.Preferred {
		if err := errors.Join(p.Terms.Validate(), ValidateWeight(p.Weight)); err != nil {
			return fmt.Errorf("preferred term %d: %w", i, err)
		}
	}
	return nil
}

// Alternatives returns the sets a node may satisfy, any one sufficing: the
// required terms, or the nodeSelector alone when there are none. Terms that
// are empty or contradict themselves or the nodeSelector ([Contradicts]) are
// left out by [NewNodeAffinity]; when all are, Alternatives is empty and no
// node matches.
func (a NodeAffinity) Alternatives() []Set {
	if a.none {
		return nil
	}
	if len(a.Required) == 0 {
		return []Set{a.Selector}
	}
	return a.Required
}

// Matches reports whether a node with these labels satisfies the required
// part of a: the nodeSelector and at least one required term.
func (a NodeAffinity) Matches(labels map[string]string) error {
	if a.none {
		return fmt.Errorf("%w: every required node-affinity term contradicts itself or the nodeSelector", ErrInvalid)
	}
	var first error
	for _, s := range a.Alternatives() {
		err := s.Matches(labels)
		if err == nil {
			return nil
		}
		first = cmp.Or(first, err)
	}
	return first
}

// Contradicts reports whether merged, the intersection of parts, has lost a
// requirement that one of the parts asks for: a key some part requires a
// value for (In, Exists, a bound) on which merged allows nothing. The
// algebra writes such an intersection as DoesNotExist, which a node
// without the label would satisfy; Kubernetes matches no node at all.
func Contradicts(merged Set, parts ...Set) bool {
	for r := range merged.All() {
		if r.Empty() && requiresValue(r.Key(), parts) {
			return true
		}
	}
	return false
}

func requiresValue(key string, parts []Set) bool {
	for _, p := range parts {
		if p.Has(key) && !p.Get(key).negative() {
			return true
		}
	}
	return false
}

func exprSets(exprs []Expression) []Set {
	out := make([]Set, 0, len(exprs))
	for _, e := range exprs {
		if r, err := e.compile(); err == nil {
			out = append(out, NewSet(r))
		}
	}
	return out
}
