package main

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestQuickstart(t *testing.T) {
	var out bytes.Buffer
	require.NoError(t, run(&out))
	s := out.String()
	assert.Contains(t, s, "total: ")
	assert.Contains(t, s, "unschedulable default/train-giant-0: ")
	assert.Contains(t, s, "1 unschedulable")
	assert.Contains(t, s, "nvidia.com/gpu")
}
