package requirements

import (
	"bytes"
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"testing"

	"github.com/leanovate/gopter"
	"github.com/leanovate/gopter/gen"
	"github.com/leanovate/gopter/prop"
	"github.com/stretchr/testify/assert"
)

// The generators draw requirements over a small universe so that random
// pairs often overlap: a few strings and integers as values, bounds 0..4.
var (
	propValues = []string{"a", "b", "0", "1", "2", "3", "10", "007"}
	// probeValues are the values Has is checked on: the universe plus
	// integers just outside the bounds and values no requirement lists.
	probeValues = append(slices.Clone(propValues), "4", "5", "6", "11", "-1", "+3", "x", "", "9223372036854775807")
	setKeys     = []string{"k1", "k2", LabelZone}
)

func propParameters() *gopter.TestParameters {
	p := gopter.DefaultTestParametersWithSeed(20240601)
	p.MinSuccessfulTests = 1000
	return p
}

// atom builds one requirement from drawn numbers: an operator, a bitmask
// over propValues, a bound and a minValues.
func atom(key string, op Operator, mask, n, minValues int) Requirement {
	var values []string
	for i, v := range propValues {
		if mask&(1<<i) != 0 {
			values = append(values, v)
		}
	}
	switch {
	case op == Exists || op == DoesNotExist:
		values = nil
	case op.bounded():
		values = []string{strconv.Itoa(n)}
	case len(values) == 0:
		values = []string{propValues[n%len(propValues)]}
	}
	r := MustNew(key, op, values...)
	if op == In || op == DoesNotExist {
		minValues = min(minValues, len(values))
	}
	r, err := r.WithMinValues(minValues)
	if err != nil {
		panic(err)
	}
	return r
}

func genAtom() gopter.Gen {
	return gopter.CombineGens(
		gen.IntRange(0, int(Lte)),
		gen.IntRange(0, 1<<len(propValues)-1),
		gen.IntRange(0, 4),
		gen.IntRange(0, 2),
	).Map(func(v []any) Requirement {
		return atom("k", Operator(v[0].(int)), v[1].(int), v[2].(int), v[3].(int))
	})
}

// genReq draws the intersection of one to three atoms on key "k", so that
// composite states (NotIn with bounds, two bounds) occur.
func genReq() gopter.Gen {
	return gopter.CombineGens(genAtom(), genAtom(), genAtom(), gen.IntRange(1, 3)).Map(func(v []any) Requirement {
		r := v[0].(Requirement)
		for i := 1; i < v[3].(int); i++ {
			r = r.Intersect(v[i].(Requirement))
		}
		return r
	})
}

// genSet draws a set of zero to four requirements over setKeys.
func genSet() gopter.Gen {
	return genKeyed().Map(func(reqs []Requirement) Set { return NewSet(reqs...) })
}

// genKeyed draws zero to four requirements over setKeys, keys repeating.
func genKeyed() gopter.Gen {
	keyed := gopter.CombineGens(gen.IntRange(0, len(setKeys)-1), genReq()).Map(func(v []any) Requirement {
		r := v[1].(Requirement)
		r.key = setKeys[v[0].(int)]
		return r
	})
	return gopter.CombineGens(gen.IntRange(0, 4), keyed, keyed, keyed, keyed).Map(func(v []any) []Requirement {
		reqs := make([]Requirement, 0, 4)
		for i := 0; i < v[0].(int); i++ {
			reqs = append(reqs, v[i+1].(Requirement))
		}
		return reqs
	})
}

func clone(r Requirement) Requirement {
	r.values = slices.Clone(r.values)
	return r
}

