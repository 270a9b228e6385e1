package live

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestReadNoNodeOverlays: on a cluster without the NodeOverlay CRD (the
// feature is gated in Karpenter), Read reads none and says nothing; a
// refused list of them is still an error.
func TestReadNoNodeOverlays(t *testing.T) {
	var warnings []string
	f := &fakeAPI{fail: map[string]int{"/apis/karpenter.sh/v1alpha1/nodeoverlays": 404}}
	objs, err := Read(context.Background(), serve(t, f), Options{Warn: func(w string) { warnings = append(warnings, w) }})
	require.NoError(t, err)
	assert.Empty(t, objs.NodeOverlays)
	assert.Empty(t, warnings)
	_, err = Read(context.Background(), serve(t, &fakeAPI{fail: map[string]int{"/apis/karpenter.sh/v1alpha1/nodeoverlays": 403}}), Options{})
	var le *ListError
	require.ErrorAs(t, err, &le)
	assert.Equal(t, "nodeoverlays.karpenter.sh", le.Resource)
}
