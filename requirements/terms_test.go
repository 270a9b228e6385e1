package requirements

import (
	"errors"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestParse(t *testing.T) {
	exprs := []Expression{
		{Key: "zone", Operator: In, Values: []string{"b", "a"}},
		{Key: "zone", Operator: NotIn, Values: []string{"b"}},
		{Key: "cpu", Operator: Gt, Values: []string{"3"}, MinValues: 2},
		{Key: "failure-domain.beta.kubernetes.io/region", Operator: Exists},
	}
	s, err := Parse(exprs...)
	require.NoError(t, err)
	assert.Equal(t, "cpu Exists >=4 minValues 2, topology.kubernetes.io/region Exists, zone In [a]", s.String())
	assert.Equal(t, []string{"b", "a"}, exprs[0].Values, "Parse modified its input")

	empty, err := Parse()
	require.NoError(t, err)
	assert.Equal(t, 0, empty.Len())
}

func TestParseErrors(t *testing.T) {
	tests := []struct {
		name  string
		exprs []Expression
		want  []string
	}{
		{"bad key", []Expression{{Key: "ok", Operator: Exists}, {Key: "bad key", Operator: Exists}}, []string{"expression 1:", `"bad key"`}},
		{"bad value", []Expression{{Key: "zone", Operator: In, Values: []string{"a b"}}}, []string{"expression 0:", `key "zone"`, `"a b"`}},
		{"bad count", []Expression{{Key: "cpu", Operator: Gt, Values: []string{"1", "2"}}}, []string{"expression 0:", `"cpu"`}},
		{"bad minValues", []Expression{{Key: "zone", Operator: In, Values: []string{"a"}, MinValues: 2}}, []string{"expression 0:", `"zone"`, "minValues: invalid requirement: 2 exceeds"}},
		{"minValues above 50", []Expression{{Key: "zone", Operator: Exists, MinValues: 51}}, []string{"expression 0:", `"zone"`}},
		{"negative minValues", []Expression{{Key: "zone", Operator: Exists, MinValues: -1}}, []string{"expression 0:"}},
		{"bad operator", []Expression{{Key: "zone", Operator: Operator(99)}}, []string{"expression 0:", "unknown operator"}},
		{"all reported", []Expression{{Key: "", Operator: Exists}, {Key: "ok", Operator: In}, {Key: "x", Operator: Lt, Values: []string{"y"}}},
			[]string{"expression 0:", "expression 1:", `"ok"`, "expression 2:", `"x"`}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse(tc.exprs...)
			require.Error(t, err)
			assert.True(t, errors.Is(err, ErrInvalid))
			for _, w := range tc.want {
				assert.Contains(t, err.Error(), w)
			}
		})
	}
	s, err := Parse(Expression{Key: "ok", Operator: Exists}, Expression{Key: "bad key", Operator: Exists})
	require.Error(t, err)
	assert.Equal(t, []string{"ok"}, s.Keys(), "valid expressions are kept")
	assert.Panics(t, func() { MustParse(Expression{Key: "zone", Operator: In}) })
}

