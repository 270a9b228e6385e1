//go:build unix

package main

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nodeplan/nodeplan/kube/internal/apiservertest"
)

// TestLiveNodeOverlay: NodeOverlays created on the real API server (its
// CRD's schema and CEL rules accept them) reach the plan: the claim on
// m5.large is priced 0.5 by the overlay "licence", and the overlay that
// selects nothing is a warning, as from the file.
func TestLiveNodeOverlay(t *testing.T) {
	srv := apiservertest.Require(t)
	const file = "testdata/overlay.yaml"
	applyFile(t, srv, file)
	admin := srv.Kubeconfig(t, apiservertest.Admin)
	for _, args := range [][]string{{"--kubeconfig", admin}, {"-f", file}} {
		var out, errs bytes.Buffer
		code := run(append([]string{"provision", "-o", "json"}, args...), nil, &out, &errs)
		require.Equal(t, exitOK, code, "stderr: %s", errs.String())
		var r struct {
			Nodes []struct {
				InstanceType string  `json:"instanceType"`
				Price        float64 `json:"pricePerHour"`
			} `json:"nodes"`
			Warnings []string `json:"warnings"`
		}
		require.NoError(t, json.Unmarshal(out.Bytes(), &r))
		require.Len(t, r.Nodes, 1, args[0])
		assert.Equal(t, "m5.large", r.Nodes[0].InstanceType)
		assert.Equal(t, 0.5, r.Nodes[0].Price, "the overlay's price, read with %s", args[0])
		assert.Contains(t, r.Warnings, `NodeOverlay "typo": selects no offering of any NodePool's instance types`)
	}
}
