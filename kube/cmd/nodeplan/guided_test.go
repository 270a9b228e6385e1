package main

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestProvisionGuided: on testdata/guided.yaml --guided takes the plan
// that holds pods to the LP's nodes, cheaper than the search's, says so
// after the gap, and reports both prices in JSON; without the flag the
// plan is the search's and neither appears.
func TestProvisionGuided(t *testing.T) {
	const file = "testdata/guided.yaml"
	var stdout, stderr bytes.Buffer
	require.Equal(t, exitOK, run([]string{"provision", "-f", file, "--guided"}, nil, &stdout, &stderr), stderr.String())
	assert.Contains(t, stdout.String(), "23.953200 USD/hour — within 0.4 %")
	assert.Contains(t, stdout.String(), "guided by the LP's nodes (--guided): the search alone found 25.708400 USD/hour")

	stdout.Reset()
	require.Equal(t, exitOK, run([]string{"provision", "-f", file, "--guided", "-o", "json"}, nil, &stdout, &stderr), stderr.String())
	var r struct {
		Bound struct {
			PricePerHour float64 `json:"pricePerHour"`
			Guided       *struct {
				Taken           bool    `json:"taken"`
				Pinned          bool    `json:"pinned"`
				UnguidedPerHour float64 `json:"unguidedPricePerHour"`
			} `json:"guided"`
		} `json:"bound"`
	}
	require.NoError(t, json.Unmarshal(stdout.Bytes(), &r))
	require.NotNil(t, r.Bound.Guided)
	assert.True(t, r.Bound.Guided.Taken)
	assert.True(t, r.Bound.Guided.Pinned)
	assert.InDelta(t, 23.9532, r.Bound.PricePerHour, 1e-9)
	assert.InDelta(t, 25.7084, r.Bound.Guided.UnguidedPerHour, 1e-9)

	stdout.Reset()
	require.Equal(t, exitOK, run([]string{"provision", "-f", file, "-o", "json"}, nil, &stdout, &stderr), stderr.String())
	r.Bound.Guided = nil
	require.NoError(t, json.Unmarshal(stdout.Bytes(), &r))
	assert.Nil(t, r.Bound.Guided)
	assert.InDelta(t, 25.7084, r.Bound.PricePerHour, 1e-9)

	_, err := parseFlags("consolidate", []string{"--guided"}, "table")
	assert.Error(t, err, "only provision takes --guided")
}