func TestNewNodeAffinity(t *testing.T) {
	selector := map[string]string{"team": "a", "beta.kubernetes.io/arch": "arm64"}
	required := [][]Expression{
		{{Key: LabelZone, Operator: In, Values: []string{"z1"}}},
		{{Key: LabelZone, Operator: In, Values: []string{"z2"}}, {Key: "team", Operator: In, Values: []string{"a", "b"}}},
	}
	preferred := []WeightedTerm{
		{Weight: 10, Expressions: []Expression{{Key: "p", Operator: In, Values: []string{"first10"}}}},
		{Weight: 50, Expressions: []Expression{{Key: "p", Operator: In, Values: []string{"fifty"}}}},
		{Weight: 10, Expressions: []Expression{{Key: "p", Operator: In, Values: []string{"second10"}}}},
		{Weight: 100, Expressions: []Expression{{Key: "p", Operator: In, Values: []string{"hundred"}}}},
	}
	a, err := NewNodeAffinity(selector, required, preferred)
	require.NoError(t, err)
	assert.Equal(t, "kubernetes.io/arch In [arm64], team In [a]", a.Selector.String())
	require.Len(t, a.Required, 2)
	assert.Equal(t, "kubernetes.io/arch In [arm64], team In [a], topology.kubernetes.io/zone In [z1]", a.Required[0].String())
	assert.Equal(t, "kubernetes.io/arch In [arm64], team In [a], topology.kubernetes.io/zone In [z2]", a.Required[1].String())
	var order []string
	var weights []int32
	for _, p := range a.Preferred {
		order = append(order, p.Terms.Get("p").Values()[0])
		weights = append(weights, p.Weight)
	}
	assert.Equal(t, []string{"hundred", "fifty", "first10", "second10"}, order)
	assert.Equal(t, []int32{100, 50, 10, 10}, weights)
	assert.Equal(t, int32(10), preferred[0].Weight, "input reordered")
	assert.Equal(t, "first10", preferred[0].Expressions[0].Values[0], "input reordered")
	assert.Equal(t, a.Required, a.Alternatives())

	none, err := NewNodeAffinity(selector, nil, nil)
	require.NoError(t, err)
	assert.Len(t, none.Alternatives(), 1)
	assert.Equal(t, none.Selector.String(), none.Alternatives()[0].String())
}

func TestNewNodeAffinityErrors(t *testing.T) {
	tests := []struct {
		name      string
		selector  map[string]string
		required  [][]Expression
		preferred []WeightedTerm
		want      []string
	}{
		{"bad selector", map[string]string{"bad key": "v"}, nil, nil, []string{"nodeSelector", `"bad key"`}},
		{"bad selector value", map[string]string{"k": "a b"}, nil, nil, []string{"nodeSelector", `"a b"`}},
		{"bad required", nil, [][]Expression{{}, {{Key: "k", Operator: In}}}, nil, []string{"required term 1", "expression 0"}},
		{"weight zero", nil, nil, []WeightedTerm{{Weight: 0}}, []string{"preferred term 0", "weight 0"}},
		{"weight above 100", nil, nil, []WeightedTerm{{Weight: 1, Expressions: []Expression{{Key: "k", Operator: Exists}}}, {Weight: 101}}, []string{"preferred term 1", "weight 101"}},
		{"bad preferred expression", nil, nil, []WeightedTerm{{Weight: 5, Expressions: []Expression{{Key: "k", Operator: Exists, Values: []string{"v"}}}}}, []string{"preferred term 0", "expression 0"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := NewNodeAffinity(tc.selector, tc.required, tc.preferred)
			require.Error(t, err)
			assert.ErrorIs(t, err, ErrInvalid)
			for _, w := range tc.want {
				assert.Contains(t, err.Error(), w)
			}
		})
	}
}

func TestNodeAffinityMatches(t *testing.T) {
	a, err := NewNodeAffinity(
		map[string]string{"team": "a"},
		[][]Expression{
			{{Key: LabelZone, Operator: In, Values: []string{"z1"}}},
			{{Key: LabelArch, Operator: In, Values: []string{"arm64"}}},
		},
		[]WeightedTerm{{Weight: 1, Expressions: []Expression{{Key: "pref", Operator: Exists}}}},
	)
	require.NoError(t, err)
	tests := []struct {
		name   string
		labels map[string]string
		ok     bool
	}{
		{"first term", map[string]string{"team": "a", LabelZone: "z1"}, true},
		{"second term", map[string]string{"team": "a", LabelArch: "arm64"}, true},
		{"no term", map[string]string{"team": "a", LabelZone: "z2"}, false},
		{"selector unmet", map[string]string{"team": "b", LabelZone: "z1"}, false},
		{"preferences ignored", map[string]string{"team": "a", LabelZone: "z1", "pref": "x"}, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := a.Matches(tc.labels)
			if tc.ok {
				assert.NoError(t, err)
				return
			}
			var ie *IncompatibleError
			assert.ErrorAs(t, err, &ie)
		})
	}
	// The error reported is the first term's.
	err = a.Matches(map[string]string{"team": "a"})
	var ie *IncompatibleError
	require.ErrorAs(t, err, &ie)
	assert.Equal(t, LabelZone, ie.Key)

	var zero NodeAffinity
	assert.NoError(t, zero.Matches(nil))
	sel, err := NewNodeAffinity(map[string]string{"team": "a"}, nil, nil)
	require.NoError(t, err)
	assert.NoError(t, sel.Matches(map[string]string{"team": "a"}))
	assert.Error(t, sel.Matches(map[string]string{}))
}

