package kube_test

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/util/validation"

	"github.com/nodeplan/nodeplan/requirements"
)

// The core module cannot import apimachinery, so its label validation is its
// own code; these tests hold it to apimachinery's verdict on every key and
// value they try: requirements.ValidateKey must accept exactly what
// validation.IsQualifiedName accepts, and requirements.ValidateValue exactly
// what validation.IsValidLabelValue accepts.

// agreeKey reports a disagreement on key, or "" when both accept or both
// reject it.
func agreeKey(key string) string {
	want := len(validation.IsQualifiedName(key)) == 0
	if err := requirements.ValidateKey(key); (err == nil) != want {
		return disagreement("key", key, want, err)
	}
	return ""
}

// agreeValue is agreeKey for label values.
func agreeValue(v string) string {
	want := len(validation.IsValidLabelValue(v)) == 0
	if err := requirements.ValidateValue(v); (err == nil) != want {
		return disagreement("value", v, want, err)
	}
	return ""
}

func disagreement(what, s string, want bool, err error) string {
	if len(s) > 80 {
		s = fmt.Sprintf("%s…%s (%d bytes)", s[:40], s[len(s)-20:], len(s))
	}
	return fmt.Sprintf("%s %q: apimachinery valid=%v, nodeplan error=%v", what, s, want, err)
}

// trickyStrings are the edges of both definitions: lengths 0, 1, 62-64,
// 252-254 in every part, each character class at each position, several
// slashes, dots in a row, unicode, control characters and invalid UTF-8.
func trickyStrings() []string {
	rep := strings.Repeat
	out := []string{
		"", "a", "A", "0", "-", "_", ".", "/", "a/", "/a", "a/b", "a/b/c", "//", "a//b",
		"a-b", "a_b", "a.b", "-a", "a-", "_a", "a_", ".a", "a.", "a..b", "a--b", "a__b",
		"Example.com/a", "example.com/A", "ex_ample.com/a", "ex-ample.com/a", "-ex.com/a", "ex-.com/a",
		"ex..com/a", ".ex.com/a", "ex.com./a", "1.2.3/a", "example.com/-a", "example.com/a-",
		"example.com/a.b_c-D", "kubernetes.io/hostname", "karpenter.sh/nodepool", "topology.kubernetes.io/zone",
		" a", "a ", "a b", "a\tb", "a\n", "\na", "a\x00", "a:b", "a=b", `"a"`, "a,b", "a;b", "a@b", "a+b",
		"ä", "aä", "äa", "a/ä", "ä.com/a", "日本", "a\u200bb", "\xff", "a\xffb", "a/\xff",
		rep("a", 62), rep("a", 63), rep("a", 64), rep("a", 65),
		rep("p", 62) + "/n", rep("p", 63) + "/n", rep("p", 64) + "/n", rep("p", 100) + ".com/n",
		rep("p", 252) + "/n", rep("p", 253) + "/n", rep("p", 254) + "/n",
		rep("a.", 126) + "a/n", rep("a.", 126) + "ab/n", rep("a.", 127) + "a/n",
		"p/" + rep("n", 63), "p/" + rep("n", 64), rep("p", 253) + "/" + rep("n", 63),
		rep("p", 253) + "/" + rep("n", 64), "a" + rep("-", 61) + "a", "a" + rep(".", 62) + "a",
	}
	return out
}

func TestLabelKeyAgreesWithApimachinery(t *testing.T) {
	for _, s := range append(trickyStrings(), generated(rand.New(rand.NewPCG(1, 2)), 20000)...) {
		if msg := agreeKey(s); msg != "" {
			t.Error(msg)
		}
	}
}

func TestLabelValueAgreesWithApimachinery(t *testing.T) {
	for _, s := range append(trickyStrings(), generated(rand.New(rand.NewPCG(3, 4)), 20000)...) {
		if msg := agreeValue(s); msg != "" {
			t.Error(msg)
		}
	}
}

// alphabet weighs the characters that decide validity: both cases,
// digits, the three punctuation marks labels allow, the slash of a key's
// prefix, and a few that are never allowed.
var alphabet = []string{
	"a", "b", "z", "A", "Z", "0", "9", "-", "-", "_", "_", ".", ".", ".", "/", "/",
	" ", ":", "=", `"`, "ä", "日", "\x00", "\xff",
}

// generated draws n strings, most of them near the length limits: a
// string is one or more parts joined by '.' and optionally a '/' and a
// name, each part drawn from alphabet (mostly lowercase letters, so that
// many keys come out valid) with a length around 1, 63 or 253.
func generated(rng *rand.Rand, n int) []string {
	out := make([]string, 0, n)
	for range n {
		var b strings.Builder
		if rng.IntN(2) == 0 {
			for p := range 1 + rng.IntN(4) {
				if p > 0 {
					b.WriteByte('.')
				}
				b.WriteString(part(rng))
			}
			b.WriteByte('/')
		}
		b.WriteString(part(rng))
		out = append(out, b.String())
	}
	return out
}

// part is one run of characters whose length is near an edge.
func part(rng *rand.Rand) string {
	lengths := []int{0, 1, 2, 3, 62, 63, 64, 120, 252, 253, 254}
	n := lengths[rng.IntN(len(lengths))] + rng.IntN(2) - rng.IntN(2)
	var b strings.Builder
	for i := 0; i < n; i++ {
		switch {
		case rng.IntN(8) == 0:
			b.WriteString(alphabet[rng.IntN(len(alphabet))])
		default:
			b.WriteByte(byte('a' + rng.IntN(26)))
		}
	}
	return b.String()
}

// FuzzLabelAgreesWithApimachinery checks both definitions on arbitrary
// strings; the tables above are its seed corpus.
func FuzzLabelAgreesWithApimachinery(f *testing.F) {
	for _, s := range trickyStrings() {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if msg := agreeKey(s); msg != "" {
			t.Error(msg)
		}
		if msg := agreeValue(s); msg != "" {
			t.Error(msg)
		}
	})
}
