package resources

import "testing"

func FuzzParseQuantity(f *testing.F) {
	for _, s := range []string{
		"0", "1", "100m", "1.5", "2Gi", "500M", "1e3", "0.5Ki", "+1", ".5", "1E3", "12e-3",
		"-1.5Gi", "9223372036854775807", "9Ei", "1.0000000000000000000001", "0.000000000001Ki",
		"1e-999999", "7.99999Ei", "", ".", "1.1.M", "1e", "12E", "3.001n", "1.3E+6",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		q, err := ParseQuantity(s)
		if err != nil {
			return
		}
		out := q.String()
		back, err := ParseQuantity(out)
		if err != nil {
			t.Fatalf("ParseQuantity(%q) = %s, which does not re-parse: %v", s, out, err)
		}
		if back.Cmp(q) != 0 {
			t.Fatalf("ParseQuantity(%q) = %s, re-parsed as %s", s, out, back)
		}
		if v, w := q.Value(), back.Value(); v != w {
			t.Fatalf("Value of %q = %d, of %s = %d", s, v, out, w)
		}
	})
}
