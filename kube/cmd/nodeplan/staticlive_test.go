//go:build unix

package main

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nodeplan/nodeplan/kube/internal/apiservertest"
)

// TestLiveStatic creates static NodePools (spec.replicas), their
// NodeClaims (one Drifted, with providerIDs) and Nodes on the real API
// server: nodeplan static reads them live as it reads them dumped to a
// file, and decides the fixture's actions.
func TestLiveStatic(t *testing.T) {
	srv := apiservertest.Require(t)
	applyFile(t, srv, staticFixture)
	admin := srv.Kubeconfig(t, apiservertest.Admin)
	now := []string{"--now", time.Now().Add(time.Hour).UTC().Format(time.RFC3339)}
	dump := dumpFile(t, srv, staticFixture)
	live := report(t, append([]string{"static", "-o", "json", "--kubeconfig", admin}, now...)...)
	fromFile := report(t, append([]string{"static", "-o", "json", "-f", dump}, now...)...)
	assert.Equal(t, fromFile, live)
	pools := live["nodePools"].([]any)
	require.Len(t, pools, 3)
	grow, shrink, steady := pools[0].(map[string]any), pools[1].(map[string]any), pools[2].(map[string]any)
	assert.Equal(t, []any{"steady-a"}, steady["replace"], "the Drifted=True NodeClaim, read live")
	assert.InDelta(t, 2, grow["create"], 0)
	assert.Equal(t, "shrink-idle", shrink["remove"].([]any)[0].(map[string]any)["nodeClaim"])
}
