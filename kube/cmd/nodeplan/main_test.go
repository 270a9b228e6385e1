package main

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var update = flag.Bool("update", false, "rewrite the golden files in kube/testdata/golden")

const sample = "../../testdata/cluster.yaml"

func TestGolden(t *testing.T) {
	tests := []struct{ format, file string }{
		{"table", "provision.txt"},
		{"json", "provision.json"},
		{"yaml", "provision.yaml"},
	}
	for _, tc := range tests {
		t.Run(tc.format, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			code := run([]string{"provision", "-f", sample, "-o", tc.format}, nil, &stdout, &stderr)
			assert.Equal(t, exitUnschedulable, code, "the sample has one pod no instance type holds; stderr: %s", stderr.String())
			golden := filepath.Join("..", "..", "testdata", "golden", tc.file)
			if *update {
				require.NoError(t, os.WriteFile(golden, stdout.Bytes(), 0o644))
			}
			want, err := os.ReadFile(golden)
			require.NoError(t, err)
			assert.Equal(t, string(want), stdout.String())
		})
	}
}

func TestExitCodes(t *testing.T) {
	dir := t.TempDir()
	write := func(name, data string) string {
		p := filepath.Join(dir, name)
		require.NoError(t, os.WriteFile(p, []byte(data), 0o644))
		return p
	}
	pool := write("pool.yaml", `apiVersion: karpenter.sh/v1
kind: NodePool
metadata: {name: default}
spec:
  template:
    spec:
      requirements: [{key: karpenter.k8s.aws/instance-family, operator: In, values: [m6i]}]
`)
	pod := write("pod.yaml", `{"apiVersion":"v1","kind":"Pod","metadata":{"name":"a"},"spec":{"containers":[{"name":"c","resources":{"requests":{"cpu":"1"}}}]}}`)
	bad := write("bad.yaml", "apiVersion: v1\nkind: Pod\n---\nkind: [\n")
	catalog := write("catalog.json", "{not json")
	tests := []struct {
		name   string
		args   []string
		code   int
		stdout string
		stderr string
	}{
		{"all scheduled", []string{"provision", "-f", pool, "-f", pod}, exitOK, "1 new node, 1 pod scheduled, 0 unschedulable", ""},
		{"files as arguments and stdin", []string{"provision", "-o", "json", pool, "-"}, exitOK, `"newNodes": 1`, ""},
		{"no nodepool", []string{"provision", "-f", pod}, exitUnschedulable, "NoNodePool", ""},
		{"no command", nil, exitBadInput, "", "usage: nodeplan provision"},
		{"unknown command", []string{"scale"}, exitBadInput, "", `unknown command "scale"`},
		{"consolidate missing", []string{"consolidate", "-f", pod}, exitBadInput, "", "consolidate is not available yet"},
		{"drift missing", []string{"drift"}, exitBadInput, "", "drift is not available yet"},
		{"no files", []string{"provision"}, exitBadInput, "", "no manifest given"},
		{"bad output", []string{"provision", "-f", pod, "-o", "xml"}, exitBadInput, "", `-o "xml": want table, json or yaml`},
		{"bad spot discount", []string{"provision", "-f", pod, "--spot-discount", "1.5"}, exitBadInput, "", "--spot-discount 1.5"},
		{"unknown flag", []string{"provision", "--bogus"}, exitBadInput, "", "flag provided but not defined: -bogus"},
		{"missing file", []string{"provision", "-f", filepath.Join(dir, "nope.yaml")}, exitBadInput, "", "nope.yaml: no such file"},
		{"malformed manifest", []string{"provision", "-f", bad}, exitBadInput, "", "bad.yaml: document 2: malformed document"},
		{"bad catalog file", []string{"provision", "-f", pod, "--catalog", catalog}, exitBadInput, "", "--catalog " + catalog},
		{"missing catalog file", []string{"provision", "-f", pod, "--catalog", filepath.Join(dir, "none.json")}, exitBadInput, "", "--catalog: open"},
		{"help", []string{"help"}, exitOK, "usage:", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			code := run(tc.args, strings.NewReader(`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"s"}}`), &stdout, &stderr)
			assert.Equal(t, tc.code, code, "stdout: %s\nstderr: %s", stdout.String(), stderr.String())
			assert.Contains(t, stdout.String(), tc.stdout)
			assert.Contains(t, stderr.String(), tc.stderr)
		})
	}
}
