package main

import (
	"bytes"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// tree writes files (path → content) under a new directory and returns it.
func tree(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, data := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, []byte(data), 0o644))
	}
	return dir
}

func podJSON(name string) string {
	return `{"apiVersion":"v1","kind":"Pod","metadata":{"name":"` + name + `"},"spec":{"containers":[{"name":"c","resources":{"requests":{"cpu":"1"}}}]}}`
}

const poolYAML = `apiVersion: karpenter.sh/v1
kind: NodePool
metadata: {name: default}
spec:
  template:
    spec:
      requirements: [{key: karpenter.k8s.aws/instance-family, operator: In, values: [m6i]}]
`

// cliCase is a run of nodeplan: the exit code it must return and strings
// its stdout and stderr must contain.
type cliCase struct {
	name           string
	args           []string
	code           int
	stdout, stderr string
}

// check runs nodeplan with args and an empty stdin, asserts the exit code
// and that stdout and stderr contain the given strings, and returns them.
func check(t *testing.T, args []string, code int, stdout, stderr string) (string, string) {
	t.Helper()
	var out, errs bytes.Buffer
	got := run(args, strings.NewReader(""), &out, &errs)
	assert.Equal(t, code, got, "stdout: %s\nstderr: %s", out.String(), errs.String())
	assert.Contains(t, out.String(), stdout)
	assert.Contains(t, errs.String(), stderr)
	return out.String(), errs.String()
}

func TestHelpAndVersion(t *testing.T) {
	tests := []cliCase{
		{"-h", []string{"-h"}, exitOK, "nodeplan help [COMMAND]", ""},
		{"--help", []string{"--help"}, exitOK, "nodeplan help [COMMAND]", ""},
		{"help", []string{"help"}, exitOK, "nodeplan help [COMMAND]", ""},
		{"help provision", []string{"help", "provision"}, exitOK, "usage: nodeplan provision [-f FILE|DIR...] [flags]", ""},
		{"help version", []string{"help", "version"}, exitOK, "usage: nodeplan version", ""},
		{"help unknown", []string{"help", "scale"}, exitBadInput, "", `unknown command "scale"`},
		{"provision --help", []string{"provision", "--help"}, exitOK, "-spot-discount float", ""},
		{"provision -h", []string{"provision", "-h"}, exitOK, "-f PATH", ""},
		{"provision -h after flags", []string{"provision", "-f", "x.yaml", "-h"}, exitOK, "-R\twith -f DIR", ""},
		{"consolidate --help", []string{"consolidate", "--help"}, exitOK, "-spot-to-spot", ""},
		{"drift -h", []string{"drift", "-h"}, exitOK, "-expire-grace duration", ""},
		{"unknown flag", []string{"drift", "--bogus"}, exitBadInput, "", "flag provided but not defined: -bogus (see nodeplan drift --help)"},
		{"version", []string{"version"}, exitOK, "nodeplan ", ""},
		{"--version", []string{"--version"}, exitOK, "nodeplan ", ""},
		{"version with arguments", []string{"version", "x"}, exitBadInput, "", "takes no arguments"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			stdout, stderr := check(t, tc.args, tc.code, tc.stdout, tc.stderr)
			if tc.code == exitOK {
				assert.Empty(t, stderr)
			} else {
				assert.Empty(t, stdout)
			}
		})
	}
}

func TestVersionLine(t *testing.T) {
	settings := func(kv ...string) []debug.BuildSetting {
		var out []debug.BuildSetting
		for i := 0; i < len(kv); i += 2 {
			out = append(out, debug.BuildSetting{Key: kv[i], Value: kv[i+1]})
		}
		return out
	}
	tests := []struct {
		name string
		info *debug.BuildInfo
		want string
	}{
		{"release", &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "v0.3.1"}}, "nodeplan v0.3.1 go1.26.8"},
		{"checkout", &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "(devel)"},
			Settings: settings("vcs", "git", "vcs.revision", "750a596", "vcs.modified", "false")}, "nodeplan devel (revision 750a596) go1.26.8"},
		{"modified checkout", &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "(devel)"},
			Settings: settings("vcs.revision", "750a596", "vcs.modified", "true")}, "nodeplan devel (revision 750a596, modified) go1.26.8"},
		{"no vcs", &debug.BuildInfo{GoVersion: "go1.26.8"}, "nodeplan devel go1.26.8"},
		{"no build info", nil, "nodeplan devel (no build information)"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, versionLine(tc.info, tc.info != nil))
		})
	}
}

