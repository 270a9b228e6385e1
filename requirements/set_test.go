package requirements

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// compatFixtures are Karpenter's requirements_test.go sets, on the
// well-known zone key; "U" is the unconstrained set.
func compatFixtures() map[string]Set {
	sets := map[string]Set{"U": {}}
	for name, r := range karpenterFixtures(LabelZone) {
		sets[name] = NewSet(r)
	}
	return sets
}

var compatOrder = append([]string{"U"}, karpenterOrder...)

// TestCompatibleKarpenterTable ports Karpenter's "should be compatible with
// well-known v1 labels undefined" table: cell (row, col) says whether
// row.Compatible(col) succeeds.
func TestCompatibleKarpenterTable(t *testing.T) {
	table := []string{
		"YYYYYYYYYYYYYYY", // U
		"YYnYYYYYYYYYYYY", // E
		"YnYnnnYnnnYnnnn", // D
		"YYnYnYnnnnYnnnn", // A
		"YYnnYYYnnnYnnnn", // B
		"YYnYYYYnnnYnnnn", // AB
		"YYYnYYYYYYYYYYY", // !A
		"YYnnnnYYnYnnnnY", // 1
		"YYnnnnYnYYYYnnn", // 9
		"YYnnnnYYYYYYnnY", // 19
		"YYYYYYYnYYYYYYY", // !12
		"YYnnnnYnYYYYYnY", // >1
		"YYnnnnYnnnYYYnn", // >9
		"YYnnnnYnnnYnnYY", // <1
		"YYnnnnYYnYYYnYY", // <9
	}
	checkCompatTable(t, table, Set.Compatible)
}

// TestStrictlyCompatibleKarpenterTable ports Karpenter's "should be strictly
// compatible" table: only an unconstrained receiver differs.
func TestStrictlyCompatibleKarpenterTable(t *testing.T) {
	table := []string{
		"YnYnnnYnnnYnnnn", // U
		"YYnYYYYYYYYYYYY", // E
		"YnYnnnYnnnYnnnn", // D
		"YYnYnYnnnnYnnnn", // A
		"YYnnYYYnnnYnnnn", // B
		"YYnYYYYnnnYnnnn", // AB
		"YYYnYYYYYYYYYYY", // !A
		"YYnnnnYYnYnnnnY", // 1
		"YYnnnnYnYYYYnnn", // 9
		"YYnnnnYYYYYYnnY", // 19
		"YYYYYYYnYYYYYYY", // !12
		"YYnnnnYnYYYYYnY", // >1
		"YYnnnnYnnnYYYnn", // >9
		"YYnnnnYnnnYnnYY", // <1
		"YYnnnnYYnYYYnYY", // <9
	}
	checkCompatTable(t, table, Set.StrictlyCompatible)
}

func checkCompatTable(t *testing.T, table []string, compatible func(Set, Set) error) {
	t.Helper()
	sets := compatFixtures()
	require.Len(t, table, len(compatOrder))
	for i, row := range compatOrder {
		for j, col := range compatOrder {
			err := compatible(sets[row], sets[col])
			if table[i][j] == 'Y' {
				assert.NoError(t, err, "%s vs %s", row, col)
				continue
			}
			var ie *IncompatibleError
			if assert.ErrorAs(t, err, &ie, "%s vs %s", row, col) {
				assert.Equal(t, LabelZone, ie.Key)
			}
		}
	}
}

func TestCompatibleCustomLabel(t *testing.T) {
	node := MustParse(Expression{Key: "team", Operator: In, Values: []string{"a"}})
	tests := []struct {
		name     string
		s        Set
		incoming Set
		ok       bool
		inErr    string
	}{
		{"undefined custom In", Set{}, NewSet(MustNew("deployment", Exists)), false, `label "deployment" does not have known values`},
		{"undefined custom NotIn", Set{}, NewSet(MustNew("deployment", NotIn, "x")), true, ""},
		{"undefined custom DoesNotExist", Set{}, NewSet(MustNew("deployment", DoesNotExist)), true, ""},
		{"undefined custom Gt", Set{}, NewSet(MustNew("deployment", Gt, "1")), false, "does not have known values"},
		{"defined and intersecting", node, NewSet(MustNew("team", In, "a", "b")), true, ""},
		{"defined and disjoint", node, NewSet(MustNew("team", In, "b")), false, "does not intersect"},
		{"undefined well-known AWS label", node, NewSet(MustNew(LabelInstanceFamily, In, "m5")), true, ""},
		{"hostname is not well-known", node, NewSet(MustNew(LabelHostname, In, "h")), false, LabelHostname},
		{"first undefined key reported", Set{}, NewSet(MustNew("b", Exists), MustNew("a", Exists)), false, `"a"`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.s.Compatible(tc.incoming)
			if tc.ok {
				assert.NoError(t, err)
				return
			}
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.inErr)
			var ie *IncompatibleError
			require.True(t, errors.As(err, &ie))
		})
	}
	_, err := New(LabelInstanceFamily, In, "m5")
	require.NoError(t, err)
	err = Set{}.StrictlyCompatible(NewSet(MustNew(LabelInstanceFamily, In, "m5")))
	var ie *IncompatibleError
	require.ErrorAs(t, err, &ie)
	assert.True(t, ie.Undefined)
}

