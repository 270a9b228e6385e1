//go:build unix

package main

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nodeplan/nodeplan/kube/internal/apiservertest"
	"github.com/nodeplan/nodeplan/kube/live"
)

// TestLiveCapacityBuffers: CapacityBuffers and PodTemplates created
// through the API server (the CapacityBuffer CRD installed from
// Karpenter's module, apiservertest) are read live, without a warning, and
// give the headroom the file gives.
func TestLiveCapacityBuffers(t *testing.T) {
	srv := apiservertest.Require(t)
	applyFile(t, srv, bufferFile)
	admin := srv.Kubeconfig(t, apiservertest.Admin)
	var warnings []string
	objs, err := live.Read(t.Context(), srv.Config(apiservertest.Admin), live.Options{Warn: func(w string) { warnings = append(warnings, w) }})
	require.NoError(t, err)
	assert.Empty(t, warnings)
	assert.Len(t, objs.CapacityBuffers, 3)
	assert.Len(t, objs.PodTemplates, 1)
	fromFile := report(t, "provision", "-o", "json", "-f", bufferFile)
	fromServer := report(t, "provision", "-o", "json", "--kubeconfig", admin)
	assert.Equal(t, fromFile, fromServer)
	require.Len(t, fromServer["headroom"], 3)
	check(t, []string{"provision", "--kubeconfig", admin}, exitOK, "Headroom (capacity buffers):", "")
}
