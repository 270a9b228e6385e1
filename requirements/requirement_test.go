package requirements

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// same reports whether a and b are the same canonical requirement: a nil and
// an empty value list are equal, and an unset bound's number is ignored.
func same(a, b Requirement) bool {
	return a.key == b.key && a.complement == b.complement && slices.Equal(a.values, b.values) &&
		a.hasGte == b.hasGte && (!a.hasGte || a.gte == b.gte) &&
		a.hasLte == b.hasLte && (!a.hasLte || a.lte == b.lte) &&
		a.minValues == b.minValues
}

func assertSame(t *testing.T, want, got Requirement, msgAndArgs ...any) {
	t.Helper()
	if !same(want, got) {
		assert.Fail(t, fmt.Sprintf("requirements differ: want %s %#v, got %s %#v", want, want, got, got), msgAndArgs...)
	}
}

func TestNew(t *testing.T) {
	tests := []struct {
		name   string
		key    string
		op     Operator
		values []string
		want   Requirement
	}{
		{"In sorts and dedups", "k", In, []string{"b", "a", "b"}, Requirement{key: "k", values: []string{"a", "b"}}},
		{"In empty value", "k", In, []string{""}, Requirement{key: "k", values: []string{""}}},
		{"NotIn", "k", NotIn, []string{"z", "a"}, Requirement{key: "k", complement: true, values: []string{"a", "z"}}},
		{"Exists", "k", Exists, nil, Requirement{key: "k", complement: true}},
		{"DoesNotExist", "k", DoesNotExist, nil, Requirement{key: "k"}},
		{"Gt N is Gte N+1", "k", Gt, []string{"1"}, Requirement{key: "k", complement: true, gte: 2, hasGte: true}},
		{"Lt N is Lte N-1", "k", Lt, []string{"9"}, Requirement{key: "k", complement: true, lte: 8, hasLte: true}},
		{"Lt 0 is Lte -1", "k", Lt, []string{"0"}, Requirement{key: "k", complement: true, lte: -1, hasLte: true}},
		{"Gte", "k", Gte, []string{"5"}, Requirement{key: "k", complement: true, gte: 5, hasGte: true}},
		{"Lte", "k", Lte, []string{"5"}, Requirement{key: "k", complement: true, lte: 5, hasLte: true}},
		{"Gt leading zeros", "k", Gt, []string{"007"}, Requirement{key: "k", complement: true, gte: 8, hasGte: true}},
		{"Gt MaxInt64 allows nothing", "k", Gt, []string{strconv.FormatInt(math.MaxInt64, 10)}, Requirement{key: "k"}},
		{"Gt MaxInt64-1", "k", Gt, []string{strconv.FormatInt(math.MaxInt64-1, 10)}, Requirement{key: "k", complement: true, gte: math.MaxInt64, hasGte: true}},
		{"Lte MaxInt64", "k", Lte, []string{strconv.FormatInt(math.MaxInt64, 10)}, Requirement{key: "k", complement: true, lte: math.MaxInt64, hasLte: true}},
		{"beta zone normalised", "failure-domain.beta.kubernetes.io/zone", In, []string{"z1"}, Requirement{key: LabelZone, values: []string{"z1"}}},
		{"prefixed key", "example.com/team", Exists, nil, Requirement{key: "example.com/team", complement: true}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			in := slices.Clone(tc.values)
			got, err := New(tc.key, tc.op, in...)
			require.NoError(t, err)
			assertSame(t, tc.want, got)
			assert.Equal(t, tc.values, in, "New modified its values")
		})
	}
}

