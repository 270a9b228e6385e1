package main

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestInterruption(t *testing.T) {
	var out bytes.Buffer
	require.NoError(t, run(&out, ""))
	s := out.String()
	assert.Contains(t, s, "SpotInterruption spot-1: drain=true: ")
	assert.Contains(t, s, "RebalanceRecommendation spot-2: drain=false: ")
	assert.Contains(t, s, "unavailable c5.xlarge us-east-1a spot for 3m0s (until 12:03:00)\n")
	assert.NotContains(t, s, "unavailable c5.xlarge us-east-1b", "a rebalance recommendation marks nothing")
	assert.Contains(t, s, "launch interruption-replacement-1: c5.xlarge us-east-1b spot 0.068000 USD/hour, 2 pods\n")
	assert.NotContains(t, s, "launch interruption-replacement-1: c5.xlarge us-east-1a spot", "never on the marked offering")
	assert.Contains(t, s, "  default/worker-1 -> od-1\n")
	assert.Contains(t, s, "  default/worker-3 -> interruption-replacement-1 (new)\n")
	assert.NotContains(t, s, "worker-4", "spot-2 is not drained")
	assert.Contains(t, s, "ready after 1m30s, instance gone after 2m0s: ready=true\n")
}

// TestInterruptionCNY runs the example on the cn-north-1 catalog: the
// replacements' prices are in CNY, none claims dollars.
func TestInterruptionCNY(t *testing.T) {
	var out bytes.Buffer
	require.NoError(t, run(&out, "cn-north-1"))
	s := out.String()
	assert.NotContains(t, s, "$")
	assert.NotContains(t, s, "USD")
	assert.Contains(t, s, "launch interruption-replacement-1: c5.large cn-north-1a spot 0.295600 CNY/hour, 1 pods\n")
}

func TestInterruptionIsDeterministic(t *testing.T) {
	var a, b bytes.Buffer
	require.NoError(t, run(&a, ""))
	require.NoError(t, run(&b, ""))
	assert.Equal(t, a.String(), b.String())
}
