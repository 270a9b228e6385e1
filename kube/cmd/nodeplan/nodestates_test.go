package main

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestNodeStates runs the reviewer's cluster dumps: a deleting node's pod
// is planned again, a NotReady node spends the budget, and a launched
// NodeClaim without a Node takes the pending pod.
func TestNodeStates(t *testing.T) {
	tests := []struct {
		name, cmd, file string
		want, not       []string
	}{
		{"deleting node's pod is planned again", "provision", "deleting.yaml",
			[]string{"1 pod scheduled, 0 unschedulable"}, []string{"0 pods scheduled"}},
		{"not ready node spends the budget", "consolidate", "notready.yaml",
			[]string{"0 commands", "the Empty budget of NodePool default is spent"}, []string{"Empty delete", "Emptiness"}},
		{"in-flight NodeClaim takes the pending pod", "provision", "inflight.yaml",
			[]string{"default-x7k2p  existing", "0 new nodes, 1 pod scheduled, 0 unschedulable"}, []string{"t4g.nano", "unknown fields"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			code := run([]string{tc.cmd, "-f", "testdata/nodestates/" + tc.file}, nil, &stdout, &stderr)
			require.Equal(t, exitOK, code, stderr.String())
			for _, s := range tc.want {
				assert.Contains(t, stdout.String(), s)
			}
			for _, s := range tc.not {
				assert.NotContains(t, stdout.String()+stderr.String(), s)
			}
		})
	}
}