func TestBoundExtremes(t *testing.T) {
	// Lt MinInt64 cannot come through New (a negative number is not a label
	// value, as in Kubernetes), but the canonicaliser must not wrap around.
	assertSame(t, Requirement{key: "k"}, bound("k", Lt, math.MinInt64))
	assertSame(t, Requirement{key: "k"}, bound("k", Gt, math.MaxInt64))
	assertSame(t, Requirement{key: "k", complement: true, lte: math.MinInt64, hasLte: true}, bound("k", Lt, math.MinInt64+1))
	_, err := New("k", Lt, strconv.FormatInt(math.MinInt64, 10))
	require.ErrorIs(t, err, ErrInvalid)
	assert.True(t, MustNew("k", Gt, strconv.FormatInt(math.MaxInt64, 10)).Empty())
	assert.Equal(t, DoesNotExist, MustNew("k", Gt, strconv.FormatInt(math.MaxInt64, 10)).Operator())
	assert.True(t, MustNew("k", Gte, strconv.FormatInt(math.MaxInt64, 10)).Has("9223372036854775807"))
}

func TestNewInvalid(t *testing.T) {
	tests := []struct {
		name   string
		key    string
		op     Operator
		values []string
		inErr  string
	}{
		{"empty key", "", Exists, nil, `label key ""`},
		{"space in key", "bad key", Exists, nil, `"bad key"`},
		{"key name too long", strings.Repeat("a", 64), Exists, nil, "label key"},
		{"empty prefix", "/name", Exists, nil, "prefix"},
		{"upper-case prefix", "Example.com/name", Exists, nil, "prefix"},
		{"two slashes", "a/b/c", Exists, nil, `"a/b/c"`},
		{"name ends with dash", "name-", Exists, nil, "label key"},
		{"bad value", "k", In, []string{"ok", "not ok"}, `"not ok"`},
		{"value too long", "k", NotIn, []string{strings.Repeat("v", 64)}, "label value"},
		{"In without values", "k", In, nil, "at least one value"},
		{"NotIn without values", "k", NotIn, []string{}, "at least one value"},
		{"Exists with a value", "k", Exists, []string{"a"}, "takes no values"},
		{"DoesNotExist with a value", "k", DoesNotExist, []string{"a"}, "takes no values"},
		{"Gt without value", "k", Gt, nil, "exactly one integer"},
		{"Lt with two values", "k", Lt, []string{"1", "2"}, "exactly one integer"},
		{"Gte non-integer", "k", Gte, []string{"abc"}, `"abc"`},
		{"Lte float", "k", Lte, []string{"1.5"}, `"1.5"`},
		{"Gt overflow", "k", Gt, []string{"9223372036854775808"}, "integer"},
		{"Gt negative", "k", Gt, []string{"-1"}, `"-1"`},
		{"Lt empty string", "k", Lt, []string{""}, "integer"},
		{"unknown operator", "k", Operator(200), nil, "unknown operator"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := New(tc.key, tc.op, tc.values...)
			require.Error(t, err)
			assert.ErrorIs(t, err, ErrInvalid)
			assert.Contains(t, err.Error(), tc.inErr)
		})
	}
	assert.Panics(t, func() { MustNew("k", In) })
}

func TestWithMinValues(t *testing.T) {
	inAB := MustNew("k", In, "a", "b")
	tests := []struct {
		name string
		r    Requirement
		n    int
		ok   bool
	}{
		{"In within count", inAB, 2, true},
		{"In above count", inAB, 3, false},
		{"zero removes", inAB, 0, true},
		{"negative", inAB, -1, false},
		{"NotIn up to 50", MustNew("k", NotIn, "a"), MaxMinValues, true},
		{"Exists above 50", MustNew("k", Exists), MaxMinValues + 1, false},
		{"Gt 1", MustNew("k", Gt, "1"), 1, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := tc.r.WithMinValues(tc.n)
			if !tc.ok {
				require.ErrorIs(t, err, ErrInvalid)
				assert.Contains(t, err.Error(), `"k"`)
				assert.Equal(t, tc.r.MinValues(), got.MinValues())
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tc.n, got.MinValues())
			assert.Equal(t, 0, tc.r.MinValues(), "receiver changed")
		})
	}
}

