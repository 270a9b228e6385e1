package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestInterspersedFlags: as with kubectl, flags may come after file names;
// files, -f and --filename are read in the order given; a bool flag takes
// no value; after "--" every argument is a file.
func TestInterspersedFlags(t *testing.T) {
	tests := []struct {
		name   string
		args   []string
		files  []string
		output string
		rec    bool
	}{
		{"flag after a file", []string{"a.yaml", "-o", "json"}, []string{"a.yaml"}, "json", false},
		{"files and -f in order", []string{"a.yaml", "-f", "b.yaml", "c.yaml", "--filename", "d.yaml", "--filename=e.yaml", "-f=f.yaml"},
			[]string{"a.yaml", "b.yaml", "c.yaml", "d.yaml", "e.yaml", "f.yaml"}, "table", false},
		{"bool flag between files takes no value", []string{"a.yaml", "-R", "b.yaml", "--no-headers", "c.yaml"}, []string{"a.yaml", "b.yaml", "c.yaml"}, "table", true},
		{"-o=value", []string{"a.yaml", "-o=wide"}, []string{"a.yaml"}, "wide", false},
		{"--output-like value beginning with a dash", []string{"-f", "-", "a.yaml"}, []string{"-", "a.yaml"}, "table", false},
		{"stdin as a file", []string{"-", "-o", "yaml"}, []string{"-"}, "yaml", false},
		{"after --, flags are files", []string{"-o", "json", "--", "-R", "a.yaml"}, []string{"-R", "a.yaml"}, "json", false},
		{"bool flag with a value", []string{"--recursive=true", "a.yaml"}, []string{"a.yaml"}, "table", true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c, err := parseFlags("provision", tc.args, "table", "wide", "json", "yaml")
			require.NoError(t, err)
			assert.Equal(t, tc.files, []string(c.files))
			assert.Equal(t, tc.output, c.output)
			assert.Equal(t, tc.rec, c.recursive)
		})
	}
	for _, args := range [][]string{{"a.yaml", "-o"}, {"a.yaml", "--bogus", "b.yaml"}} {
		_, err := parseFlags("provision", args, "table", "json")
		assert.Error(t, err, "%q", args)
	}
}

// TestInterspersedFlagsRun: nodeplan provision FILE -o json prints JSON
// (it read "-o" as a file name), and help after a file is help.
func TestInterspersedFlagsRun(t *testing.T) {
	dir := tree(t, map[string]string{"pool.yaml": poolYAML, "pod.json": podJSON("a")})
	pool, pod := filepath.Join(dir, "pool.yaml"), filepath.Join(dir, "pod.json")
	tests := []cliCase{
		{"flags after files", []string{"provision", pool, pod, "-o", "json"}, exitOK, `"newNodes": 1`, ""},
		{"--filename", []string{"provision", "--filename", pool, "--filename=" + pod, "-o", "json"}, exitOK, `"newNodes": 1`, ""},
		{"-h after a file", []string{"provision", pool, "-h"}, exitOK, "usage: nodeplan provision", ""},
		{"a missing flag value", []string{"provision", pool, "-o"}, exitBadInput, "", "flag needs an argument: -o"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) { check(t, tc.args, tc.code, tc.stdout, tc.stderr) })
	}
}

// TestSpotDiscountFlag: --spot-discount defaults to
// instancetypes.DefaultSpotDiscount, and an explicit 0 means no discount,
// never the default.
func TestSpotDiscountFlag(t *testing.T) {
	dir := tree(t, map[string]string{"m.yaml": `apiVersion: karpenter.sh/v1
kind: NodePool
metadata: {name: spot}
spec:
  template:
    spec:
      requirements:
        - {key: node.kubernetes.io/instance-type, operator: In, values: [m5.large]}
        - {key: karpenter.sh/capacity-type, operator: In, values: [spot]}
---
apiVersion: v1
kind: Pod
metadata: {name: a}
spec: {containers: [{name: c, resources: {requests: {cpu: "1"}}}]}
`})
	file := filepath.Join(dir, "m.yaml")
	tests := []cliCase{
		{"default", []string{"provision", "-f", file}, exitOK, "spot: estimated at 40 % of on-demand (--spot-discount 0.6)", ""},
		{"explicit 0: no discount", []string{"provision", "-f", file, "--spot-discount", "0"}, exitOK, "spot: estimated at 100 % of on-demand (--spot-discount 0)", ""},
		{"explicit 0.5", []string{"provision", "-f", file, "--spot-discount=0.5"}, exitOK, "spot: estimated at 50 % of on-demand (--spot-discount 0.5)", ""},
		{"the largest", []string{"provision", "-f", file, "--spot-discount", "0.999"}, exitOK, "spot: estimated at 0.1 % of on-demand (--spot-discount 0.999)", ""},
		{"past the largest", []string{"provision", "-f", file, "--spot-discount", "0.9999999999"}, exitBadInput, "", "--spot-discount 0.9999999999: want a fraction from 0 to 0.999"},
		{"NaN", []string{"provision", "-f", file, "--spot-discount", "NaN"}, exitBadInput, "", "--spot-discount NaN: want a fraction from 0 to 0.999"},
		{"help shows the default", []string{"provision", "--help"}, exitOK, "(default 0.6)", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) { check(t, tc.args, tc.code, tc.stdout, tc.stderr) })
	}
	out, _ := check(t, []string{"provision", "-f", file, "--spot-discount", "0", "-o", "json"}, exitOK, `"pricePerHour": 0.096,`, "")
	assert.NotContains(t, out, "0.0384")
}

// TestSummaries: every command of the usage that takes flags has a
// summary, which "nodeplan COMMAND --help" prints above its flags.
func TestSummaries(t *testing.T) {
	_, synopsis, ok := strings.Cut(usage, "usage:\n")
	require.True(t, ok)
	var commands []string
	for _, line := range strings.Split(synopsis, "\n") {
		if rest, ok := strings.CutPrefix(line, "  nodeplan "); ok {
			commands = append(commands, strings.Fields(rest)[0])
		}
	}
	require.Contains(t, commands, "static")
	for _, name := range commands {
		if name == "version" || name == "help" {
			continue
		}
		assert.NotEmpty(t, strings.TrimSpace(summaries[name]), "summary of %s", name)
	}
}