func TestSetAddGetHas(t *testing.T) {
	a := MustNew("zone", In, "a", "b")
	s := NewSet(a, MustNew("arch", In, "amd64"), MustNew("zone", NotIn, "b"))
	assert.Equal(t, []string{"arch", "zone"}, s.Keys())
	assert.Equal(t, 2, s.Len())
	assert.True(t, s.Has("zone"))
	assert.False(t, s.Has("os"))
	assertSame(t, MustNew("zone", In, "a"), s.Get("zone"))
	assertSame(t, MustNew("os", Exists), s.Get("os"))

	s2 := s.Add(MustNew("os", In, "linux"), MustNew("zone", In, "a", "c"))
	assert.Equal(t, []string{"arch", "os", "zone"}, s2.Keys())
	assert.Equal(t, []string{"arch", "zone"}, s.Keys(), "Add modified its receiver")
	assertSame(t, MustNew("zone", In, "a"), s2.Get("zone"))
	assertSame(t, MustNew("zone", In, "a", "b"), a, "NewSet modified its argument")

	var got []string
	for r := range s2.All() {
		got = append(got, r.Key())
	}
	assert.Equal(t, []string{"arch", "os", "zone"}, got)

	var zero Set
	assert.Equal(t, 0, zero.Len())
	assert.NoError(t, zero.Matches(nil))
	assert.Empty(t, zero.Keys())
	assert.Equal(t, "", zero.String())
}

func TestSetIntersect(t *testing.T) {
	a := NewSet(MustNew("zone", In, "a", "b"), MustNew("arch", In, "amd64"))
	b := NewSet(MustNew("zone", In, "b", "c"), MustNew("os", In, "linux"))
	got := a.Intersect(b)
	assert.Equal(t, "arch In [amd64], os In [linux], zone In [b]", got.String())
	assert.Equal(t, "arch In [amd64], zone In [a b]", a.String())
	assert.Equal(t, "os In [linux], zone In [b c]", b.String())
	assert.Equal(t, got.String(), b.Intersect(a).String())
}

func TestSetWithout(t *testing.T) {
	s := NewSet(MustNew("a", Exists), MustNew("b", Exists), MustNew("c", Exists))
	assert.Equal(t, []string{"b"}, s.Without("a", "c", "zz").Keys())
	assert.Equal(t, []string{"a", "b", "c"}, s.Keys())
	assert.Equal(t, []string{"a", "b", "c"}, s.Without().Keys())
}

func TestSetIntersects(t *testing.T) {
	tests := []struct {
		name string
		a, b Set
		ok   bool
	}{
		{"disjoint keys", NewSet(MustNew("a", In, "1")), NewSet(MustNew("b", In, "2")), true},
		{"shared key intersecting", NewSet(MustNew("a", In, "1", "2")), NewSet(MustNew("a", In, "2")), true},
		{"shared key disjoint", NewSet(MustNew("a", In, "1")), NewSet(MustNew("a", In, "2")), false},
		{"both negative", NewSet(MustNew("a", DoesNotExist)), NewSet(MustNew("a", NotIn, "1")), true},
		{"negative against In", NewSet(MustNew("a", DoesNotExist)), NewSet(MustNew("a", In, "1")), false},
		{"later key fails", NewSet(MustNew("a", Exists), MustNew("c", In, "1")), NewSet(MustNew("b", Exists), MustNew("c", In, "2")), false},
		{"bounds", NewSet(MustNew("cpu", Gt, "4")), NewSet(MustNew("cpu", In, "2", "8")), true},
		{"bounds disjoint", NewSet(MustNew("cpu", Gt, "4")), NewSet(MustNew("cpu", Lt, "3")), false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.a.Intersects(tc.b)
			if tc.ok {
				assert.NoError(t, err)
				return
			}
			var ie *IncompatibleError
			require.ErrorAs(t, err, &ie)
			assert.Contains(t, err.Error(), "does not intersect")
			assert.NotEmpty(t, ie.Existing.Key())
		})
	}
}

