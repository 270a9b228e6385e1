package podlists_test

import (
	"bytes"
	"testing"

	"github.com/nodeplan/nodeplan/kube"
	"github.com/nodeplan/nodeplan/kube/internal/podlists"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestLists: each list loads as n pending pods, the same n gives the same
// bytes, and the sizes are the documented ones (Lean about 490 bytes a
// pod, Rich 1.7 kB).
func TestLists(t *testing.T) {
	for _, tc := range []struct {
		name     string
		list     func(int) []byte
		min, max int // bytes a pod
	}{{"rich", podlists.Rich, 1600, 1800}, {"lean", podlists.Lean, 470, 510}} {
		data := tc.list(100)
		assert.True(t, bytes.Equal(data, tc.list(100)), tc.name)
		assert.GreaterOrEqual(t, len(data)/100, tc.min, tc.name)
		assert.LessOrEqual(t, len(data)/100, tc.max, tc.name)
		c, err := kube.Load(kube.Source{Name: tc.name + ".json", Data: data})
		require.NoError(t, err, tc.name)
		assert.Len(t, c.Pods, 100, tc.name)
	}
}
