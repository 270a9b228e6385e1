package main

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestOverlayWarnings: every command that reads the cluster says, in its
// JSON warnings, which NodeOverlay selects nothing.
func TestOverlayWarnings(t *testing.T) {
	const want = `NodeOverlay "typo": selects no offering of any NodePool's instance types`
	for _, cmd := range []string{"provision", "consolidate", "drift", "repair", "static", "diff"} {
		t.Run(cmd, func(t *testing.T) {
			var out, errs bytes.Buffer
			code := run([]string{cmd, "-o", "json", "-f", "testdata/overlay.yaml"}, nil, &out, &errs)
			require.Contains(t, []int{exitOK, exitUnschedulable}, code, "stderr: %s", errs.String())
			var r struct {
				Warnings []string `json:"warnings"`
			}
			require.NoError(t, json.Unmarshal(out.Bytes(), &r), out.String())
			assert.Contains(t, r.Warnings, want)
		})
	}
	var out, errs bytes.Buffer
	run([]string{"provision", "-f", "testdata/overlay.yaml"}, nil, &out, &errs)
	assert.Contains(t, out.String(), want, "the table's warnings too")
}