func TestAccessors(t *testing.T) {
	r := MustNew("k", NotIn, "b", "a")
	vals := r.Values()
	assert.Equal(t, []string{"a", "b"}, vals)
	vals[0] = "mutated"
	assert.Equal(t, []string{"a", "b"}, r.Values(), "Values must return a copy")
	assert.Equal(t, "k", r.Key())
	assert.True(t, r.Complement())
	gte, hasGte, lte, hasLte := MustNew("k", Gt, "1").Intersect(MustNew("k", Lt, "9")).Bounds()
	assert.Equal(t, []any{int64(2), true, int64(8), true}, []any{gte, hasGte, lte, hasLte})
	var zero Requirement
	assert.True(t, zero.Empty())
	assert.Equal(t, DoesNotExist, zero.Operator())
	assert.False(t, zero.Has(""))
}

func TestOperatorString(t *testing.T) {
	for i, name := range []string{"In", "NotIn", "Exists", "DoesNotExist", "Gt", "Lt", "Gte", "Lte"} {
		op := Operator(i)
		assert.Equal(t, name, op.String())
		parsed, err := ParseOperator(name)
		require.NoError(t, err)
		assert.Equal(t, op, parsed)
	}
	assert.Equal(t, "Operator(9)", Operator(9).String())
	_, err := ParseOperator("in")
	assert.ErrorIs(t, err, ErrInvalid)
}

// karpenterFixtures are the requirements Karpenter's requirement_test.go
// builds on one key, under the short names the tables below use.
func karpenterFixtures(key string) map[string]Requirement {
	return map[string]Requirement{
		"E":   MustNew(key, Exists),
		"D":   MustNew(key, DoesNotExist),
		"A":   MustNew(key, In, "A"),
		"B":   MustNew(key, In, "B"),
		"AB":  MustNew(key, In, "A", "B"),
		"!A":  MustNew(key, NotIn, "A"),
		"1":   MustNew(key, In, "1"),
		"9":   MustNew(key, In, "9"),
		"19":  MustNew(key, In, "1", "9"),
		"!12": MustNew(key, NotIn, "1", "2"),
		">1":  MustNew(key, Gt, "1"),
		">9":  MustNew(key, Gt, "9"),
		"<1":  MustNew(key, Lt, "1"),
		"<9":  MustNew(key, Lt, "9"),
	}
}

// karpenterOrder is the order of the rows and columns of the tables.
var karpenterOrder = strings.Fields("E D A B AB !A 1 9 19 !12 >1 >9 <1 <9")

// TestIntersectKarpenterTable ports Karpenter's "should intersect two
// requirements" table: row Intersect column gives the cell.
func TestIntersectKarpenterTable(t *testing.T) {
	fx := karpenterFixtures("key")
	fx["!A12"] = Requirement{key: "key", complement: true, values: []string{"1", "2", "A"}}
	fx[">1!12"] = Requirement{key: "key", complement: true, values: []string{"2"}, gte: 2, hasGte: true}
	fx["<9!12"] = Requirement{key: "key", complement: true, values: []string{"1", "2"}, lte: 8, hasLte: true}
	fx["2..8"] = Requirement{key: "key", complement: true, gte: 2, hasGte: true, lte: 8, hasLte: true}
	table := map[string]string{
		"E":   "E D A B AB !A 1 9 19 !12 >1 >9 <1 <9",
		"D":   "D D D D D D D D D D D D D D",
		"A":   "A D A D A D D D D A D D D D",
		"B":   "B D D B B B D D D B D D D D",
		"AB":  "AB D A B AB B D D D AB D D D D",
		"!A":  "!A D D B B !A 1 9 19 !A12 >1 >9 <1 <9",
		"1":   "1 D D D D 1 1 D 1 D D D D 1",
		"9":   "9 D D D D 9 D 9 9 9 9 D D D",
		"19":  "19 D D D D 19 1 9 19 9 9 D D 1",
		"!12": "!12 D A B AB !A12 D 9 9 !12 >1!12 >9 <1 <9!12",
		">1":  ">1 D D D D >1 D 9 9 >1!12 >1 >9 D 2..8",
		">9":  ">9 D D D D >9 D D D >9 >9 >9 D D",
		"<1":  "<1 D D D D <1 D D D <1 D D <1 <1",
		"<9":  "<9 D D D D <9 1 D 1 <9!12 2..8 D <1 <9",
	}
	for _, row := range karpenterOrder {
		cells := strings.Fields(table[row])
		require.Len(t, cells, len(karpenterOrder), row)
		for i, col := range karpenterOrder {
			a, b, want := fx[row], fx[col], fx[cells[i]]
			got := a.Intersect(b)
			assertSame(t, want, got, "%s ∩ %s", row, col)
			assert.Equal(t, !want.Empty(), a.Intersects(b), "%s Intersects %s", row, col)
		}
	}
}

