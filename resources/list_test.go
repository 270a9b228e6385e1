package resources

import (
	"errors"
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestNew(t *testing.T) {
	amounts := []Amount{{GPU, 1}, {CPU, 500}, {"b.io/x", 0}, {GPU, 2}, {Memory, 1 << 30}, {AMDGPU, 4}, {Pods, 1}, {EphemeralStorage, 7}}
	before := slices.Clone(amounts)
	l := New(amounts...)
	assert.Equal(t, before, amounts, "New must not modify its argument")
	assert.Equal(t, int64(500), l.CPU)
	assert.Equal(t, int64(1<<30), l.Memory)
	assert.Equal(t, int64(7), l.EphemeralStorage)
	assert.Equal(t, int64(1), l.Pods)
	assert.Equal(t, int64(3), l.Get(GPU))
	assert.Equal(t, int64(0), l.Get("b.io/x"))
	assert.Equal(t, []Amount{{AMDGPU, 4}, {GPU, 3}}, l.ext)
	assert.True(t, New().IsZero())
	assert.True(t, New(Amount{GPU, 1}, Amount{GPU, -1}).IsZero())
	assert.Equal(t, int64(math.MaxInt64), New(Amount{CPU, math.MaxInt64}, Amount{CPU, 1}).CPU)
}

func TestParse(t *testing.T) {
	in := map[Name]string{CPU: "1.5", Memory: "1.5Gi", EphemeralStorage: "10G", Pods: "110", GPU: "2", "hugepages-2Mi": "1.5"}
	orig := maps.Clone(in)
	l, err := Parse(in)
	require.NoError(t, err)
	assert.Equal(t, orig, in)
	assert.Equal(t, int64(1500), l.CPU)
	assert.Equal(t, int64(1610612736), l.Memory)
	assert.Equal(t, int64(10_000_000_000), l.EphemeralStorage)
	assert.Equal(t, int64(110), l.Pods)
	assert.Equal(t, int64(2), l.Get(GPU))
	assert.Equal(t, int64(2), l.Get("hugepages-2Mi"), "non-extended names round up")

	l = MustParse(map[Name]string{CPU: "1n", Memory: "0.5", GPU: "0", "example.com/foo": "1k"})
	assert.Equal(t, int64(1), l.CPU, "cpu rounds up to a millicore")
	assert.Equal(t, int64(1), l.Memory, "memory rounds up to a byte")
	assert.Equal(t, int64(0), l.Get(GPU))
	assert.Equal(t, int64(1000), l.Get("example.com/foo"))
	assert.Equal(t, []Amount{{"example.com/foo", 1000}}, l.ext)

	long := map[Name]string{CPU: "2"} // more names than Parse keeps without allocating
	var want []Amount
	for i := range 11 {
		n := Name(fmt.Sprintf("example.com/r%02d", i))
		long[n] = strconv.Itoa(i + 1)
		want = append(want, Amount{n, int64(i + 1)})
	}
	l = MustParse(long)
	assert.Equal(t, int64(2000), l.CPU)
	assert.Equal(t, want, l.ext)
}

func TestParseErrors(t *testing.T) {
	tests := []struct {
		name  Name
		input string
		want  error
	}{
		{CPU, "-1", ErrNegative},
		{Memory, "-1Ki", ErrNegative},
		{Memory, "lots", ErrInvalidQuantity},
		{Memory, "9Ei", ErrQuantityRange},
		{CPU, "9223372036854776", ErrQuantityRange},
		{Pods, "1.5", ErrNotInteger},
		{GPU, "0.5", ErrNotInteger},
		{"example.com/foo", "1500m", ErrNotInteger},
		{"", "1", ErrEmptyName},
	}
	for _, tc := range tests {
		t.Run(string(tc.name)+"="+tc.input, func(t *testing.T) {
			_, err := Parse(map[Name]string{tc.name: tc.input, CPU + "x": "1"})
			require.Error(t, err)
			assert.ErrorIs(t, err, tc.want)
			var qe *QuantityError
			require.ErrorAs(t, err, &qe)
			assert.Equal(t, tc.name, qe.Name)
			assert.Equal(t, tc.input, qe.Input)
			want := string(tc.name) + `="` + tc.input + `"`
			if tc.name == "" {
				want = `quantity "` + tc.input + `"`
			}
			assert.Contains(t, err.Error(), want)
		})
	}
}

func TestParseJoinsErrorsInNameOrder(t *testing.T) {
	_, err := Parse(map[Name]string{Pods: "x", CPU: "-1", Memory: "1Mi"})
	require.Error(t, err)
	assert.Equal(t, `resources: parsing cpu="-1": negative quantity`+"\n"+
		`resources: parsing pods="x": invalid quantity`, err.Error())
	assert.True(t, errors.Is(err, ErrNegative) && errors.Is(err, ErrInvalidQuantity))
	assert.Panics(t, func() { MustParse(map[Name]string{CPU: "x"}) })
}

func TestGetWith(t *testing.T) {
	l := New(Amount{GPU, 1})
	m := l.With(CPU, 100).With(Neuron, 2).With(GPU, 0).With(AMDGPU, 3)
	assert.Equal(t, int64(1), l.Get(GPU), "With must not modify the receiver")
	assert.Equal(t, int64(0), l.CPU)
	assert.Equal(t, int64(100), m.Get(CPU))
	assert.Equal(t, []Amount{{AMDGPU, 3}, {Neuron, 2}}, m.ext)
	assert.Equal(t, int64(5), m.With(Neuron, 5).Get(Neuron))
	assert.True(t, New(Amount{GPU, 1}).With(GPU, 0).IsZero())
	for _, n := range []Name{CPU, Memory, EphemeralStorage, Pods} {
		assert.Equal(t, int64(9), List{}.With(n, 9).Get(n), n)
	}
}

func TestArithmetic(t *testing.T) {
	a := New(Amount{CPU, 1000}, Amount{Memory, 100}, Amount{GPU, 1}, Amount{Neuron, 2})
	b := New(Amount{CPU, 250}, Amount{Pods, 1}, Amount{GPU, 1}, Amount{AMDGPU, 1})
	assert.Equal(t, New(Amount{CPU, 1250}, Amount{Memory, 100}, Amount{Pods, 1}, Amount{GPU, 2}, Amount{Neuron, 2}, Amount{AMDGPU, 1}), a.Add(b))
	assert.Equal(t, New(Amount{CPU, 750}, Amount{Memory, 100}, Amount{Pods, -1}, Amount{Neuron, 2}, Amount{AMDGPU, -1}), a.Sub(b))
	assert.Equal(t, New(Amount{CPU, 1000}, Amount{Memory, 100}, Amount{Pods, 1}, Amount{GPU, 1}, Amount{Neuron, 2}, Amount{AMDGPU, 1}), a.Max(b))
	assert.True(t, a.Sub(a).IsZero())
	assert.Equal(t, a, a.Add(List{}))
	assert.Equal(t, b, List{}.Add(b))
	assert.True(t, New(Amount{GPU, -3}).Max(List{}).IsZero(), "absent counts as 0 in Max")
}

func TestSaturation(t *testing.T) {
	big := List{CPU: math.MaxInt64, Memory: math.MinInt64, Pods: math.MaxInt64 - 1}
	r := big.Add(List{CPU: 1, Memory: -1, Pods: 5})
	assert.Equal(t, List{CPU: math.MaxInt64, Memory: math.MinInt64, Pods: math.MaxInt64}, r)
	r = big.Sub(List{CPU: -1, Memory: 1, Pods: math.MinInt64})
	assert.Equal(t, List{CPU: math.MaxInt64, Memory: math.MinInt64, Pods: math.MaxInt64}, r)
	g := New(Amount{GPU, math.MaxInt64})
	assert.Equal(t, int64(math.MaxInt64), g.Add(g).Get(GPU))
	assert.Equal(t, int64(math.MinInt64), New(Amount{GPU, math.MinInt64}).Sub(g).Get(GPU))
}

func TestFitsShortfall(t *testing.T) {
	capacity := New(Amount{CPU, 4000}, Amount{Memory, 8 << 30}, Amount{EphemeralStorage, 20 << 30}, Amount{Pods, 110}, Amount{GPU, 1})
	tests := []struct {
		name string
		req  List
		want Name
	}{
		{"zero", List{}, ""},
		{"equal", capacity, ""},
		{"cpu", List{CPU: 4001, Memory: 9 << 30}, CPU},
		{"memory", List{Memory: 9 << 30, Pods: 200}, Memory},
		{"storage", List{EphemeralStorage: 21 << 30}, EphemeralStorage},
		{"pods", List{Pods: 111}, Pods},
		{"gpu", New(Amount{GPU, 2}), GPU},
		{"absent extended", New(Amount{Neuron, 1}, Amount{GPU, 1}), Neuron},
		{"extended order", New(Amount{PodENI, 1}, Amount{AMDGPU, 1}), AMDGPU},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, short := tc.req.Shortfall(capacity)
			assert.Equal(t, tc.want, got)
			assert.Equal(t, tc.want != "", short)
			assert.Equal(t, tc.want == "", tc.req.Fits(capacity))
		})
	}
	negative := List{}.Sub(New(Amount{GPU, 1}))
	n, short := List{}.Shortfall(negative)
	assert.True(t, short, "0 does not fit a negative capacity")
	assert.Equal(t, GPU, n)
}

