package requirements

import (
	"errors"
	"fmt"
	"io"
	"iter"
	"math"
	"slices"
	"strconv"
	"strings"
)

// MaxMinValues is the largest minValues a requirement may carry, as in
// Karpenter's NodePool validation.
const MaxMinValues = 50

// ErrInvalid is wrapped by every error this package returns for malformed
// input: a bad operator, key, value count or minValues.
var ErrInvalid = errors.New("invalid requirement")

// FieldError names the part of a requirement, taint or toleration that is
// invalid, so that a caller reading them from a manifest can extend its own
// field path: "key", "operator", "values", "values[i]" or "minValues" from
// [New] and [Requirement.WithMinValues]; "key", "value" or "effect" from
// [Taint.Validate]; "key", "operator", "value" or "effect" from
// [Toleration.Validate]. Err is the cause, without the field, and wraps
// [ErrInvalid]. The errors of those functions wrap a *FieldError
// (errors.As finds it).
type FieldError struct {
	Field string
	Err   error
}

// Error formats "field: cause".
func (e *FieldError) Error() string { return e.Field + ": " + e.Err.Error() }

// Unwrap returns the cause.
func (e *FieldError) Unwrap() error { return e.Err }

// atField returns err, a cause wrapping ErrInvalid, as a *FieldError of
// field.
func atField(field string, err error) error { return &FieldError{Field: field, Err: err} }

// Requirement constrains the values of one label key. It is a possibly
// complemented, sorted set of values with optional inclusive integer bounds,
// plus the minValues flexibility a NodePool may ask for.
//
// The zero Requirement has an empty key and allows no value (DoesNotExist);
// build requirements with [New].
//
// Requirement is a value type; its values are never modified after
// construction, so copies share them safely.
type Requirement struct {
	key        string
	values     []string // sorted, unique
	gte, lte   int64    // inclusive bounds, meaningful when hasGte / hasLte
	minValues  int      // 0: none
	complement bool     // true: every value except values (within the bounds)
	hasGte     bool
	hasLte     bool
}

// New returns the requirement "key op values". The key is normalised
// ([Normalize]); In and NotIn take at least one value, Exists and DoesNotExist
// none, and Gt, Lt, Gte and Lte exactly one integer. Gt N is stored as Gte
// N+1 and Lt N as Lte N-1. New does not retain values.
func New(key string, op Operator, values ...string) (Requirement, error) {
	key = Normalize(key)
	if err := validate(key, op, values); err != nil {
		return Requirement{}, err
	}
	switch op {
	case In:
		return Requirement{key: key, values: sortedUnique(values)}, nil
	case NotIn:
		return Requirement{key: key, complement: true, values: sortedUnique(values)}, nil
	case Exists:
		return Requirement{key: key, complement: true}, nil
	case DoesNotExist:
		return Requirement{key: key}, nil
	}
	n, _ := parseInt(values[0]) // validate checked it parses
	return bound(key, op, n), nil
}

// MustNew is like [New] but panics on invalid input. It is meant for tests and
// hard-coded requirements.
func MustNew(key string, op Operator, values ...string) Requirement {
	r, err := New(key, op, values...)
	if err != nil {
		panic(err)
	}
	return r
}

// bound builds the canonical form of a bounded operator; Gt MaxInt64 and Lt
// MinInt64 allow nothing.
func bound(key string, op Operator, n int64) Requirement {
	r := Requirement{key: key, complement: true}
	switch {
	case op == Gt && n == math.MaxInt64, op == Lt && n == math.MinInt64:
		return Requirement{key: key}
	case op == Gt:
		r.gte, r.hasGte = n+1, true
	case op == Gte:
		r.gte, r.hasGte = n, true
	case op == Lt:
		r.lte, r.hasLte = n-1, true
	default:
		r.lte, r.hasLte = n, true
	}
	return r
}

// validate checks "key op values"; its error wraps a *FieldError and, for
// all but the key's, names the key.
func validate(key string, op Operator, values []string) error {
	if err := ValidateKey(key); err != nil {
		return atField("key", err)
	}
	if err := validateShape(op, values); err != nil {
		return fmt.Errorf("key %q: %w", key, err)
	}
	return nil
}

// validateShape checks the operator and the number and form of values. An
// error holds a copy of values, so that a caller's values can stay on its
// stack.
func validateShape(op Operator, values []string) error {
	switch {
	case op > Lte:
		return atField("operator", fmt.Errorf("%w: unknown operator %d", ErrInvalid, uint8(op)))
	case (op == In || op == NotIn) && len(values) == 0:
		return atField("values", fmt.Errorf("%w: operator %s needs at least one value", ErrInvalid, op))
	case (op == Exists || op == DoesNotExist) && len(values) != 0:
		return atField("values", fmt.Errorf("%w: operator %s takes no values, got %q", ErrInvalid, op, slices.Clone(values)))
	case op.bounded() && len(values) != 1:
		return atField("values", fmt.Errorf("%w: operator %s takes exactly one integer value, got %q", ErrInvalid, op, slices.Clone(values)))
	case op.bounded():
		if _, ok := parseInt(values[0]); !ok {
			return atField("values[0]", fmt.Errorf("%w: operator %s needs an integer value, got %q", ErrInvalid, op, values[0]))
		}
	}
	for i, v := range values {
		if err := ValidateValue(v); err != nil {
			return atField(fmt.Sprintf("values[%d]", i), err)
		}
	}
	return nil
}