func TestIntersectMinValues(t *testing.T) {
	inAB2, err := MustNew("key", In, "A", "B").WithMinValues(2)
	require.NoError(t, err)
	exists1, err := MustNew("key", Exists).WithMinValues(1)
	require.NoError(t, err)
	tests := []struct {
		name string
		a, b Requirement
		want Requirement
	}{
		{"larger minValues wins", exists1, inAB2, Requirement{key: "key", values: []string{"A", "B"}, minValues: 2}},
		{"kept on empty result", inAB2, MustNew("key", DoesNotExist), Requirement{key: "key", minValues: 2}},
		{"kept on empty bounds", exists1.Intersect(MustNew("key", Gt, "9")), MustNew("key", Lt, "1"), Requirement{key: "key", minValues: 1}},
		{"kept when narrowed", inAB2, MustNew("key", NotIn, "A"), Requirement{key: "key", values: []string{"B"}, minValues: 2}},
		{"from the right side", MustNew("key", In, "A"), exists1, Requirement{key: "key", values: []string{"A"}, minValues: 1}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			assertSame(t, tc.want, tc.a.Intersect(tc.b))
			assertSame(t, tc.want, tc.b.Intersect(tc.a))
		})
	}
}

func TestIntersectBounds(t *testing.T) {
	gte := func(n string) Requirement { return MustNew("key", Gte, n) }
	lte := func(n string) Requirement { return MustNew("key", Lte, n) }
	gt := func(n string) Requirement { return MustNew("key", Gt, n) }
	lt := func(n string) Requirement { return MustNew("key", Lt, n) }
	bounds := func(r Requirement) string {
		g, hg, l, hl := r.Bounds()
		var b []string
		if hg {
			b = append(b, ">="+strconv.FormatInt(g, 10))
		}
		if hl {
			b = append(b, "<="+strconv.FormatInt(l, 10))
		}
		return strings.Join(b, " ")
	}
	tests := []struct {
		name string
		r    Requirement
		want string
		op   Operator
	}{
		{"Gt 4 and Gte 5 collapse", gt("4").Intersect(gte("5")), ">=5", Gte},
		{"Gt 5 tighter than Gte 5", gt("5").Intersect(gte("5")), ">=6", Gte},
		{"Gte 6 tighter than Gt 3", gt("3").Intersect(gte("6")), ">=6", Gte},
		{"Lt 5 tighter than Lte 5", lt("5").Intersect(lte("5")), "<=4", Lte},
		{"Lte 5 tighter than Lt 9", lt("9").Intersect(lte("5")), "<=5", Lte},
		{"Gte and Lte", gte("2").Intersect(lte("8")), ">=2 <=8", Exists},
		{"single point", gte("8").Intersect(lte("8")), ">=8 <=8", Exists},
		{"crossed", gte("9").Intersect(lte("8")), "", DoesNotExist},
		{"In drops bounds", gte("2").Intersect(MustNew("key", In, "3", "x")), "", In},
		{"NotIn drops values out of bounds", gte("2").Intersect(MustNew("key", NotIn, "1", "3", "x")), ">=2", NotIn},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, bounds(tc.r))
			assert.Equal(t, tc.op, tc.r.Operator())
		})
	}
	assert.Equal(t, []string{"3"}, gte("2").Intersect(MustNew("key", NotIn, "1", "3", "x")).Values())
	assert.Equal(t, []string{"3"}, gte("2").Intersect(MustNew("key", In, "3", "x")).Values())
}