func TestCompareEqual(t *testing.T) {
	ordered := []List{
		New(Amount{GPU, -1}),
		{},
		New(Amount{PodENI, 1}),
		New(Amount{GPU, 1}),
		New(Amount{GPU, 1}, Amount{PodENI, 1}),
		New(Amount{AMDGPU, 1}),
		{Pods: 1},
		{EphemeralStorage: 1},
		{Memory: 1},
		{Memory: 1, Pods: 3},
		{CPU: 1},
	}
	for i, a := range ordered {
		for j, b := range ordered {
			assert.Equal(t, cmpInt(i, j), a.Compare(b), "%d:%v vs %d:%v", i, a, j, b)
			assert.Equal(t, i == j, a.Equal(b))
		}
	}
}

func cmpInt(a, b int) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

func TestListString(t *testing.T) {
	tests := []struct {
		l    List
		want string
	}{
		{List{}, ""},
		{New(Amount{CPU, 500}, Amount{Memory, 1 << 30}, Amount{Pods, 1}, Amount{GPU, 1}), "cpu=500m memory=1Gi pods=1 nvidia.com/gpu=1"},
		{List{CPU: 2000, Memory: 1_000_000_000, EphemeralStorage: 1536 << 20, Pods: 1000}, "cpu=2 memory=1G ephemeral-storage=1536Mi pods=1000"},
		{List{CPU: 1500, Memory: 1000}, "cpu=1500m memory=1k"},
		{List{CPU: -250, Memory: -1024}, "cpu=-250m memory=-1Ki"},
		{List{CPU: math.MinInt64, Memory: math.MinInt64}, "cpu=-9223372036854775808m memory=-9223372036854775808"},
		{List{CPU: math.MaxInt64, Memory: math.MaxInt64}, "cpu=9223372036854775807m memory=9223372036854775807"},
		{New(Amount{"z.io/a", 3}, Amount{AMDGPU, 1}), "amd.com/gpu=1 z.io/a=3"},
	}
	for _, tc := range tests {
		t.Run(tc.want, func(t *testing.T) {
			assert.Equal(t, tc.want, tc.l.String())
		})
	}
}