func validateValues(key string, values []string) error {
	for _, v := range values {
		if err := ValidateValue(v); err != nil {
			return fmt.Errorf("key %q: %w", key, err)
		}
	}
	return nil
}

// WithMinValues returns r asking for at least n distinct values (1..50) among
// the instance types a NodeClaim keeps; 0 removes the constraint.
func (r Requirement) WithMinValues(n int) (Requirement, error) {
	if n < 0 || n > MaxMinValues {
		return r, fmt.Errorf("key %q: %w", r.key, atField("minValues", fmt.Errorf("%w: %d outside 0..%d", ErrInvalid, n, MaxMinValues)))
	}
	if !r.complement && n > len(r.values) {
		return r, fmt.Errorf("key %q: %w", r.key, atField("minValues", fmt.Errorf("%w: %d exceeds the %d values of operator In", ErrInvalid, n, len(r.values))))
	}
	r.minValues = n
	return r, nil
}

// Key returns the (normalised) label key.
func (r Requirement) Key() string { return r.key }

// MinValues returns the minimum number of distinct values asked for, or 0.
func (r Requirement) MinValues() int { return r.minValues }

// Values returns a sorted copy of the listed values: those allowed for In,
// those excluded for NotIn.
func (r Requirement) Values() []string { return slices.Clone(r.values) }

// All yields the values [Requirement.Values] returns, in order, without
// copying them.
func (r Requirement) All() iter.Seq[string] { return slices.Values(r.values) }

// Bounds returns the inclusive integer bounds and whether each is set.
func (r Requirement) Bounds() (gte int64, hasGte bool, lte int64, hasLte bool) {
	return r.gte, r.hasGte, r.lte, r.hasLte
}

// Complement reports whether r allows every value except the listed ones.
func (r Requirement) Complement() bool { return r.complement }

// base is the operator Karpenter derives from the state: In, NotIn, Exists
// or DoesNotExist, bounds not considered.
func (r Requirement) base() Operator {
	switch {
	case r.complement && len(r.values) > 0:
		return NotIn
	case r.complement:
		return Exists
	case len(r.values) > 0:
		return In
	}
	return DoesNotExist
}

// Operator returns the operator that states r: Gte or Lte for a single
// bound with no excluded values, otherwise In, NotIn, Exists or DoesNotExist
// (bounds, if any, are carried beside it as [Requirement.Bounds] shows).
func (r Requirement) Operator() Operator {
	op := r.base()
	if op == Exists && r.hasGte != r.hasLte {
		if r.hasGte {
			return Gte
		}
		return Lte
	}
	return op
}

// negative reports whether r is satisfied by a node without the label: NotIn
// or DoesNotExist, as Karpenter's compatibility rules read it.
func (r Requirement) negative() bool {
	op := r.base()
	return op == NotIn || op == DoesNotExist
}

// Len returns the number of values r allows: math.MaxInt minus the excluded
// values for a complement, bounds not counted.
func (r Requirement) Len() int {
	if r.complement {
		return math.MaxInt - len(r.values)
	}
	return len(r.values)
}

// Empty reports whether r allows no value at all (DoesNotExist).
func (r Requirement) Empty() bool { return r.Len() == 0 }

// Has reports whether value satisfies r. It does not allocate; the
// complexity is O(log n) in the number of listed values.
func (r Requirement) Has(value string) bool {
	_, listed := slices.BinarySearch(r.values, value)
	return listed != r.complement && r.within(value)
}

// within reports whether value lies in r's bounds; a non-integer never does
// when a bound is set.
func (r Requirement) within(value string) bool {
	if !r.hasGte && !r.hasLte {
		return true
	}
	n, ok := parseInt(value)
	return ok && r.withinInt(n)
}

func (r Requirement) withinInt(n int64) bool {
	return (!r.hasGte || n >= r.gte) && (!r.hasLte || n <= r.lte)
}

// Intersect returns the requirement allowing exactly the values both r and o
// allow, with the larger minValues. The key is r's. Intersect does not modify
// r or o.
func (r Requirement) Intersect(o Requirement) Requirement {
	out := Requirement{key: r.key, complement: r.complement && o.complement, minValues: max(r.minValues, o.minValues)}
	out.gte, out.hasGte = tighter(r.gte, r.hasGte, o.gte, o.hasGte, true)
	out.lte, out.hasLte = tighter(r.lte, r.hasLte, o.lte, o.hasLte, false)
	if out.hasGte && out.hasLte && out.gte > out.lte {
		return Requirement{key: r.key, minValues: out.minValues}
	}
	out.values = out.filter(combine(r, o))
	if !out.complement {
		out.hasGte, out.hasLte, out.gte, out.lte = false, false, 0, 0
	}
	return out
}

