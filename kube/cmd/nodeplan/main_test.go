package main

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var update = flag.Bool("update", false, "rewrite the golden files in kube/testdata/golden")

const sample = "../../testdata/cluster.yaml"

func TestGolden(t *testing.T) {
	tests := []struct{ format, file string }{
		{"table", "provision.txt"},
		{"wide", "provision-wide.txt"},
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
	pool := write("pool.yaml", poolYAML)
	pod := write("pod.yaml", podJSON("a"))
	bad := write("bad.yaml", "apiVersion: v1\nkind: Pod\n---\nkind: [\n")
	catalog := write("catalog.json", "{not json")
	tests := []cliCase{
		{"all scheduled", []string{"provision", "-f", pool, "-f", pod}, exitOK, "1 new node, 1 pod scheduled, 0 unschedulable", ""},
		{"files as arguments and stdin", []string{"provision", "-o", "json", pool, "-"}, exitOK, `"newNodes": 1`, ""},
		{"no nodepool", []string{"provision", "-f", pod}, exitUnschedulable, "NoNodePool", ""},
		{"no command", nil, exitBadInput, "", "  nodeplan provision [-f"},
		{"unknown command", []string{"scale"}, exitBadInput, "", `unknown command "scale"`},
		{"no files", []string{"provision"}, exitBadInput, "", "no manifest given"},
		{"bad output", []string{"provision", "-f", pod, "-o", "xml"}, exitBadInput, "", `-o "xml": want table, wide, json or yaml`},
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

func TestGoldenConsolidateDrift(t *testing.T) {
	tests := []struct {
		name string
		args []string
		file string
	}{
		{"consolidate", []string{"consolidate", "-f", "../../testdata/consolidate.yaml"}, "consolidate.txt"},
		{"consolidate json", []string{"consolidate", "-f", "../../testdata/consolidate.yaml", "-o", "json"}, "consolidate.json"},
		{"drift", []string{"drift", "-f", "../../testdata/drift.yaml", "--now", "2025-06-01T12:00:00Z"}, "drift.txt"},
		{"drift json", []string{"drift", "-f", "../../testdata/drift.yaml", "--now", "2025-06-01T12:00:00Z", "-o", "json"}, "drift.json"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			code := run(tc.args, nil, &stdout, &stderr)
			require.Equal(t, exitOK, code, "stderr: %s", stderr.String())
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

// TestNowDefault checks the documented rule: without --now the newest
// creationTimestamp decides, never the clock, unless there is none.
func TestNowDefault(t *testing.T) {
	clock := func() time.Time { return time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC) }
	s, err := load(config{files: files{"../../testdata/consolidate.yaml"}, catalog: "aws"}, nil, clock)
	require.NoError(t, err)
	assert.Equal(t, "2025-06-01T11:58:00Z", s.now.Format(time.RFC3339))
	assert.Equal(t, "newest creationTimestamp", s.nowFrom)
	s, err = load(config{files: files{"-"}, catalog: "aws"}, strings.NewReader(`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"s"}}`), clock)
	require.NoError(t, err)
	assert.Equal(t, clock(), s.now)
	assert.Equal(t, "clock", s.nowFrom)
}

func TestBadInputConsolidateDrift(t *testing.T) {
	dir := t.TempDir()
	write := func(name, data string) string {
		p := filepath.Join(dir, name)
		require.NoError(t, os.WriteFile(p, []byte(data), 0o644))
		return p
	}
	badPool := write("pool.yaml", "apiVersion: karpenter.sh/v1\nkind: NodePool\nmetadata: {name: p}\n"+
		"spec: {template: {spec: {requirements: []}}, disruption: {consolidateAfter: soon}}\n")
	badAMI := write("class.yaml", "apiVersion: karpenter.k8s.aws/v1\nkind: EC2NodeClass\nmetadata: {name: c}\n"+
		"spec: {amiSelectorTerms: [{alias: al2023@latest}]}\nstatus: {amis: [{name: x}]}\n")
	badTerm := write("term.yaml", "apiVersion: karpenter.k8s.aws/v1\nkind: EC2NodeClass\nmetadata: {name: c}\n"+
		"spec: {subnetSelectorTerms: [{}]}\n")
	badVolume := write("vol.yaml", "apiVersion: karpenter.k8s.aws/v1\nkind: EC2NodeClass\nmetadata: {name: c}\n"+
		"spec: {blockDeviceMappings: [{deviceName: /dev/xvda, ebs: {volumeSize: huge}}]}\n")
	badClaim := write("claim.yaml", "apiVersion: karpenter.sh/v1\nkind: NodeClaim\nmetadata: {name: nc}\nstatus: {nodeName: 7}\n")
	dupClass := write("dup.yaml", "apiVersion: karpenter.k8s.aws/v1\nkind: EC2NodeClass\nmetadata: {name: c}\n---\n"+
		"apiVersion: karpenter.k8s.aws/v1\nkind: EC2NodeClass\nmetadata: {name: c}\n")
	tests := []struct {
		name   string
		args   []string
		stderr string
	}{
		{"consolidate no files", []string{"consolidate"}, "no manifest given"},
		{"consolidate yaml output", []string{"consolidate", "-f", badAMI, "-o", "yaml"}, `-o "yaml": want table or json`},
		{"consolidate bad now", []string{"consolidate", "-f", "../../testdata/consolidate.yaml", "--now", "yesterday"}, `--now "yesterday"`},
		{"consolidate bad pool", []string{"consolidate", "-f", badPool}, "pool.yaml: document 1: NodePool p: spec.disruption.consolidateAfter"},
		{"drift bad ami", []string{"drift", "-f", badAMI}, "class.yaml: document 1: EC2NodeClass c: status.amis[0].id: is empty"},
		{"drift bad term", []string{"drift", "-f", badTerm}, "term.yaml: document 1: EC2NodeClass c: spec.subnetSelectorTerms[0]: selects by nothing"},
		{"drift bad volume", []string{"drift", "-f", badVolume}, "vol.yaml: document 1: EC2NodeClass c: spec.blockDeviceMappings[0].ebs.volumeSize"},
		{"drift bad claim", []string{"drift", "-f", badClaim}, "claim.yaml: document 1: NodeClaim nc: status.nodeName"},
		{"drift duplicate class", []string{"drift", "-f", dupClass}, "EC2NodeClass c: metadata.name: duplicate: the same EC2NodeClass is at "},
		{"drift bad grace", []string{"drift", "-f", badAMI, "--expire-grace", "-1h"}, "--expire-grace -1h0m0s"},
		{"drift missing file", []string{"drift", "-f", filepath.Join(dir, "nope.yaml")}, "nope.yaml: no such file"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			code := run(tc.args, nil, &stdout, &stderr)
			assert.Equal(t, exitBadInput, code, "stdout: %s\nstderr: %s", stdout.String(), stderr.String())
			assert.Contains(t, stderr.String(), tc.stderr)
			assert.Empty(t, stdout.String())
		})
	}
}
