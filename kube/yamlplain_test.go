package kube

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"sigs.k8s.io/yaml"
)

var plainJSONCases = []struct {
	name, doc string
	taken     bool // plainJSON converts it; else it leaves it to strictJSON
}{
	{"mapping", "a: 1\nb: x\n", true},
	{"no final newline", "a: 1\nb: x", true},
	{"unsorted keys", "b: 1\na: 2\nc:\n  z: 1\n  x: 2\n", true},
	{"nested mapping and sequences", "a:\n  b:\n  - x\n  - w: 1\n    z: [] \nc: {}\n", false},
	{"nested mapping and sequences, no trailing space", "a:\n  b:\n  - x\n  - w: 1\n    z: []\nc: {}\n", true},
	{"indentless sequence", "a:\n- 1\n- 2\nb: 3\n", true},
	{"sequence of mappings at the root", "- a: 1\n  b: 2\n- a: 3\n", true},
	{"sequence entry at its key's indent in an entry", "- a:\n  - x\n  b: 1\n", true},
	{"words", "a: yes\nb: No\nc: ~\nd: null\ne: on\nf: y\ng:\nh: Yes.\n", true},
	{"numbers", "a: 10\nb: -0\nc: 0x1F\nd: 017\ne: 1_000\nf: +5\ng: 18446744073709551615\nh: 0o17\n", true},
	{"number-like strings", "a: 500m\nb: 512Mi\nc: 1.2.3\nd: -foo\ne: 0xZ\nf: 1e\ng: 12:30\n", true},
	{"a float", "a: 1.5\n", false},
	{"an exponent", "a: 1e3\n", false},
	{"a dot float", "a: .5\n", false},
	{"a dot string", "a: .foo\n", true},
	{"infinity", "a: .inf\n", false},
	{"a timestamp", "a: 2001-12-14\n", false},
	{"a quoted timestamp", "a: \"2001-12-14T21:59:43Z\"\n", true},
	{"binary", "a: 0b101\n", true},
	{"not binary: left to go-yaml", "a: 0b2\n", false},
	{"go-yaml's signed binary: left to it", "a: 0b-101\n", false},
	{"underscores before the radix", "a: 0_x10\nb: -0_x1\nc: 0_o17\nd: -_0x1\ne: 0_\n", true},
	{"radix prefixes alone and uids", "a: 0x\nb: 0o\nc: 0_x\nd: 0c3f5e2a-1b2c-4d5e-8f90-000000000001\ne: 7a1b2c3d-0000-4000\n", true},
	{"a binary prefix alone is a string", "a: 0b\n", true},
	{"a key go-yaml's scanner takes", strings.Repeat("k", plainKeyMax) + ": v\n", true},
	{"a key too long for go-yaml's scanner", strings.Repeat("k", 1025) + ": v\n", false},
	{"not numbers", "a: 0x1p-2\nb: 0c3f5e2a-1b2c\nc: +-5\ne: 5d8f9c7b6\nf: 1__0\ng: 0x_1F\n", true},
	{"quoted strings", "a: \"1\"\nb: \"true\"\nc: \"x <&> y\"\nd: \"\"\n", true},
	{"an escape", "a: \"x\\ty\"\n", false},
	{"single quotes", "a: 'x'\n", false},
	{"HTML characters", "a: <b>&c\n", true},
	{"plain with colons and brackets", "image: nginx:1.27\nurl: http://x/y?z=1\nx: a[0]{1}\n", true},
	{"a duplicate key", "a: 1\na: 2\n", false},
	{"a duplicate key, unsorted", "b: 1\na: 2\nb: 3\n", false},
	{"a boolean key", "yes: 1\n", false},
	{"a one-letter boolean key", "y: 1\n", false},
	{"a numeric key", "1: x\n", false},
	{"a quoted key", "\"a\": 1\n", false},
	{"a merge key", "<<: {}\n", false},
	{"a comment", "a: 1 # c\n", false},
	{"a blank line", "a: 1\n\nb: 2\n", false},
	{"a multi-line plain scalar", "a: x\n  y\n", false},
	{"a block scalar", "a: |\n  x\n", false},
	{"an anchor", "a: &x 1\nb: *x\n", false},
	{"a tag", "a: !!str 1\n", false},
	{"a flow mapping", "a: {b: 1}\n", false},
	{"a tab", "a:\t1\n", false},
	{"a nested sequence on one line", "- - x\n", false},
	{"a lone dash", "-\n", false},
	{"bad indentation", "a:\n    b: 1\n  c: 2\n", false},
	{"a scalar document", "x\n", false},
	{"a colon in a value", "a: b: c\n", false},
	{"a value ending in a colon", "a: b:\n", false},
	{"unicode", "a: é\n", false},
	{"a document marker", "---\na: 1\n", false},
}

