package main

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nodeplan/nodeplan/packing"
)

func TestLimitPolicyFlag(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want packing.LimitPolicy
	}{
		{"most-pods", packing.LimitMostPods},
		{"largest-first", packing.LimitLargestFirst},
	} {
		var f limitPolicyFlag
		require.NoError(t, f.Set(tc.in))
		assert.Equal(t, tc.want, packing.LimitPolicy(f))
		assert.Equal(t, tc.in, f.String())
	}
	for _, bad := range []string{"", "Most-Pods", "largest", "most-pods ", "0", "\x00"} {
		f := limitPolicyFlag(packing.LimitLargestFirst)
		assert.Error(t, f.Set(bad), bad)
		assert.Equal(t, packing.LimitLargestFirst, packing.LimitPolicy(f), "a refused value leaves the flag as it was")
	}
}

// TestLimitPolicyFlagParsed checks that provision's flag reaches the
// solver options and that the default is most-pods.
func TestLimitPolicyFlagParsed(t *testing.T) {
	c, err := parseFlags("provision", []string{"--limit-policy", "largest-first"}, "table")
	require.NoError(t, err)
	assert.Equal(t, packing.LimitLargestFirst, c.solverOptions().LimitPolicy)
	c, err = parseFlags("provision", nil, "table")
	require.NoError(t, err)
	assert.Equal(t, packing.LimitMostPods, c.solverOptions().LimitPolicy)
	_, err = parseFlags("consolidate", []string{"--limit-policy", "largest-first"}, "table")
	assert.Error(t, err, "only provision takes --limit-policy")
}
