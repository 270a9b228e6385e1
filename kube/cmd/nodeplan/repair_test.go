package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const repairSample = "../../testdata/repair.yaml"

var repairNow = []string{"--now", "2025-06-01T12:00:00Z"}

func TestGoldenRepair(t *testing.T) {
	tests := []struct {
		name string
		args []string
		file string
	}{
		{"table", []string{"repair", "-f", repairSample}, "repair.txt"},
		{"json", []string{"repair", "-f", repairSample, "-o", "json"}, "repair.json"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			code := run(append(tc.args, repairNow...), nil, &stdout, &stderr)
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

// repairVerdicts runs nodeplan repair -o json and returns each node's
// action and reason, and the report.
func repairVerdicts(t *testing.T, args ...string) (map[string]string, repairReport) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	code := run(append([]string{"repair", "-o", "json"}, args...), nil, &stdout, &stderr)
	require.Equal(t, exitOK, code, "stderr: %s", stderr.String())
	var r repairReport
	require.NoError(t, json.Unmarshal(stdout.Bytes(), &r), stdout.String())
	out := map[string]string{}
	for _, n := range r.Nodes {
		out[n.Node] = n.Action + " " + n.Reason
	}
	return out, r
}

// The sample's verdicts under the AWS policies at noon, later, and under
// the user's policies.
func TestRepairVerdicts(t *testing.T) {
	healthy := map[string]string{"batch-c": "keep Healthy", "web-b": "keep Healthy", "web-c": "keep Healthy", "web-d": "keep Healthy"}
	with := func(m map[string]string) map[string]string {
		for k, v := range healthy {
			m[k] = v
		}
		return m
	}
	tests := []struct {
		name string
		args []string
		want map[string]string
		pods int
	}{
		{"AWS policies at noon", repairNow, with(map[string]string{"web-a": "replace Unhealthy", "batch-a": "keep PoolUnhealthy",
			"batch-b": "keep Tolerating", "legacy": "keep Unmanaged"}), 3},
		{"before web-a's deadline", []string{"--now", "2025-06-01T11:29:59Z"}, with(map[string]string{"web-a": "keep Tolerating",
			"batch-a": "keep Tolerating", "batch-b": "keep Tolerating", "legacy": "keep Unmanaged"}), 0},
		{"at web-a's deadline", []string{"--now", "2025-06-01T11:30:00Z"}, with(map[string]string{"web-a": "replace Unhealthy",
			"batch-a": "keep Tolerating", "batch-b": "keep Tolerating", "legacy": "keep Unmanaged"}), 3},
		{"a longer toleration", append([]string{"--policy", "Ready=False:2h"}, repairNow...), with(map[string]string{"web-a": "keep Tolerating",
			"batch-a": "keep Healthy", "batch-b": "keep Healthy", "legacy": "keep Unmanaged"}), 0},
		{"only the accelerator policy: batch is within the cap", append([]string{"--policy", "AcceleratedHardwareReady=False:10m"}, repairNow...),
			with(map[string]string{"web-a": "keep Healthy", "batch-a": "replace Unhealthy", "batch-b": "keep Healthy", "legacy": "keep Unmanaged"}), 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, r := repairVerdicts(t, append([]string{"-f", repairSample}, tc.args...)...)
			assert.Equal(t, tc.want, got)
			assert.Len(t, r.Homes, tc.pods)
			assert.Equal(t, tc.pods, r.Summary.MovedPods)
		})
	}
}

// The user's policies are reported as given, the defaults as the AWS
// provider's.
func TestRepairPoliciesReported(t *testing.T) {
	_, r := repairVerdicts(t, append([]string{"-f", repairSample, "--policy", "Ready=False:5m", "--policy", "KernelReady=Unknown:1h"}, repairNow...)...)
	assert.Equal(t, []string{"Ready=False:5m0s", "KernelReady=Unknown:1h0m0s"}, r.Policies)
	assert.Equal(t, "--policy", r.PoliciesFrom)
	_, r = repairVerdicts(t, append([]string{"-f", repairSample}, repairNow...)...)
	assert.Len(t, r.Policies, 7)
	assert.Equal(t, "AWS provider defaults", r.PoliciesFrom)
}

func TestRepairBadInput(t *testing.T) {
	sample, err := os.ReadFile(repairSample)
	require.NoError(t, err)
	broken := strings.Replace(string(sample), `{type: Ready, status: "False", reason: Test, message: "", lastHeartbeatTime: "2025-06-01T11:00:00Z", lastTransitionTime: "2025-06-01T11:00:00Z"}`,
		`{type: Ready, status: "False"}`, 1)
	require.NotEqual(t, string(sample), broken)
	file := filepath.Join(t.TempDir(), "repair.yaml")
	require.NoError(t, os.WriteFile(file, []byte(broken), 0o600))
	tests := []cliCase{
		{"no files", []string{"repair"}, exitBadInput, "", "no manifest given"},
		{"bad policy", []string{"repair", "-f", repairSample, "--policy", "Ready=Maybe:5m"}, exitBadInput, "",
			`nodeplan repair: invalid value "Ready=Maybe:5m" for flag -policy: repair: policy "Ready=Maybe:5m": unknown condition status "Maybe"`},
		{"negative toleration", []string{"repair", "-f", repairSample, "--policy", "Ready=False:-1m"}, exitBadInput, "", "negative toleration -1m0s"},
		{"yaml output", []string{"repair", "-f", repairSample, "-o", "yaml"}, exitBadInput, "", `-o "yaml": want table or json`},
		{"spot-to-spot is not repair's", []string{"repair", "-f", repairSample, "--spot-to-spot"}, exitBadInput, "", "flag provided but not defined: -spot-to-spot"},
		{"bad now", []string{"repair", "-f", repairSample, "--now", "noon"}, exitBadInput, "", `--now "noon"`},
		{"condition without a time", []string{"repair", "-f", file}, exitBadInput, "",
			"repair.yaml: document 4: Node web-a: status.conditions[0].lastTransitionTime: invalid object: missing on a Ready condition"},
		{"help", []string{"repair", "--help"}, exitOK, "-policy Type=Status:duration", ""},
		{"help command", []string{"help", "repair"}, exitOK, "usage: nodeplan repair [-f FILE|DIR...] [flags]", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			out, _ := check(t, tc.args, tc.code, tc.stdout, tc.stderr)
			if tc.code == exitBadInput {
				assert.Empty(t, out)
			}
		})
	}
}