func TestHasKarpenterTable(t *testing.T) {
	fx := karpenterFixtures("key")
	values := []string{"A", "B", "1", "2", "9"}
	table := map[string]string{
		"E": "YYYYY", "D": "nnnnn", "A": "Ynnnn", "B": "nYnnn", "AB": "YYnnn", "!A": "nYYYY", "1": "nnYnn",
		"9": "nnnnY", "19": "nnYnY", "!12": "YYnnY", ">1": "nnnYY", ">9": "nnnnn", "<1": "nnnnn", "<9": "nnYYn",
	}
	for _, name := range karpenterOrder {
		for i, v := range values {
			assert.Equal(t, table[name][i] == 'Y', fx[name].Has(v), "%s Has %q", name, v)
		}
	}
}

func TestHasBounds(t *testing.T) {
	tests := []struct {
		r    Requirement
		yes  []string
		nope []string
	}{
		{MustNew("k", Gte, "2"), []string{"2", "3", "100", "+2", "02", "9223372036854775807"}, []string{"1", "0", "-5", "x", "", "2.0", "9223372036854775808"}},
		{MustNew("k", Lte, "8"), []string{"8", "7", "0", "-1", "-9223372036854775808"}, []string{"9", "10", "-9223372036854775809", "eight"}},
		{MustNew("k", Gte, "0"), []string{"0", "-0"}, []string{"-1"}},
		{MustNew("k", Lte, "0"), []string{"0"}, []string{"1"}},
		{MustNew("k", Gt, "1").Intersect(MustNew("k", Lt, "9")), []string{"2", "5", "8"}, []string{"1", "9"}},
	}
	for _, tc := range tests {
		for _, v := range tc.yes {
			assert.True(t, tc.r.Has(v), "%s Has %q", tc.r, v)
		}
		for _, v := range tc.nope {
			assert.False(t, tc.r.Has(v), "%s Has %q", tc.r, v)
		}
	}
	// Gte 2 behaves as Gt 1, and Lte 8 as Lt 9.
	for _, v := range []string{"0", "1", "2", "8", "9"} {
		assert.Equal(t, MustNew("k", Gt, "1").Has(v), MustNew("k", Gte, "2").Has(v), v)
		assert.Equal(t, MustNew("k", Lt, "9").Has(v), MustNew("k", Lte, "8").Has(v), v)
	}
}

func TestOperatorAndLenKarpenterTable(t *testing.T) {
	fx := karpenterFixtures("key")
	tests := []struct {
		name string
		op   Operator
		len  int
	}{
		{"E", Exists, math.MaxInt}, {"D", DoesNotExist, 0}, {"A", In, 1}, {"B", In, 1}, {"AB", In, 2},
		{"!A", NotIn, math.MaxInt - 1}, {"1", In, 1}, {"9", In, 1}, {"19", In, 2}, {"!12", NotIn, math.MaxInt - 2},
		// Karpenter reports bounded requirements as Exists; nodeplan names
		// the single bound, which is what NodeSelectorRequirement emits.
		{">1", Gte, math.MaxInt}, {">9", Gte, math.MaxInt}, {"<1", Lte, math.MaxInt}, {"<9", Lte, math.MaxInt},
	}
	for _, tc := range tests {
		assert.Equal(t, tc.op, fx[tc.name].Operator(), tc.name)
		assert.Equal(t, tc.len, fx[tc.name].Len(), tc.name)
		assert.Equal(t, tc.len == 0, fx[tc.name].Empty(), tc.name)
	}
}