func TestPropertiesRequirement(t *testing.T) {
	props := gopter.NewProperties(propParameters())
	props.Property("Intersect is commutative", prop.ForAll(func(a, b Requirement) bool {
		return same(a.Intersect(b), b.Intersect(a))
	}, genReq(), genReq()))
	props.Property("Intersect is associative", prop.ForAll(func(a, b, c Requirement) bool {
		return same(a.Intersect(b.Intersect(c)), a.Intersect(b).Intersect(c))
	}, genReq(), genReq(), genReq()))
	props.Property("Intersect is idempotent", prop.ForAll(func(a Requirement) bool {
		return same(a.Intersect(a), a)
	}, genReq()))
	props.Property("Intersects(a, b) == !a.Intersect(b).Empty()", prop.ForAll(func(a, b Requirement) bool {
		return a.Intersects(b) == !a.Intersect(b).Empty() && a.Intersects(b) == b.Intersects(a)
	}, genReq(), genReq()))
	props.Property("Has agrees with Intersect", prop.ForAll(func(a, b Requirement) bool {
		ab := a.Intersect(b)
		for _, v := range probeValues {
			if ab.Has(v) != (a.Has(v) && b.Has(v)) {
				return false
			}
		}
		return true
	}, genReq(), genReq()))
	props.Property("Intersects is exact unless both are complements", prop.ForAll(func(a, b Requirement) bool {
		if a.Complement() && b.Complement() {
			return true
		}
		found := false
		for _, v := range append(a.Values(), b.Values()...) {
			found = found || (a.Has(v) && b.Has(v))
		}
		return a.Intersects(b) == found
	}, genReq(), genReq()))
	props.Property("Any satisfies the requirement", prop.ForAll(func(a Requirement) bool {
		v, ok := a.Any()
		return (!ok && v == "") || (ok && a.Has(v))
	}, genReq()))
	props.Property("Intersect does not modify its operands", prop.ForAll(func(a, b Requirement) bool {
		a0, b0 := clone(a), clone(b)
		_ = a.Intersect(b)
		_ = b.Intersect(a)
		_ = a.Intersects(b)
		return same(a, a0) && same(b, b0)
	}, genReq(), genReq()))
	props.Property("New does not modify its values", prop.ForAll(func(op int, vals []string) bool {
		before := slices.Clone(vals)
		_, _ = New("k", Operator(op), vals...)
		return slices.Equal(before, vals)
	}, gen.IntRange(0, int(Lte)), gen.SliceOf(gen.OneConstOf("b", "a", "b", "3", "1", "x y"))))
	props.TestingRun(t)
}

// bruteIntersects restates Set.Intersects key by key, without the merge.
func bruteIntersects(s, o Set) bool {
	negative := func(r Requirement) bool { op := r.Operator(); return op == NotIn || op == DoesNotExist }
	for _, k := range s.Keys() {
		if !o.Has(k) {
			continue
		}
		a, b := s.Get(k), o.Get(k)
		if a.Intersect(b).Empty() && !(negative(a) && negative(b)) {
			return false
		}
	}
	return true
}

func bruteCompatible(s, o Set, wellKnown bool) bool {
	for _, k := range o.Keys() {
		op := o.Get(k).Operator()
		if !s.Has(k) && op != NotIn && op != DoesNotExist && !(wellKnown && IsWellKnown(k)) {
			return false
		}
	}
	return bruteIntersects(s, o)
}

func TestPropertiesSet(t *testing.T) {
	props := gopter.NewProperties(propParameters())
	props.Property("AppendBinary tells sets apart exactly", prop.ForAll(func(a, b Set) bool {
		ka, _ := a.AppendBinary(nil)
		kb, _ := b.AppendBinary(nil)
		return bytes.Equal(ka, kb) == sameSet(a, b)
	}, genSet(), genSet()))
	props.Property("AppendBinary appends", prop.ForAll(func(a Set) bool {
		k, _ := a.AppendBinary(nil)
		kk, _ := a.AppendBinary([]byte("prefix"))
		return bytes.Equal(kk, append([]byte("prefix"), k...))
	}, genSet()))
	props.Property("Replace is Without the keys, then Add", prop.ForAll(func(s Set, reqs []Requirement) bool {
		keys := make([]string, 0, len(reqs))
		for _, r := range reqs {
			keys = append(keys, r.key)
		}
		return reflect.DeepEqual(s.Replace(reqs...), s.Without(keys...).Add(reqs...))
	}, genSet(), genKeyed()))
	props.Property("Replace by requirements s has is s", prop.ForAll(func(s Set, pick []bool) bool {
		var reqs []Requirement
		for i, r := range s.reqs {
			if i < len(pick) && pick[i] {
				reqs = append(reqs, r)
			}
		}
		return reflect.DeepEqual(s.Replace(reqs...), s)
	}, genSet(), gen.SliceOf(gen.Bool())))
	props.Property("Replace by keys in order (its merge) is Without the keys, then Add", prop.ForAll(func(s Set, reqs []Requirement) bool {
		sorted := NewSet(reqs...).reqs // strictly increasing keys
		keys := make([]string, 0, len(sorted))
		for _, r := range sorted {
			keys = append(keys, r.key)
		}
		return reflect.DeepEqual(s.Replace(sorted...), s.Without(keys...).Add(sorted...))
	}, genSet(), genKeyed()))
	props.Property("NewSet is Add one requirement at a time, in order", prop.ForAll(func(reqs []Requirement) bool {
		var want Set
		for _, r := range reqs {
			want = want.Add(r)
		}
		return reflect.DeepEqual(NewSet(reqs...), want) && reflect.DeepEqual(Set{}.Add(reqs...), want)
	}, genKeyed()))
	props.Property("Intersects agrees with a brute-force restatement", prop.ForAll(func(s, o Set) bool {
		return (s.Intersects(o) == nil) == bruteIntersects(s, o)
	}, genSet(), genSet()))
	props.Property("Compatible agrees with a brute-force restatement", prop.ForAll(func(s, o Set) bool {
		return (s.Compatible(o) == nil) == bruteCompatible(s, o, true) &&
			(s.StrictlyCompatible(o) == nil) == bruteCompatible(s, o, false)
	}, genSet(), genSet()))
	props.Property("Intersect is commutative per key", prop.ForAll(func(s, o Set) bool {
		st, ts := s.Intersect(o), o.Intersect(s)
		if !slices.Equal(st.Keys(), ts.Keys()) {
			return false
		}
		for _, k := range st.Keys() {
			if !same(st.Get(k), ts.Get(k)) {
				return false
			}
		}
		return true
	}, genSet(), genSet()))
	props.Property("FromLabels matches exactly its labels", prop.ForAll(func(s Set) bool {
		labels := map[string]string{}
		for _, l := range s.Labels() {
			labels[l.Key] = l.Value
		}
		return FromLabels(labels).Matches(labels) == nil && len(FromLabels(labels).Keys()) == len(labels)
	}, genSet()))
	covered := 0
	props.Property("a node labelled from Labels satisfies the set", prop.ForAll(func(s Set) bool {
		labels := map[string]string{}
		for _, l := range s.Labels() {
			labels[l.Key] = l.Value
		}
		for r := range s.All() {
			if _, ok := labels[r.Key()]; !ok && !r.negative() {
				return true // Labels does not cover r: nothing to check
			}
		}
		covered++
		return s.Matches(labels) == nil
	}, genSet()))
	props.TestingRun(t)
	// The property above must not hold vacuously.
	assert.Greater(t, covered, 500)
}

