package requirements

import (
	"slices"
	"strconv"
	"strings"
	"testing"
)

// FuzzNew builds requirements from arbitrary input: New must not panic, and
// a requirement it accepts must agree with its intersection with itself.
func FuzzNew(f *testing.F) {
	f.Add("zone", byte(In), "a,b")
	f.Add("example.com/team", byte(NotIn), "x")
	f.Add("k", byte(Exists), "")
	f.Add("k", byte(DoesNotExist), "")
	f.Add("cpu", byte(Gt), "9223372036854775807")
	f.Add("cpu", byte(Lt), "0")
	f.Add("cpu", byte(Gte), "007")
	f.Add("cpu", byte(Lte), "-9223372036854775808")
	f.Add("bad key", byte(In), "a")
	f.Add("k", byte(200), "a")
	f.Add("failure-domain.beta.kubernetes.io/zone", byte(In), "a,,b,a")
	f.Fuzz(func(t *testing.T, key string, op byte, joined string) {
		var values []string
		if joined != "" {
			values = strings.Split(joined, ",")
		}
		before := strings.Join(values, ",")
		r, err := New(key, Operator(op), values...)
		if strings.Join(values, ",") != before {
			t.Fatalf("New modified its values: %q -> %q", before, values)
		}
		if err != nil {
			return
		}
		self := r.Intersect(r)
		if !same(self, r) {
			t.Fatalf("%s ∩ itself = %s", r, self)
		}
		probes := slices.Concat(values, []string{"", "0", "1", "-1", "x", strconv.FormatInt(1<<62, 10)})
		for _, v := range probes {
			if r.Has(v) != self.Has(v) {
				t.Fatalf("%s Has(%q) = %v but its self-intersection says %v", r, v, r.Has(v), self.Has(v))
			}
		}
		if r.Intersects(r) == r.Empty() {
			t.Fatalf("%s Intersects itself = %v, Empty = %v", r, r.Intersects(r), r.Empty())
		}
		if v, ok := r.Any(); ok && !r.Has(v) {
			t.Fatalf("%s Any = %q, which it does not have", r, v)
		}
		_ = r.String()
	})
}

// FuzzParseIntBounds checks the allocation-free integer parser against
// strconv.ParseInt.
func FuzzParseIntBounds(f *testing.F) {
	for _, s := range []string{
		"", "0", "-0", "+0", "1", "-1", "+", "-", "007", "1.0", " 1", "1 ", "0x10", "1_000",
		"9223372036854775807", "9223372036854775808", "-9223372036854775808", "-9223372036854775809",
		"18446744073709551615", "18446744073709551616", "99999999999999999999", "922337203685477580",
		"9223372036854775800", "92233720368547758070", "00000000000000000000000000001", "--1", "+-1",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got, ok := parseInt(s)
		want, err := strconv.ParseInt(s, 10, 64)
		if ok != (err == nil) || (ok && got != want) {
			t.Fatalf("parseInt(%q) = %d, %v; strconv.ParseInt = %d, %v", s, got, ok, want, err)
		}
	})
}
