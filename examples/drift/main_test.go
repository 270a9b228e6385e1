package main

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestDrift(t *testing.T) {
	var out bytes.Buffer
	require.NoError(t, run(&out, ""))
	s := out.String()
	assert.Contains(t, s, "finding node-a ImageDrifted: Node node-a runs image ami-old, which NodeClass default no longer resolves.\n")
	assert.Contains(t, s, "finding node-b Expired: ")
	assert.NotContains(t, s, "finding node-c")
	assert.Contains(t, s, "replace node-b (Expired, forceful=true), pods deleted by +1h0m0s\n  default/api-1 -> node-c\n")
	assert.Contains(t, s, "replace node-a (Drifted, forceful=false), pods deleted by +1h0m0s\n"+
		"  launch node-a-replacement-1: m5.large us-east-1a on-demand 0.096000 USD/hour\n"+
		"  default/web-1 -> node-a-replacement-1 (new)\n"+
		"  default/web-2 -> node-a-replacement-1 (new)\n")
	assert.NotContains(t, s, "blocked")
	assert.NotContains(t, s, "nowhere")
}

// TestDriftCNY runs the example on the cn-north-1 catalog: the
// replacement's price is in CNY, none claims dollars.
func TestDriftCNY(t *testing.T) {
	var out bytes.Buffer
	require.NoError(t, run(&out, "cn-north-1"))
	s := out.String()
	assert.NotContains(t, s, "$")
	assert.NotContains(t, s, "USD")
	assert.Contains(t, s, "  launch node-a-replacement-1: m5.large cn-north-1a on-demand 1.013000 CNY/hour\n")
}

func TestDriftIsDeterministic(t *testing.T) {
	var a, b bytes.Buffer
	require.NoError(t, run(&a, ""))
	require.NoError(t, run(&b, ""))
	assert.Equal(t, a.String(), b.String())
}