func TestSetMatches(t *testing.T) {
	s := MustParse(
		Expression{Key: "zone", Operator: In, Values: []string{"a", "b"}},
		Expression{Key: "spot", Operator: DoesNotExist},
		Expression{Key: "team", Operator: NotIn, Values: []string{"x"}},
		Expression{Key: "cpu", Operator: Gt, Values: []string{"4"}},
	)
	tests := []struct {
		name   string
		labels map[string]string
		inErr  string
	}{
		{"all met", map[string]string{"zone": "a", "cpu": "8"}, ""},
		{"NotIn met by other value", map[string]string{"zone": "b", "cpu": "5", "team": "y"}, ""},
		{"In not met", map[string]string{"zone": "c", "cpu": "8"}, `label zone="c" does not satisfy zone In [a b]`},
		{"missing In", map[string]string{"cpu": "8"}, `label "zone" is missing`},
		{"DoesNotExist present", map[string]string{"zone": "a", "cpu": "8", "spot": ""}, `label spot=""`},
		{"NotIn excluded", map[string]string{"zone": "a", "cpu": "8", "team": "x"}, `team="x"`},
		{"Gt too small", map[string]string{"zone": "a", "cpu": "4"}, `cpu="4"`},
		{"Gt missing", map[string]string{"zone": "a"}, `label "cpu" is missing`},
		{"Gt non-integer", map[string]string{"zone": "a", "cpu": "lots"}, `cpu="lots"`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := s.Matches(tc.labels)
			if tc.inErr == "" {
				assert.NoError(t, err)
				return
			}
			var ie *IncompatibleError
			require.ErrorAs(t, err, &ie)
			assert.Contains(t, err.Error(), tc.inErr)
		})
	}
}

func TestSetLabels(t *testing.T) {
	s := NewSet(
		MustNew("zone", In, "b", "a"),
		MustNew("gone", DoesNotExist),
		MustNew("team", NotIn, "0"),
		MustNew("cpu", Gt, "4"),
		MustNew("neg", Lt, "0"),
	)
	want := []Label{{"cpu", "5"}, {"team", "1"}, {"zone", "a"}}
	assert.Equal(t, want, s.Labels())
	labels := map[string]string{}
	for _, l := range s.Labels() {
		labels[l.Key] = l.Value
	}
	// Lt 0 gets no label, so only it is unmet.
	err := s.Matches(labels)
	require.Error(t, err)
	assert.Contains(t, err.Error(), `"neg"`)
	assert.NoError(t, s.Without("neg").Matches(labels))
}

func TestFromLabels(t *testing.T) {
	labels := map[string]string{
		"beta.kubernetes.io/arch": "amd64",
		LabelZone:                 "a",
		"team":                    "",
	}
	s := FromLabels(labels)
	assert.Equal(t, []string{LabelArch, "team", LabelZone}, s.Keys())
	assertSame(t, MustNew(LabelArch, In, "amd64"), s.Get(LabelArch))
	assert.True(t, s.Get("team").Has(""))
	assert.Len(t, labels, 3, "FromLabels modified its input")
	assert.NoError(t, s.Matches(map[string]string{LabelArch: "amd64", LabelZone: "a", "team": ""}))
	// A beta key and its stable key with different values leave nothing.
	clash := FromLabels(map[string]string{"failure-domain.beta.kubernetes.io/zone": "a", LabelZone: "b"})
	assert.True(t, clash.Get(LabelZone).Empty())
	assert.Equal(t, 0, FromLabels(nil).Len())
}

func TestNormalizedKeysInSets(t *testing.T) {
	s := NewSet(MustNew("failure-domain.beta.kubernetes.io/zone", In, "test"))
	assert.False(t, s.Has("failure-domain.beta.kubernetes.io/zone"))
	assert.True(t, s.Get(LabelZone).Has("test"))
}