// sameSet reports whether a and b hold the same requirements, field by
// field (values compared by content).
func sameSet(a, b Set) bool {
	return slices.EqualFunc(a.reqs, b.reqs, func(x, y Requirement) bool {
		return x.key == y.key && x.complement == y.complement && slices.Equal(x.values, y.values) &&
			x.hasGte == y.hasGte && x.hasLte == y.hasLte && (!x.hasGte || x.gte == y.gte) && (!x.hasLte || x.lte == y.lte) &&
			x.minValues == y.minValues
	})
}

// TestAppendBinaryLongLists: value lists that agree but for their last
// value, past what String shows, encode apart, as do the operators and
// bounds String spells alike.
func TestAppendBinaryLongLists(t *testing.T) {
	key := func(r Requirement) string { b, _ := NewSet(r).AppendBinary(nil); return string(b) }
	long := []string{"a", "b", "c", "d", "e", "f", "g"}
	for i := range long {
		other := slices.Clone(long)
		other[i] = "z" + other[i]
		assert.NotEqual(t, key(MustNew("k", In, long...)), key(MustNew("k", In, other...)), "value %d", i)
		assert.NotEqual(t, key(MustNew("k", NotIn, long...)), key(MustNew("k", NotIn, other...)), "value %d", i)
	}
	assert.NotEqual(t, key(MustNew("k", In, long...)), key(MustNew("k", NotIn, long...)))
	assert.NotEqual(t, key(MustNew("k", Gt, "3")), key(MustNew("k", Lt, "3")))
	assert.NotEqual(t, key(MustNew("k", Exists)), key(MustNew("k", DoesNotExist)))
	five, _ := MustNew("k", In, long[:5]...).WithMinValues(2)
	assert.NotEqual(t, key(MustNew("k", In, long[:5]...)), key(five))
	assert.Equal(t, key(MustNew("k", In, "b", "a", "b")), key(MustNew("k", In, "a", "b")))
}

// TestFormatEveryValue: %+v prints every value, String and the other
// verbs five of them, also inside a struct printed with %+v.
func TestFormatEveryValue(t *testing.T) {
	r := MustNew("k", In, "a", "b", "c", "d", "e", "f", "g")
	s := NewSet(r, MustNew("j", Exists))
	assert.Equal(t, "k In [a b c d e and 2 others]", r.String())
	assert.Equal(t, r.String(), fmt.Sprintf("%v", r))
	assert.Equal(t, strconv.Quote(r.String()), fmt.Sprintf("%q", r))
	assert.Equal(t, "k In [a b c d e f g]", fmt.Sprintf("%+v", r))
	assert.Equal(t, "k In [a b c d e f g]", fmt.Sprintf("%#v", r))
	assert.Equal(t, s.String(), fmt.Sprintf("%s", s))
	assert.Equal(t, "j Exists, k In [a b c d e f g]", fmt.Sprintf("%+v", s))
	assert.Equal(t, "{S:j Exists, k In [a b c d e f g]}", fmt.Sprintf("%+v", struct{ S Set }{s}))
}