func TestNewNodeAffinityPreferredStable(t *testing.T) {
	var preferred []WeightedTerm
	for i := range 40 {
		v := strconv.Itoa(i)
		preferred = append(preferred, WeightedTerm{Weight: int32(1 + i%3), Expressions: []Expression{{Key: "i", Operator: In, Values: []string{v}}}})
	}
	a, err := NewNodeAffinity(nil, nil, preferred)
	require.NoError(t, err)
	require.Len(t, a.Preferred, len(preferred))
	for i := 1; i < len(a.Preferred); i++ {
		prev, cur := a.Preferred[i-1], a.Preferred[i]
		require.GreaterOrEqual(t, prev.Weight, cur.Weight)
		if prev.Weight == cur.Weight {
			p, _ := strconv.Atoi(prev.Terms.Get("i").Values()[0])
			c, _ := strconv.Atoi(cur.Terms.Get("i").Values()[0])
			require.Less(t, p, c, "ties must keep input order")
		}
	}
}

func TestNodeAffinityContradictions(t *testing.T) {
	in := func(k string, v ...string) Expression { return Expression{Key: k, Operator: In, Values: v} }
	dne := Expression{Key: "team", Operator: DoesNotExist}
	tests := []struct {
		name     string
		selector map[string]string
		terms    [][]Expression
		wantAlts int
	}{
		{"term contradicting the selector is dropped", map[string]string{"team": "b"}, [][]Expression{{dne}, {in("zone", "a")}}, 1},
		{"every term contradicting leaves no alternative", map[string]string{"team": "b"}, [][]Expression{{dne}, {in("team", "a")}}, 0},
		{"a self-contradicting term is dropped", nil, [][]Expression{{in("team", "a"), dne}}, 0},
		{"consistent terms stay", map[string]string{"team": "b"}, [][]Expression{{in("team", "a", "b")}}, 1},
		{"no terms means the selector alone", map[string]string{"team": "b"}, nil, 1},
		{"an empty term matches no node", map[string]string{"team": "b"}, [][]Expression{{}}, 0},
		{"an empty term beside a real one", nil, [][]Expression{{}, {in("zone", "a")}}, 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			a, err := NewNodeAffinity(tc.selector, tc.terms, nil)
			if err != nil {
				t.Fatal(err)
			}
			if got := len(a.Alternatives()); got != tc.wantAlts {
				t.Fatalf("alternatives = %d; want %d", got, tc.wantAlts)
			}
			if tc.wantAlts == 0 && a.Matches(map[string]string{}) == nil {
				t.Fatal("a pod with no alternative matched a node")
			}
		})
	}
}

func TestNodeAffinityValidate(t *testing.T) {
	a, err := NewNodeAffinity(map[string]string{"a": "b"}, [][]Expression{{{Key: "c", Operator: Exists}}},
		[]WeightedTerm{{Weight: 5, Expressions: []Expression{{Key: "d", Operator: In, Values: []string{"e"}}}}})
	require.NoError(t, err)
	assert.NoError(t, a.Validate())
	assert.NoError(t, NodeAffinity{}.Validate())
	bad := FromLabels(map[string]string{"a": "b c"})
	for name, a := range map[string]NodeAffinity{
		"selector":  {Selector: bad},
		"required":  {Required: []Set{{}, bad}},
		"preferred": {Preferred: []Preference{{Weight: 1, Terms: bad}}},
		"weight":    {Preferred: []Preference{{Weight: 0}}},
	} {
		assert.ErrorIs(t, a.Validate(), ErrInvalid, name)
	}
}

func TestValidateWeight(t *testing.T) {
	for w, ok := range map[int32]bool{-1: false, 0: false, 1: true, 100: true, 101: false} {
		if ok {
			assert.NoError(t, ValidateWeight(w), w)
		} else {
			assert.ErrorIs(t, ValidateWeight(w), ErrInvalid, w)
		}
	}
}
