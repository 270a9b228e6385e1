package kube

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// readerDocuments is what YAMLReader reads of data, Read by Read.
func readerDocuments(data []byte) ([]string, error) {
	docs, err := readYAML(data)
	return strs(docs), err
}

func strs(docs [][]byte) []string {
	var out []string
	for _, d := range docs {
		out = append(out, string(d))
	}
	return out
}

var yamlCutCases = []struct {
	name, data string
	cut        bool // yamlCut takes it; else the reader does
}{
	{"empty", "", true},
	{"one document", "a: 1\nb: 2\n", true},
	{"no final newline", "a: 1\nb: 2", true},
	{"two documents", "a: 1\n---\nb: 2\n", true},
	{"a leading separator is the first line", "---\na: 1\n---\nb: 2\n", true},
	{"a separator alone", "---\n---\na: 1\n", true},
	{"separators with spaces and comments", "a: 1\n---   \nb: 2\n--- # next\nc: 3\n---", true},
	{"a separator at the end without newline", "a: 1\n---", true},
	{"a lone separator without newline", "---", true},
	{"blank lines", "\n\n---\n\n", true},
	{"an indented dash line is content", "a:\n  ---\n", true},
	{"a document end marker is content", "a: 1\n...\n---\nb: 2\n", true},
	{"four dashes: the reader fails", "a: 1\n----\nb: 2\n", false},
	{"text after a separator: the reader fails", "a: 1\n--- b: 2\n", false},
	{"CRLF", "a: 1\r\n---\r\nb: 2\r\n", false},
	{"a container log section: stripLogs first", "a: 1\n==== START logs for container c of pod ns/p ====\nx: y\n", false},
}

// yamlCut cuts what YAMLReader reads, document for document; what it does
// not take, the reader reads, and yamlDocuments gives what the reader
// does, its errors included.
func TestYAMLCut(t *testing.T) {
	for _, tc := range yamlCutCases {
		t.Run(tc.name, func(t *testing.T) {
			want, wantErr := readerDocuments([]byte(tc.data))
			got, ok := yamlCut([]byte(tc.data))
			require.Equal(t, tc.cut, ok)
			if ok {
				require.NoError(t, wantErr)
				assert.Equal(t, want, strs(got))
			}
			docs, err := yamlDocuments([]byte(tc.data))
			assert.Equal(t, wantErr, err)
			assert.Equal(t, want, strs(docs))
		})
	}
}

// FuzzYAMLCut holds yamlCut to YAMLReader on any input: when it cuts
// data, the reader reads the same documents without error.
func FuzzYAMLCut(f *testing.F) {
	for _, tc := range yamlCutCases {
		f.Add([]byte(tc.data))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		got, ok := yamlCut(data)
		if !ok {
			return
		}
		want, err := readerDocuments(data)
		if err != nil {
			t.Fatalf("cut what the reader rejects (%v): %q", err, data)
		}
		if g := strs(got); !assert.ObjectsAreEqual(want, g) {
			t.Fatalf("cut %q, the reader read %q, from %q", g, want, data)
		}
	})
}
