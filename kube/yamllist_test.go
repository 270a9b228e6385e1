package kube

import (
	"encoding/json"
	"fmt"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"sigs.k8s.io/yaml"
)

// yamlListCases are documents of the list shape and near it; split says
// whether yamlList converts it in runs of one item, cut at every entry.
var yamlListCases = []struct {
	name, doc string
	split     bool // yamlList converts it in parts
}{
	{"kubectl", "apiVersion: v1\nitems:\n- kind: Pod\n  metadata:\n    name: a\n- kind: Pod\n  metadata:\n    name: b\n- kind: Pod\nkind: List\nmetadata:\n  resourceVersion: \"\"\n", true},
	{"indented entries", "kind: List\nitems:\n  - a: 1\n  - b: 2\n  - c: [1, 2]\n", false},
	{"comments and blank lines", "kind: List\n# top\nitems:\n# before\n\n- a: 1\n# between, first column\n  # indented\n- b: |+\n    kept\n\n- c: >\n    folded\n    text\n\nkind2: x\n", true},
	{"entry on its own line", "items:\n-\n  a: 1\n-\n- null\n- b\n", true},
	{"anchor in the entry before", "items:\n- &x {a: 1}\n- *x\n- c\n", false},
	{"anchor redefined in the items", "a: &x 1\nitems:\n- &x 2\n- b\n- c\nb: *x\n", false},
	{"alias in a flow", "a: &x 1\nitems:\n- [*x]\n- b\n", false},
	{"ampersand in text", "items:\n- url: http://a/?b=1&c=2\n- x*y\n- c\n", true},
	{"carriage return ending a document", "kind: List\nitems:\n- a\r...\n- b\n- c\n", false},
	{"next line", "items:\n- a\u0085...\n- b\n- c\n", false},
	{"line separator", "items:\n- a\u2028- b\n- c\n", false},
	{"marker spelt with an escape", "a: \"x\nitems:\n- b\n- c\n\"\nitems: [\"nodeplan-items-of-the-list-8f1c2\\x61\"]\n", false},
	{"marker spelt, items in a flow", "a: {b: 1,\nitems:\n- b\n- c\n}\nitems: [\"nodeplan-items-of-the-list-8f1c2\\x61\"]\n", false},
	{"document end", "a: 1\nitems: [\"x\"]\n...\nitems:\n- b\n- c\n", false},
	{"tag", "a: !!str 1\nitems:\n- b\n- c\n", false},
	{"byte order mark", "a: 1\nitems:\n- b\n- c\n\ufeffd: 2\n", false},
	{"anchor across runs", "items:\n- a\n- &x {a: 1}\n- *x\n", false},
	{"quoted string over the cut", "items:\n- a: \"one\n- two\"\n- b\n- c\n", false},
	{"flow over the cut", "items:\n- [1,\n- 2]\n- b\n- c\n", false},
	{"items inside a string", "a: \"x\nitems:\n- b\n- c\n- d\"\n", false},
	{"items inside a flow value", "a: {b: 1,\nitems:\n- x\n- y\n- z\n}\n", false},
	{"flow root", "{a: 1,\nitems:\n- x\n- y\n- z\n}\n", false},
	{"items twice", "items:\n- a\n- b\n- c\nitems: []\n", false},
	{"duplicate key in an item", "items:\n- a: 1\n  a: 2\n- b\n- c\n", false},
	{"bad indentation after", "items:\n  - a\n  - b\n  - c\n x: 1\n", false},
	{"not a list", "kind: Pod\nmetadata:\n  name: a\n", false},
	{"items not a sequence", "items:\nkind: List\n", false},
	{"crlf", "items:\r\n- a\r\n- b\r\n- c\r\n", false},
	{"directive", "%YAML 1.1\nitems:\n- a\n- b\n- c\n", false},
	{"marker in the document", "items:\n- nodeplan-items-of-the-list-8f1c2a\n- b\n- c\n", false},
	{"html characters", "items:\n- a: <&>\n- b: \"\\u2028\"\n- c: é\n", true},
}

// TestYAMLListAsWhole: what yamlList converts in parts is byte for byte
// what yaml.YAMLToJSONStrict converts whole; what it leaves alone, the
// whole conversion reads (or rejects) as it always did.
func TestYAMLListAsWhole(t *testing.T) {
	for _, tc := range yamlListCases {
		t.Run(tc.name, func(t *testing.T) {
			want, wantErr := yaml.YAMLToJSONStrict([]byte(tc.doc))
			for run := 1; run <= 2; run++ {
				got, ok := yamlList([]byte(tc.doc), 1, run)
				if run == 1 {
					assert.Equal(t, tc.split, ok)
				}
				if ok {
					require.NoError(t, wantErr)
					assert.Equal(t, string(want), string(got.whole()))
					assert.NoError(t, partsAsWhole(got))
				}
			}
			out, err := yamlToJSON([]byte(tc.doc))
			assert.Equal(t, string(want), string(out))
			assert.Equal(t, wantErr, err)
		})
	}
}