// plainJSON gives strictJSON's bytes for what it takes, and takes the
// documents kubectl prints.
func TestPlainJSON(t *testing.T) {
	var shared plainParser // one parser for every case, as yamlList's goroutines keep one
	for _, tc := range plainJSONCases {
		t.Run(tc.name, func(t *testing.T) {
			got, ok := plainJSON([]byte(tc.doc))
			require.Equal(t, tc.taken, ok)
			again, okAgain := shared.convert([]byte(tc.doc))
			require.Equal(t, ok, okAgain)
			assert.Equal(t, string(got), string(again), "with a parser used before")
			if ok {
				want, err := strictJSON([]byte(tc.doc))
				require.NoError(t, err)
				assert.Equal(t, string(want), string(got))
			}
		})
	}
	for name, list := range map[string][]byte{"rich": podList(3), "lean": leanPodList(3)} {
		doc, err := yaml.JSONToYAML(list)
		require.NoError(t, err)
		got, ok := plainJSON(doc)
		require.True(t, ok, name)
		want, err := strictJSON(doc)
		require.NoError(t, err)
		assert.Equal(t, string(want), string(got), name)
	}
}

// FuzzPlainJSON holds plainJSON to strictJSON on any input: what it
// converts, strictJSON converts to the same bytes.
func FuzzPlainJSON(f *testing.F) {
	for _, tc := range plainJSONCases {
		f.Add([]byte(tc.doc))
	}
	for _, tc := range yamlListCases {
		f.Add([]byte(tc.doc))
	}
	f.Fuzz(func(t *testing.T, doc []byte) {
		got, ok := plainJSON(doc)
		if !ok {
			return
		}
		want, err := strictJSON(doc)
		if err != nil {
			t.Fatalf("converted what strictJSON rejects (%v): %q", err, doc)
		}
		if string(got) != string(want) {
			t.Fatalf("plain\n%s\nstrict\n%s\nfrom %q", got, want, doc)
		}
	})
}

// plainDoc writes a random block-style document: mappings and sequences,
// nested, with keys and scalars drawn from pools that hold what plainJSON
// takes and what it must leave alone.
type plainDoc struct {
	r   *rand.Rand
	out strings.Builder
}

var (
	plainKeys    = []string{"a", "b", "name", "x.y/z", "k-1", "c_d", "Zeta", "y", "on", "Yes", "n", "1", `"q"`, "<<", "a b", "~"}
	plainScalars = []string{"1", "-2", "0x1F", "017", "500m", "512Mi", "1.5", ".5", ".x", "yes", "No", "~", "null", `"s"`, `"a\"b"`,
		`"<&>"`, "'x'", "http://x:1", "a: b", "b:", "2001-12-14", "12:30", "-x", "- x", "{}", "[]", "{a: 1}", "[1]", "&a x", "*a",
		"!t x", "|", "0b11", "1_0", "+.inf", "x y", "<&>", "9223372036854775808", "18446744073709551616", "1e3", "+", "-", ".", "0x1p-2", "+-5", "0c3f5e2a-1b2c",
		"1__0", "0x_1F", "-0b1", "0o8", "2001-12-14T21:59:43Z", "0b-101", "0b+1", "0_x10", "+_0x10"}
)

func (g *plainDoc) pick(pool []string) string { return pool[g.r.IntN(len(pool))] }

func (g *plainDoc) mapping(indent, depth int, first string) {
	for i := range 1 + g.r.IntN(4) {
		pad := strings.Repeat(" ", indent)
		if i == 0 && first != "" {
			pad = first
		}
		g.out.WriteString(pad + g.pick(plainKeys) + ":")
		g.value(indent, depth)
	}
}

func (g *plainDoc) value(indent, depth int) {
	switch n := g.r.IntN(10); {
	case depth < 4 && n == 0:
		g.out.WriteString("\n")
		g.mapping(indent+2, depth+1, "")
	case depth < 4 && n == 1:
		g.out.WriteString("\n")
		g.sequence(indent+2*g.r.IntN(2), depth+1)
	case n == 2:
		g.out.WriteString("\n") // null, or the start of what follows
	default:
		g.out.WriteString(" " + g.pick(plainScalars) + "\n")
	}
}

func (g *plainDoc) sequence(indent, depth int) {
	for range 1 + g.r.IntN(3) {
		pad := strings.Repeat(" ", indent)
		if depth < 4 && g.r.IntN(2) == 0 {
			g.mapping(indent+2, depth+1, pad+"- ")
		} else {
			g.out.WriteString(pad + "- " + g.pick(plainScalars) + "\n")
		}
	}
}

// On generated documents, plainJSON takes many and gives strictJSON's
// bytes for each it takes.
func TestPlainJSONGenerated(t *testing.T) {
	taken := 0
	const docs = 3000
	for seed := range uint64(docs) {
		g := plainDoc{r: rand.New(rand.NewPCG(seed, 7))}
		if seed%2 == 0 {
			g.mapping(0, 0, "")
		} else {
			g.sequence(0, 0)
		}
		doc := []byte(g.out.String())
		got, ok := plainJSON(doc)
		if !ok {
			continue
		}
		taken++
		want, err := strictJSON(doc)
		require.NoError(t, err, "%q", doc)
		require.Equal(t, string(want), string(got), "%q", doc)
	}
	t.Logf("plainJSON took %d of %d documents", taken, docs)
	assert.Greater(t, taken, docs/10)
}
