package kube

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"sigs.k8s.io/yaml"
)

// strictJSONCases are documents whose mapping keys stay apart in JSON:
// strictJSON converts them as yaml.YAMLToJSONStrict does.
var strictJSONCases = []string{
	"", "a: 1\n", "a: [1, 2.5, true, null, ~, \"x\"]\n", "1: a\n2: b\n", "true: a\nfalse: b\n", "1.5: a\n.inf: b\n-.inf: c\n.nan: d\n",
	"0x1f: a\n", "a: &x {b: 1}\nc: *x\n", "!!str 1: a\n", "a:\n  b:\n  - c: d\n    e: [f]\n", "? [a]\n: b\n", "? {a: b}\n: c\n",
	"a: 1\na: 2\n", "- a\n- b\n", "a: b: c\n", "\"\": a\n", "~: a\n", "a: !!binary aGk=\n", "a: 2001-12-14\n", "a: 1_000\n",
}

// TestStrictJSONAsYAMLToJSONStrict: where no two keys collide, strictJSON
// gives yaml.YAMLToJSONStrict's bytes, or its error word for word (a null
// key's in words of its own).
func TestStrictJSONAsYAMLToJSONStrict(t *testing.T) {
	docs := strictJSONCases
	for _, tc := range yamlListCases {
		docs = append(docs, tc.doc)
	}
	for _, doc := range docs {
		want, wantErr := yaml.YAMLToJSONStrict([]byte(doc))
		got, err := strictJSON([]byte(doc))
		if wantErr != nil {
			require.Error(t, err, "%q", doc)
			if kt := (*KeyTypeError)(nil); !errors.As(err, &kt) { // its own words
				assert.Equal(t, wantErr.Error(), err.Error(), "%q", doc)
			}
			continue
		}
		require.NoError(t, err, "%q", doc)
		assert.Equal(t, string(want), string(got), "%q", doc)
	}
}

// TestStrictJSONFirstError: of several errors in one document, the one
// reported is the same on every run: the first in key order.
func TestStrictJSONFirstError(t *testing.T) {
	doc := []byte("b: {1: x, '1': y}\na: {true: x, 'true': y}\nc: {~: z}\n")
	for range 20 {
		_, err := strictJSON(doc)
		var kc *KeyCollisionError
		require.ErrorAs(t, err, &kc)
		require.Equal(t, "a", kc.Path)
	}
	_, err := strictJSON([]byte("b: {~: a, c: {~: c}}"))
	var kt *KeyTypeError
	require.ErrorAs(t, err, &kt)
	assert.EqualError(t, err, "yaml: the key <nil> (<nil>) in b is not a string, a number or a boolean, which a JSON key must be")
}

// TestStrictJSONKeyCollision: two keys of one mapping that are one key in
// JSON are an error naming both, the JSON key and where the mapping is,
// the same on every run (yaml.YAMLToJSONStrict keeps either value, by map
// order).
func TestStrictJSONKeyCollision(t *testing.T) {
	tests := []struct {
		doc, path, key, msg string
	}{
		{"{1: a, '1': b}", "", "1", `yaml: the keys "1" (string) and 1 (int) are both "1" in JSON, which cannot tell them apart`},
		{"a:\n  b:\n  - {true: x, 'true': y}\n", "a.b[0]", "true",
			`yaml: the keys "true" (string) and true (bool) in a.b[0] are both "true" in JSON, which cannot tell them apart`},
		{"- x\n- {1.0: a, 1: b}\n", "[1]", "1", `yaml: the keys 1 (float64) and 1 (int) in [1] are both "1" in JSON, which cannot tell them apart`},
		{"a: {b: {.inf: 1, '.inf': 2}}\n", "a.b", ".inf",
			`yaml: the keys ".inf" (string) and +Inf (float64) in a.b are both ".inf" in JSON, which cannot tell them apart`},
		{"{1: a, '1': b, 1.0: c}", "", "1", `yaml: the keys "1" (string) and 1 (float64) are both "1" in JSON, which cannot tell them apart`},
		{"a.b: {'': {'[0]': {true: x, 'true': y}}}\n", `["a.b"][""]["[0]"]`, "true",
			`yaml: the keys "true" (string) and true (bool) in ["a.b"][""]["[0]"] are both "true" in JSON, which cannot tell them apart`},
		{"{.nan: a, .NaN: b}", "", ".nan", `yaml: the keys NaN (float64) and NaN (float64) are both ".nan" in JSON, which cannot tell them apart`},
	}
	for _, tc := range tests {
		var first string
		for run := range 20 {
			_, err := strictJSON([]byte(tc.doc))
			var kc *KeyCollisionError
			require.ErrorAs(t, err, &kc, "%q", tc.doc)
			assert.Equal(t, tc.path, kc.Path, "%q", tc.doc)
			assert.Equal(t, tc.key, kc.Key, "%q", tc.doc)
			if run == 0 {
				first = err.Error()
				assert.Equal(t, tc.msg, first)
			}
			require.Equal(t, first, err.Error(), "%q: the same error on every run", tc.doc)
		}
	}
}

// TestYAMLListKeyCollision: a collision in an item of a list long enough
// to convert in parts is the whole document's error, with the item's
// path.
func TestYAMLListKeyCollision(t *testing.T) {
	var b strings.Builder
	b.WriteString("apiVersion: v1\nitems:\n")
	for i := range 300 {
		if i == 270 {
			b.WriteString("- {1: a, '1': b}\n")
			continue
		}
		fmt.Fprintf(&b, "- {name: p%d}\n", i)
	}
	b.WriteString("kind: List\n")
	_, err := yamlToJSON([]byte(b.String()))
	var kc *KeyCollisionError
	require.ErrorAs(t, err, &kc)
	assert.Equal(t, "items[270]", kc.Path)
}

// TestLoadKeyCollision: Load names the file and document, and the error
// is a *KeyCollisionError under ErrMalformed.
func TestLoadKeyCollision(t *testing.T) {
	_, err := Load(Source{Name: "c.yaml", Data: []byte("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\n---\n" +
		"apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\n  labels: {1: a, \"1\": b}\nspec: {containers: [{name: c}]}\n")})
	require.ErrorIs(t, err, ErrMalformed)
	var kc *KeyCollisionError
	require.True(t, errors.As(err, &kc))
	assert.Equal(t, "metadata.labels", kc.Path)
	assert.Contains(t, err.Error(), "c.yaml: document 2: ")
}

// FuzzStrictJSON holds strictJSON to yaml.YAMLToJSONStrict on any input
// where no two keys collide: the same bytes, or an error for an error
// (the text may differ where a document has several errors:
// yaml.YAMLToJSONStrict reports one by map order, strictJSON the first in
// key order).
func FuzzStrictJSON(f *testing.F) {
	for _, doc := range strictJSONCases {
		f.Add([]byte(doc))
	}
	f.Add([]byte("{1: a, '1': b}"))
	f.Fuzz(func(t *testing.T, doc []byte) {
		got, err := strictJSON(doc)
		var kc *KeyCollisionError
		if errors.As(err, &kc) {
			return // yaml.YAMLToJSONStrict's answer depends on map order
		}
		want, wantErr := yaml.YAMLToJSONStrict(doc)
		if (err != nil) != (wantErr != nil) {
			t.Fatalf("%q: error %v, yaml.YAMLToJSONStrict's %v", doc, err, wantErr)
		}
		if string(got) != string(want) {
			t.Fatalf("%q: %s, yaml.YAMLToJSONStrict's %s", doc, got, want)
		}
	})
}