// TestYAMLListLarge: a kubectl-shaped list of 1,000 pods is converted in
// parts by the defaults, with the whole conversion's bytes.
func TestYAMLListLarge(t *testing.T) {
	data, err := yaml.JSONToYAML(podList(1000))
	require.NoError(t, err)
	require.True(t, strings.HasPrefix(string(data), "apiVersion: v1\nitems:\n- "), "kubectl's shape")
	want, err := yaml.YAMLToJSONStrict(data)
	require.NoError(t, err)
	got, ok := yamlList(data, yamlSplitItems, yamlRunItems)
	require.True(t, ok)
	assert.Equal(t, string(want), string(got.whole()))
	require.NoError(t, partsAsWhole(got))
	assert.Len(t, got.items, 1000)
}

// partsAsWhole reports how p's items differ from those of its whole JSON,
// cut as Load cuts a List, and whether its rest is the whole but for the
// items member's value.
func partsAsWhole(p listParts) error {
	whole := p.whole()
	c := newChecker()
	items, err := c.listItems(whole)
	if err != nil {
		return err
	}
	if len(items) != len(p.items) {
		return fmt.Errorf("%d items, the whole has %d", len(p.items), len(items))
	}
	for i := range items {
		if string(items[i]) != string(p.items[i]) {
			return fmt.Errorf("item %d: %s, the whole has %s", i, p.items[i], items[i])
		}
	}
	if !strings.HasPrefix(string(whole), string(p.rest[:p.at])) || !strings.HasSuffix(string(whole), string(p.rest[p.end:])) {
		return fmt.Errorf("the rest %s is not around the whole's items: %s", p.rest, whole)
	}
	return nil
}

// FuzzYAMLList holds yamlList to strictJSON on any input, with
// runs of one and two items: when it converts a document in parts, the
// whole conversion accepts it and gives the same bytes.
func FuzzYAMLList(f *testing.F) {
	for _, tc := range yamlListCases {
		f.Add([]byte(tc.doc))
	}
	f.Fuzz(func(t *testing.T, doc []byte) {
		for run := 1; run <= 2; run++ {
			got, ok := yamlList(doc, 1, run)
			if !ok {
				continue
			}
			want, err := strictJSON(doc)
			if err != nil {
				t.Fatalf("runs of %d: converted in parts what the whole conversion rejects (%v):\n%q", run, err, doc)
			}
			if string(got.whole()) != string(want) {
				t.Fatalf("runs of %d: in parts\n%s\nwhole\n%s\nfrom %q", run, got.whole(), want, doc)
			}
			if err := partsAsWhole(got); err != nil {
				t.Fatalf("runs of %d: %v\nfrom %q", run, err, doc)
			}
		}
	})
}

// TestLoadListInParts: a long YAML list, read from yamlList's parts
// (appendParts), loads as its JSON does: the same pods on one goroutine
// and on two; and when an item is wrong, or the document is no List, the
// same error.
func TestLoadListInParts(t *testing.T) {
	good := podList(headsMin + headsChunk)
	var items []json.RawMessage
	var list struct {
		APIVersion string            `json:"apiVersion"`
		Kind       string            `json:"kind"`
		Items      []json.RawMessage `json:"items"`
	}
	require.NoError(t, json.Unmarshal(good, &list))
	items = list.Items
	variant := func(kind string, bad int) []byte {
		l := list
		l.Kind, l.Items = kind, slices.Clone(items)
		if bad >= 0 {
			l.Items[bad] = json.RawMessage(`{"apiVersion":"v1","metadata":{"name":"x"}}`) // no kind in a List
		}
		data, err := json.Marshal(l)
		require.NoError(t, err)
		return data
	}
	for _, tc := range []struct {
		name  string
		data  []byte
		fails bool
	}{
		{"kubectl's list", good, false},
		{"a PodList", variant("PodList", -1), false},
		{"an item without kind", variant("List", headsMin+7), true},
		{"no list", variant("Pod", -1), true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			doc, err := yaml.JSONToYAML(tc.data)
			require.NoError(t, err)
			parts, ok := yamlList(doc, yamlSplitItems, yamlRunItems)
			require.True(t, ok, "converted in parts")
			require.Len(t, parts.items, len(items))
			for _, procs := range []int{1, 2} {
				defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
				want, wantErr := Load(Source{Name: "f", Data: tc.data})
				got, err := Load(Source{Name: "f", Data: doc})
				require.Equal(t, tc.fails, wantErr != nil, "%v", wantErr)
				if wantErr != nil {
					require.Error(t, err)
					assert.Equal(t, wantErr.Error(), err.Error())
					continue
				}
				require.NoError(t, err)
				require.Len(t, got.Pods, len(items))
				assert.Equal(t, want.Pods, got.Pods)
			}
		})
	}
}

// yamlToJSON is yamlDoc's JSON, a list's parts spliced into one document.
func yamlToJSON(doc []byte) ([]byte, error) {
	d, err := yamlDoc(doc)
	if d.list != nil {
		return d.list.whole(), err
	}
	return d.raw, err
}