func TestAny(t *testing.T) {
	fx := karpenterFixtures("key")
	tests := []struct {
		r    Requirement
		want string
		ok   bool
	}{
		{fx["E"], "0", true},
		{fx["D"], "", false},
		{fx["A"], "A", true},
		{fx["AB"], "A", true},
		{fx["!A"], "0", true},
		{fx["19"], "1", true},
		{fx["!12"], "0", true},
		{MustNew("key", NotIn, "0", "1", "3"), "2", true},
		{fx[">1"], "2", true},
		{fx[">9"], "10", true},
		{fx["<1"], "0", true},
		{fx["<9"], "0", true},
		{MustNew("key", Gte, "5"), "5", true},
		{MustNew("key", Lte, "10"), "0", true},
		{MustNew("key", Gte, "5").Intersect(MustNew("key", NotIn, "5", "6")), "7", true},
		{MustNew("key", Gte, "5").Intersect(MustNew("key", Lte, "6")).Intersect(MustNew("key", NotIn, "5", "6")), "", false},
		{MustNew("key", Gte, "9223372036854775807"), "9223372036854775807", true},
		{MustNew("key", Gte, "9223372036854775807").Intersect(MustNew("key", NotIn, "9223372036854775807")), "", false},
		// Lt 0 allows only negative numbers, which are not label values.
		{MustNew("key", Lt, "0"), "", false},
		{bound("key", Gte, -5), "0", true},
		{bound("key", Gte, -5).Intersect(MustNew("key", NotIn, "0")), "1", true},
	}
	for _, tc := range tests {
		got, ok := tc.r.Any()
		assert.Equal(t, tc.ok, ok, tc.r.String())
		assert.Equal(t, tc.want, got, tc.r.String())
		if ok {
			assert.True(t, tc.r.Has(got), "%s does not have its Any %q", tc.r, got)
		}
	}
}

func TestRequirementString(t *testing.T) {
	fx := karpenterFixtures("key")
	mv, err := MustNew("key", In, "a", "b").WithMinValues(2)
	require.NoError(t, err)
	tests := []struct {
		r    Requirement
		want string
	}{
		{fx["E"], "key Exists"},
		{fx["D"], "key DoesNotExist"},
		{fx["A"], "key In [A]"},
		{fx["AB"], "key In [A B]"},
		{fx["!A"], "key NotIn [A]"},
		{fx["19"], "key In [1 9]"},
		{fx["!12"], "key NotIn [1 2]"},
		{fx[">1"], "key Exists >=2"},
		{fx[">9"], "key Exists >=10"},
		{fx["<1"], "key Exists <=0"},
		{fx["<9"], "key Exists <=8"},
		{fx[">1"].Intersect(fx["<9"]), "key Exists >=2 <=8"},
		{fx[">9"].Intersect(fx["<1"]), "key DoesNotExist"},
		{fx[">1"].Intersect(fx["!12"]), "key NotIn [2] >=2"},
		{MustNew("key", In, "a", "b", "c", "d", "e", "f", "g"), "key In [a b c d e and 2 others]"},
		{mv, "key In [a b] minValues 2"},
	}
	for _, tc := range tests {
		assert.Equal(t, tc.want, tc.r.String())
	}
}

func TestIntersectDoesNotModify(t *testing.T) {
	a := MustNew("k", NotIn, "1", "3", "x")
	b := MustNew("k", Gte, "2")
	c := MustNew("k", In, "1", "2", "3")
	before := []Requirement{a, b, c}
	snap := [][]string{a.Values(), b.Values(), c.Values()}
	_ = a.Intersect(b).Intersect(c)
	_ = c.Intersect(a)
	_ = b.Intersect(a)
	for i, r := range []Requirement{a, b, c} {
		assertSame(t, before[i], r)
		assert.Equal(t, snap[i], r.values)
	}
}

// TestIntersectsKarpenterApproximation records a case inherited from
// Karpenter: two complements whose bounds meet are taken to intersect even
// when every integer in the range is excluded.
func TestIntersectsKarpenterApproximation(t *testing.T) {
	a := MustNew("k", Gte, "1").Intersect(MustNew("k", Lte, "1"))
	b := MustNew("k", NotIn, "1")
	assert.True(t, a.Intersects(b))
	assert.False(t, a.Intersect(b).Empty())
	assert.False(t, a.Intersect(b).Has("1"))
	_, ok := a.Intersect(b).Any()
	assert.False(t, ok)
}

func TestErrInvalidIsSentinel(t *testing.T) {
	_, err := New("k", In)
	assert.True(t, errors.Is(err, ErrInvalid))
}