// TestInput covers -f DIR, -R and inputs without any object.
func TestInput(t *testing.T) {
	dir := tree(t, map[string]string{
		"b-pods.json":         podJSON("b"),
		"a-pool.yaml":         poolYAML,
		"c.yml":               "apiVersion: v1\nkind: Pod\nmetadata: {name: c}\nspec: {containers: [{name: c}]}\n",
		"notes.txt":           "not a manifest",
		".hidden/x.yaml":      "kind: [\n",
		"sub/d.yaml":          podJSON("d"),
		"sub/deeper/e.json":   podJSON("e"),
		"empty/nothing.txt":   "",
		"blank/empty.yaml":    "",
		"blank/comments.yaml": "# nothing here\n---\n---\n",
		"blank/list.yaml":     "apiVersion: v1\nitems: []\nkind: List\n",
		"nested/only/f.yaml":  podJSON("f"),
	})
	at := func(name string) string { return filepath.Join(dir, name) }
	tests := []cliCase{
		{"directory: its manifests in name order", []string{"provision", "-o", "json", "-f", at("")}, exitOK,
			`"pods": [
        "default/b",
        "default/c"
      ]`, ""},
		{"directory with -R", []string{"provision", "-o", "json", "-R", "-f", at("sub"), "-f", at("a-pool.yaml")}, exitOK,
			`"default/d",
        "default/e"`, ""},
		{"directory without -R skips subdirectories", []string{"provision", "-o", "json", "-f", at("sub"), "-f", at("a-pool.yaml")}, exitOK,
			`"scheduledPods": 1`, ""},
		{"-R reads hidden directories too", []string{"provision", "-R", "-f", at("")}, exitBadInput, "", filepath.Join(".hidden", "x.yaml") + ": document 1: malformed document"},
		{"directory without manifests", []string{"provision", "-f", at("empty")}, exitBadInput, "",
			"no objects in " + at("empty") + ": the directory has no .yaml, .yml, .json files"},
		{"manifests only in subdirectories", []string{"provision", "-f", at("nested")}, exitBadInput, "",
			"no objects in " + at("nested") + ": the directory has no .yaml, .yml, .json files (-R reads its subdirectories)"},
		{"empty file", []string{"provision", "-f", at("blank/empty.yaml")}, exitBadInput, "", "no objects in " + at("blank/empty.yaml")},
		{"empty files", []string{"consolidate", "-f", at("blank")}, exitBadInput, "",
			"no objects in " + at("blank")},
		{"empty stdin", []string{"drift", "-f", "-"}, exitBadInput, "", "no objects in stdin"},
		{"a file is read whatever its name", []string{"provision", "-f", at("notes.txt")}, exitBadInput, "", "notes.txt: document 1"},
		{"the bundled manifests load together", []string{"provision", "-R", "-f", "../../testdata/manifests/"}, exitOK,
			"converted 4 objects to v1", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) { check(t, tc.args, tc.code, tc.stdout, tc.stderr) })
	}
}

func TestReadOrder(t *testing.T) {
	dir := tree(t, map[string]string{"b.yaml": "", "a.json": "", "A.YML": "", "z/c.yaml": "", "m.yaml/x.yaml": "", "n.txt": ""})
	sources, err := read([]string{dir}, true, nil)
	require.NoError(t, err)
	var got []string
	for _, s := range sources {
		rel, err := filepath.Rel(dir, s.Name)
		require.NoError(t, err)
		got = append(got, filepath.ToSlash(rel))
	}
	assert.Equal(t, []string{"A.YML", "a.json", "b.yaml", "m.yaml/x.yaml", "z/c.yaml"}, got)
}

// TestDocSynopsis: the synopsis in the command doc (main.go) is the usage
// nodeplan help prints, line for line.
func TestDocSynopsis(t *testing.T) {
	f, err := parser.ParseFile(token.NewFileSet(), "main.go", nil, parser.ParseComments|parser.PackageClauseOnly)
	require.NoError(t, err)
	require.NotNil(t, f.Doc)
	var doc []string
	for _, c := range f.Doc.List {
		if line, ok := strings.CutPrefix(c.Text, "//\t"); ok {
			doc = append(doc, line)
		} else if len(doc) > 0 {
			break // the first code block is the synopsis
		}
	}
	_, synopsis, ok := strings.Cut(usage, "usage:\n")
	require.True(t, ok)
	synopsis, _, _ = strings.Cut(synopsis, "\n\n")
	var want []string
	for _, line := range strings.Split(synopsis, "\n") {
		want = append(want, strings.TrimPrefix(line, "  "))
	}
	assert.Equal(t, want, doc)
}
