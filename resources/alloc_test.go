package resources

import "testing"

func TestNoAllocs(t *testing.T) {
	a := List{CPU: 500, Memory: 1 << 30, Pods: 1}
	b := List{CPU: 4000, Memory: 8 << 30, EphemeralStorage: 20 << 30, Pods: 110}
	ea := New(Amount{CPU, 500}, Amount{GPU, 1}, Amount{PodENI, 1})
	eb := New(Amount{CPU, 4000}, Amount{GPU, 2}, Amount{AMDGPU, 1})
	var sink List
	var ok bool
	var n Name
	var c int
	tests := []struct {
		name string
		f    func()
	}{
		{"Fits", func() { ok = a.Fits(b) }},
		{"Fits/extended", func() { ok = ea.Fits(eb) }},
		{"Shortfall", func() { n, ok = b.Shortfall(a) }},
		{"Shortfall/extended", func() { n, ok = eb.Shortfall(ea) }},
		{"Compare", func() { c = a.Compare(b) }},
		{"Compare/extended", func() { c = ea.Compare(eb) }},
		{"Equal/extended", func() { ok = ea.Equal(eb) }},
		{"Get/extended", func() { c = int(eb.Get(AMDGPU)) }},
		{"Add", func() { sink = a.Add(b) }},
		{"Sub", func() { sink = a.Sub(b) }},
		{"Max", func() { sink = a.Max(b) }},
		{"Add/one side extended", func() { sink = ea.Add(b) }},
		{"ParseQuantity", func() { _, _ = ParseQuantity("1.5Gi") }},
		{"ParseQuantity/exponent", func() { _, _ = ParseQuantity("12e-3") }},
		{"Cmp", func() { c = MustParseQuantity("1Ki").Cmp(MustParseQuantity("1k")) }},
	}
	for _, tc := range tests {
		if allocs := testing.AllocsPerRun(1000, tc.f); allocs != 0 {
			t.Errorf("%s: allocs = %v; want 0", tc.name, allocs)
		}
	}
	_, _, _, _ = sink, ok, n, c
}
