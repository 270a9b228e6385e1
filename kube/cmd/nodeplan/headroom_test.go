package main

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// bufferFile holds a Deployment with a 50 % CapacityBuffer, a PodTemplate
// buffer limited by cpu, and a buffer naming a DaemonSet.
const bufferFile = "../../testdata/capacity-buffers.yaml"

// TestProvisionHeadroom: provision prints each buffer's headroom after the
// nodes, in text and JSON; the buffers' pods are not counted as pods.
func TestProvisionHeadroom(t *testing.T) {
	out, _ := check(t, []string{"provision", "-f", bufferFile}, exitOK, "Headroom (capacity buffers):", "")
	assert.Contains(t, out, "4 pods scheduled, 0 unschedulable")
	assert.Regexp(t, `shop/batch\s+2\s+0\s+2\s+0\s+RequiresNewCapacity\s+nodeclaim/`, out)
	assert.Regexp(t, `shop/broken\s+0\s+0\s+0\s+0\s+NotReadyForProvisioning \(ResolutionFailed\)\s+-`, out)
	_, errs := check(t, []string{"provision", "-f", bufferFile, "-o", "yaml"}, exitOK, "kind: NodeClaim", "Headroom (capacity buffers):")
	assert.Contains(t, errs, "shop/web-headroom")

	js, _ := check(t, []string{"provision", "-f", bufferFile, "-o", "json"}, exitOK, `"headroom"`, "")
	var r struct {
		Headroom []struct {
			Name                                       string
			Ready                                      bool
			Replicas, OnExistingNodes, OnNewNodeClaims int
			Failed                                     int
			NodeClaims                                 []string
			Provisioning, Error                        string
		}
	}
	require.NoError(t, json.Unmarshal([]byte(js), &r))
	require.Len(t, r.Headroom, 3)
	assert.Equal(t, "batch", r.Headroom[0].Name)
	assert.Equal(t, 2, r.Headroom[0].Replicas)
	assert.Equal(t, 2, r.Headroom[0].OnNewNodeClaims)
	assert.NotEmpty(t, r.Headroom[0].NodeClaims)
	assert.False(t, r.Headroom[1].Ready)
	assert.Contains(t, r.Headroom[1].Error, "unsupported scalableRef")
	assert.Equal(t, "web-headroom", r.Headroom[2].Name)
	assert.Equal(t, 2, r.Headroom[2].Replicas, "50 % of 4 replicas")
}

// TestThenConsolidateKeepsHeadroom: the node provisioning launches for a
// real pod and the buffers' pods is not replaced by one for the real pod
// alone: consolidation simulates with the virtual pods among the pending
// ones (K/controllers/disruption/helpers.go:73), so a replacement must
// hold them too.
func TestThenConsolidateKeepsHeadroom(t *testing.T) {
	out, _ := check(t, []string{"provision", "--then-consolidate", "-f", bufferFile}, exitOK, "", "")
	assert.Contains(t, out, "0 commands: delete 0 nodes")
}

// TestProvisionWithoutBuffersHasNoHeadroom: no buffer, no section and no
// JSON field.
func TestProvisionWithoutBuffersHasNoHeadroom(t *testing.T) {
	out, _ := check(t, []string{"provision", "-f", "../../testdata/cluster.yaml"}, exitUnschedulable, "", "")
	assert.NotContains(t, out, "Headroom")
	js, _ := check(t, []string{"provision", "-f", "../../testdata/cluster.yaml", "-o", "json"}, exitUnschedulable, "", "")
	assert.NotContains(t, js, `"headroom"`)
}

// TestBufferWarning: the "capacity buffers: N" warning comes from the
// commands whose plans hold room for the buffers (provision, consolidate,
// diff), not from drift, repair and static, where buffers play no part.
func TestBufferWarning(t *testing.T) {
	const want = "capacity buffers: 3, holding room for 4 virtual pods"
	for _, tc := range []struct {
		cmd  string
		want bool
	}{{"provision", true}, {"consolidate", true}, {"diff", true}, {"drift", false}, {"repair", false}, {"static", false}} {
		t.Run(tc.cmd, func(t *testing.T) {
			var out, errs bytes.Buffer
			code := run([]string{tc.cmd, "-o", "json", "-f", bufferFile}, nil, &out, &errs)
			require.Contains(t, []int{exitOK, exitUnschedulable}, code, "stderr: %s", errs.String())
			var r struct{ Warnings []string }
			require.NoError(t, json.Unmarshal(out.Bytes(), &r), out.String())
			found := slices.ContainsFunc(r.Warnings, func(w string) bool { return strings.HasPrefix(w, want) })
			assert.Equal(t, tc.want, found, "%q", r.Warnings)
		})
	}
}

// TestDiffHeadroom: diff launches and prices nodes for the buffers'
// virtual pods, so it reports their headroom as provision does, in the
// table and as headroom[] in JSON.
func TestDiffHeadroom(t *testing.T) {
	out, _ := check(t, []string{"diff", "-f", bufferFile}, exitOK, "Headroom (capacity buffers):", "")
	assert.Regexp(t, `shop/batch\s+2\s+`, out)
	js, _ := check(t, []string{"diff", "-f", bufferFile, "-o", "json"}, exitOK, `"headroom"`, "")
	var r struct {
		Headroom []struct {
			Name     string
			Replicas int
		}
	}
	require.NoError(t, json.Unmarshal([]byte(js), &r))
	require.Len(t, r.Headroom, 3)
	assert.Equal(t, "batch", r.Headroom[0].Name)
	assert.Equal(t, 2, r.Headroom[0].Replicas)
}
