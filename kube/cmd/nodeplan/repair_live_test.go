//go:build unix

package main

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nodeplan/nodeplan/kube/internal/apiservertest"
)

// TestLiveRepair: the repair sample's Nodes (their conditions written
// through the status subresource, as the kubelet writes them), NodeClaims
// and pods, created through the API server and read back without -f, give
// the report the server's objects dumped as kubectl get -o yaml give, and
// the sample's verdicts: web-a replaced, its pods on web-c and one new
// node; batch-a held back by its NodePool's cap, batch-b tolerated,
// legacy (no NodeClaim) not Karpenter's.
func TestLiveRepair(t *testing.T) {
	srv := apiservertest.Require(t)
	applyFile(t, srv, repairSample)
	admin := srv.Kubeconfig(t, apiservertest.Admin)
	dump := dumpFile(t, srv, repairSample)
	fromFile := report(t, append([]string{"repair", "-o", "json", "-f", dump}, repairNow...)...)
	live := report(t, append([]string{"repair", "-o", "json", "--kubeconfig", admin}, repairNow...)...)
	assert.Equal(t, fromFile, live)

	verdicts, r := repairVerdicts(t, append([]string{"--kubeconfig", admin}, repairNow...)...)
	assert.Equal(t, map[string]string{"web-a": "replace Unhealthy", "web-b": "keep Healthy", "web-c": "keep Healthy",
		"web-d": "keep Healthy", "batch-a": "keep PoolUnhealthy", "batch-b": "keep Tolerating", "batch-c": "keep Healthy",
		"legacy": "keep Unmanaged"}, verdicts)
	homes := map[string]string{}
	for _, h := range r.Homes {
		homes[h.Pod] = h.Node + h.NodeClaim + h.Unschedulable
	}
	assert.Equal(t, map[string]string{"shop/web-1": "web-c", "shop/web-2": "repair-replacement-1", "shop/web-3": "repair-replacement-1"}, homes)
	require.Len(t, r.Replacements, 1)
	assert.Equal(t, "web", r.Replacements[0].NodePool)
	assert.Equal(t, r.Replacements[0].PricePerHour, r.Summary.PricePerHour)
	assert.Positive(t, r.Summary.PricePerHour)

	tests := []cliCase{
		{"table", append([]string{"repair", "--kubeconfig", admin}, repairNow...), exitOK, "1 node to replace, 7 kept; 1 new node for 3 pods", ""},
		{"nobody", []string{"repair", "--kubeconfig", srv.Kubeconfig(t, apiservertest.Nobody)}, exitBadInput, "", "nodeplan repair: listing"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			check(t, tc.args, tc.code, tc.stdout, tc.stderr)
		})
	}
}
