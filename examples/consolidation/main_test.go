package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestConsolidation(t *testing.T) {
	var out bytes.Buffer
	require.NoError(t, run(&out, ""))
	s := out.String()
	lines := strings.Split(strings.TrimSpace(s), "\n")
	require.NotEmpty(t, lines)
	assert.Equal(t, "Empty delete [idle] (Emptiness) saves 0.096000 USD/hour", lines[0])
	// fresh is inside consolidateAfter, so it takes no displaced pod.
	assert.Contains(t, s, "Underutilized replace [big] (SingleNode) saves 0.214000 USD/hour\n")
	assert.NotContains(t, s, "-> fresh")
	assert.Contains(t, s, "  launch consolidation-1: c5.xlarge us-east-1a 0.170000 USD/hour\n")
	assert.Contains(t, s, "  default/batch-3 -> consolidation-1 (new)\n")
	assert.Contains(t, s, "keep busy (PodDoNotDisrupt): pod default/db-1 has karpenter.sh/do-not-disrupt=true\n")
	assert.Contains(t, s, "keep fresh (ConsolidateAfter): ")
	// quiet-1 and quiet-2 took batch pods, a pod event now: consolidateAfter again.
	assert.Contains(t, s, "keep quiet-2 (ConsolidateAfter): ")
	assert.Equal(t, "total savings: 0.310000 USD/hour", lines[len(lines)-1])
}

// TestConsolidationCNY runs the example on the cn-north-1 catalog: every
// price is in CNY, none claims dollars.
func TestConsolidationCNY(t *testing.T) {
	var out bytes.Buffer
	require.NoError(t, run(&out, "cn-north-1"))
	s := out.String()
	assert.NotContains(t, s, "$")
	assert.NotContains(t, s, "USD")
	lines := strings.Split(strings.TrimSpace(s), "\n")
	assert.Equal(t, "Empty delete [idle] (Emptiness) saves 1.013000 CNY/hour", lines[0])
	assert.Contains(t, s, "  launch consolidation-1: c5.xlarge cn-north-1a 1.479000 CNY/hour\n")
	assert.Equal(t, "total savings: 3.587000 CNY/hour", lines[len(lines)-1])
}

func TestConsolidationIsDeterministic(t *testing.T) {
	var a, b bytes.Buffer
	require.NoError(t, run(&a, ""))
	require.NoError(t, run(&b, ""))
	assert.Equal(t, a.String(), b.String())
}