// combine merges the value lists of r and o by the rule their complements
// call for.
func combine(r, o Requirement) []string {
	switch {
	case r.complement && o.complement:
		return union(r.values, o.values)
	case r.complement:
		return difference(o.values, r.values)
	case o.complement:
		return difference(r.values, o.values)
	}
	return intersection(r.values, o.values)
}

// filter drops, in place, the values outside out's bounds.
func (r Requirement) filter(values []string) []string {
	if !r.hasGte && !r.hasLte {
		return values
	}
	return slices.DeleteFunc(values, func(v string) bool { return !r.within(v) })
}

// tighter returns the stricter of two optional bounds: the larger lower
// bound when lower is true, else the smaller upper bound.
func tighter(a int64, hasA bool, b int64, hasB bool, lower bool) (int64, bool) {
	switch {
	case !hasA:
		return b, hasB
	case !hasB:
		return a, true
	case lower:
		return max(a, b), true
	}
	return min(a, b), true
}

// Intersects reports whether some value satisfies both r and o, as
// !r.Intersect(o).Empty() would, without allocating.
func (r Requirement) Intersects(o Requirement) bool {
	gte, hasGte := tighter(r.gte, r.hasGte, o.gte, o.hasGte, true)
	lte, hasLte := tighter(r.lte, r.hasLte, o.lte, o.hasLte, false)
	if hasGte && hasLte && gte > lte {
		return false
	}
	if r.complement && o.complement {
		return true
	}
	b := Requirement{complement: true, gte: gte, hasGte: hasGte, lte: lte, hasLte: hasLte}
	if r.complement {
		return anyAllowed(o.values, r.values, b)
	}
	if o.complement {
		return anyAllowed(r.values, o.values, b)
	}
	for _, v := range r.values {
		if _, ok := slices.BinarySearch(o.values, v); ok && b.within(v) {
			return true
		}
	}
	return false
}

// anyAllowed reports whether some value of candidates is not excluded and
// lies within b's bounds.
func anyAllowed(candidates, excluded []string, b Requirement) bool {
	for _, v := range candidates {
		if _, ok := slices.BinarySearch(excluded, v); !ok && b.within(v) {
			return true
		}
	}
	return false
}

// Any returns a deterministic value that satisfies r, and false when r
// allows none: the smallest listed value for In, and for a complement the
// smallest integer at or above the lower bound (or 0) that is neither
// excluded nor above the upper bound. Only non-negative integers are tried,
// since a negative number is not a valid label value; so Lt 0 has none.
func (r Requirement) Any() (string, bool) {
	if !r.complement {
		if len(r.values) == 0 {
			return "", false
		}
		return r.values[0], true
	}
	start := int64(0)
	if r.hasGte {
		start = max(r.gte, 0)
	}
	for n := start; r.withinInt(n); n++ {
		if s := strconv.FormatInt(n, 10); !slices.Contains(r.values, s) {
			return s, true
		}
		if n == math.MaxInt64 {
			break
		}
	}
	return "", false
}

// String formats r for people, as "zone In [a b]" or "cpu Exists >=4";
// past five values it shows the first five and how many others.
func (r Requirement) String() string { return r.text(shownValues) }

// Format implements fmt.Formatter: %+v (and %#v) print r as String does
// but with every value; any other verb prints String as that verb would.
func (r Requirement) Format(f fmt.State, verb rune) { format(f, verb, r.text) }

// format writes the text of a Requirement or Set for verb: every value for
// %+v and %#v, else shownValues of them as the verb writes a string.
func format(f fmt.State, verb rune, text func(shown int) string) {
	if verb == 'v' && (f.Flag('+') || f.Flag('#')) {
		io.WriteString(f, text(math.MaxInt))
		return
	}
	fmt.Fprintf(f, fmt.FormatString(f, verb), text(shownValues))
}

// shownValues is how many values String shows.
const shownValues = 5

// text is String showing at most shown values.
func (r Requirement) text(shown int) string {
	var b strings.Builder
	b.WriteString(r.key)
	b.WriteByte(' ')
	b.WriteString(r.base().String())
	if len(r.values) > 0 {
		writeValues(&b, r.values, shown)
	}
	if r.hasGte {
		fmt.Fprintf(&b, " >=%d", r.gte)
	}
	if r.hasLte {
		fmt.Fprintf(&b, " <=%d", r.lte)
	}
	if r.minValues > 0 {
		fmt.Fprintf(&b, " minValues %d", r.minValues)
	}
	return b.String()
}

func writeValues(b *strings.Builder, values []string, shown int) {
	b.WriteString(" [")
	b.WriteString(strings.Join(values[:min(len(values), shown)], " "))
	if len(values) > shown {
		fmt.Fprintf(b, " and %d others", len(values)-shown)
	}
	b.WriteByte(']')
}
