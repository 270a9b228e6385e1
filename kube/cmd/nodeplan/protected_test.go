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

// TestDriftProtectedPods: with a budget that leaves room for node-pinned,
// its drift is eventual (its NodePool has a terminationGracePeriod), so the
// command runs and names the do-not-disrupt pod it deletes by the deadline,
// in the JSON and in the table.
func TestDriftProtectedPods(t *testing.T) {
	sample, err := os.ReadFile("../../testdata/drift.yaml")
	require.NoError(t, err)
	roomy := strings.Replace(string(sample), `nodes: "2"`, `nodes: "3"`, 1)
	require.NotEqual(t, string(sample), roomy, "the sample's budget moved")
	file := filepath.Join(t.TempDir(), "drift.yaml")
	require.NoError(t, os.WriteFile(file, []byte(roomy), 0o600))

	var stdout, stderr bytes.Buffer
	code := run([]string{"drift", "-f", file, "--now", "2025-06-01T12:00:00Z", "-o", "json"}, nil, &stdout, &stderr)
	require.Equal(t, exitOK, code, stderr.String())
	var r driftReport
	require.NoError(t, json.Unmarshal(stdout.Bytes(), &r))
	var protected []protectedPod
	for _, c := range r.Commands {
		if c.Node == "node-pinned" {
			protected = c.Protected
		}
	}
	require.Len(t, protected, 1, "node-pinned's command and its protected pod")
	assert.Equal(t, "2025-06-01T12:59:30Z", protected[0].DeleteAt, "the node's deadline less the pod's 30 s grace period")
	assert.Contains(t, protected[0].Why, "do-not-disrupt")

	stdout.Reset()
	code = run([]string{"drift", "-f", file, "--now", "2025-06-01T12:00:00Z"}, nil, &stdout, &stderr)
	require.Equal(t, exitOK, code, stderr.String())
	assert.Contains(t, stdout.String(), "PROTECTED POD")
	assert.Contains(t, stdout.String(), protected[0].Pod)
}