func TestSetString(t *testing.T) {
	s := NewSet(
		MustNew("exists", Exists), MustNew("doesNotExist", DoesNotExist), MustNew("inA", In, "A"),
		MustNew("inB", In, "B"), MustNew("inAB", In, "A", "B"), MustNew("notInA", NotIn, "A"),
		MustNew("in1", In, "1"), MustNew("in9", In, "9"), MustNew("in19", In, "1", "9"),
		MustNew("notIn12", NotIn, "1", "2"), MustNew("greaterThan1", Gt, "1"), MustNew("greaterThan9", Gt, "9"),
		MustNew("lessThan1", Lt, "1"), MustNew("lessThan9", Lt, "9"),
	)
	want := "doesNotExist DoesNotExist, exists Exists, greaterThan1 Exists >=2, greaterThan9 Exists >=10, " +
		"in1 In [1], in19 In [1 9], in9 In [9], inA In [A], inAB In [A B], inB In [B], lessThan1 Exists <=0, " +
		"lessThan9 Exists <=8, notIn12 NotIn [1 2], notInA NotIn [A]"
	assert.Equal(t, want, s.String())
	assert.True(t, slices.IsSorted(s.Keys()))
	assert.True(t, strings.HasPrefix(s.String(), "doesNotExist"))
}

func TestSetValidate(t *testing.T) {
	valid := []Set{{}, MustParse(Expression{Key: "a", Operator: In, Values: []string{"x", "y"}}),
		FromLabels(map[string]string{"a": "b", "example.com/c": ""}), NewSet(MustNew("k", Gt, "5"))}
	for _, s := range valid {
		assert.NoError(t, s.Validate(), s.String())
	}
	invalid := []Set{FromLabels(map[string]string{"a": "b c"}), FromLabels(map[string]string{"a b": "c"}),
		NewSet(Requirement{}), FromLabels(map[string]string{"rack": `"a:b"`})}
	for _, s := range invalid {
		assert.ErrorIs(t, s.Validate(), ErrInvalid, s.String())
	}
}

// TestSetGetShortAndLong: Has and Get find every key of sets up to
// shortSet long, scanned, and longer, searched, and no other key (one
// that sorts between two, before the first or after the last, or differs
// only in length).
func TestSetGetShortAndLong(t *testing.T) {
	for _, n := range []int{0, 1, 2, shortSet - 1, shortSet, shortSet + 1, 3 * shortSet} {
		var reqs []Requirement
		for i := range n {
			reqs = append(reqs, MustNew(fmt.Sprintf("k%02d", 2*i+1), In, fmt.Sprint(i)))
		}
		s := NewSet(reqs...)
		for i := range n {
			key := fmt.Sprintf("k%02d", 2*i+1)
			require.True(t, s.Has(key), "%d keys: %s", n, key)
			assertSame(t, reqs[i], s.Get(key))
		}
		for i := range n + 1 {
			for _, key := range []string{fmt.Sprintf("k%02d", 2*i), fmt.Sprintf("k%02d0", 2*i+1), "k"} {
				assert.False(t, s.Has(key), "%d keys: %s", n, key)
				assertSame(t, MustNew(key, Exists), s.Get(key))
			}
		}
	}
}

// TestFromLabelAsFromLabels: FromLabel is FromLabels of its one label, a beta
// key normalised and an empty value kept.
func TestFromLabelAsFromLabels(t *testing.T) {
	for _, kv := range [][2]string{{LabelZone, "a"}, {"beta.kubernetes.io/arch", "amd64"}, {"team", ""}, {"failure-domain.beta.kubernetes.io/zone", "b"}} {
		want := FromLabels(map[string]string{kv[0]: kv[1]})
		got := FromLabel(kv[0], kv[1])
		assert.Equal(t, want.Keys(), got.Keys(), "%v", kv)
		assertSame(t, want.Get(Normalize(kv[0])), got.Get(Normalize(kv[0])))
		assert.Equal(t, want.String(), got.String())
	}
}

func TestSetSameKeys(t *testing.T) {
	a := NewSet(MustNew("zone", In, "a"), MustNew("arch", In, "amd64"))
	assert.True(t, a.SameKeys(NewSet(MustNew("arch", NotIn, "arm64"), MustNew("zone", Exists))))
	assert.False(t, a.SameKeys(NewSet(MustNew("zone", In, "a"))))
	assert.False(t, a.SameKeys(NewSet(MustNew("zone", In, "a"), MustNew("os", In, "linux"))))
	assert.True(t, Set{}.SameKeys(NewSet()))
}