func TestExtended(t *testing.T) {
	l := New(Amount{PodENI, 1}, Amount{GPU, 2}, Amount{AMDGPU, 3})
	var got []Amount
	for n, v := range l.Extended() {
		got = append(got, Amount{n, v})
	}
	assert.Equal(t, []Amount{{AMDGPU, 3}, {GPU, 2}, {PodENI, 1}}, got)
	for range l.Extended() {
		break // early stop must not panic
	}
}

func TestIsExtended(t *testing.T) {
	assert.True(t, isExtended(GPU))
	assert.True(t, isExtended(HabanaGaudi))
	assert.False(t, isExtended("hugepages-2Mi"))
	assert.False(t, isExtended("kubernetes.io/foo"))
	assert.False(t, isExtended("requests.example.com/foo"))
	assert.False(t, isExtended(CPU))
}

func TestAll(t *testing.T) {
	l := New(Amount{CPU, 1}, Amount{Pods, 4}, Amount{GPU, 2}, Amount{"a.com/x", 3})
	var got []Amount
	for n, v := range l.All() {
		got = append(got, Amount{n, v})
	}
	assert.Equal(t, []Amount{{CPU, 1}, {Memory, 0}, {EphemeralStorage, 0}, {Pods, 4}, {"a.com/x", 3}, {GPU, 2}}, got)
	n := 0
	for range l.All() {
		if n++; n == 5 {
			break
		}
	}
	assert.Equal(t, 5, n, "All stops when asked")
}

// TestOnePod: a pod that counts no pod slot takes one; a count it gives
// is kept, and the rest is unchanged.
func TestOnePod(t *testing.T) {
	gpu := List{CPU: 100}.With("nvidia.com/gpu", 1)
	for _, c := range []struct{ in, want List }{
		{List{}, List{Pods: 1}},
		{List{CPU: 100, Memory: 5}, List{CPU: 100, Memory: 5, Pods: 1}},
		{List{Pods: 3}, List{Pods: 3}},
		{gpu, List{CPU: 100, Pods: 1}.With("nvidia.com/gpu", 1)},
	} {
		assert.True(t, c.want.Equal(c.in.OnePod()), "%v: got %v", c.in, c.in.OnePod())
	}
}
