package main

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var update = flag.Bool("update", false, "rewrite testdata/output.txt")

// TestQuickstart compares the program's output with testdata/output.txt;
// after a deliberate change, rewrite it with go test -update and review
// the diff.
func TestQuickstart(t *testing.T) {
	var out bytes.Buffer
	require.NoError(t, run(&out))
	golden := filepath.Join("testdata", "output.txt")
	if *update {
		require.NoError(t, os.WriteFile(golden, out.Bytes(), 0o644))
	}
	want, err := os.ReadFile(golden)
	require.NoError(t, err)
	assert.Equal(t, string(want), out.String())
	assert.Contains(t, out.String(), "Deployment default/train-giant ×1 — Insufficient: no instance type in NodePool gpu has 64 nvidia.com/gpu",
		"the one pod no instance type holds is reported with its reason")
	assert.Regexp(t, `\n[0-9.]+ USD/hour — within [0-9.]+ % of the best possible \([0-9.]+ USD/hour lower bound\)\n$`, out.String(),
		"the plan ends with its gap to the certified lower bound")
}
