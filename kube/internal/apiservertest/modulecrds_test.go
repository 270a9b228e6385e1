//go:build unix

package apiservertest

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

// TestModuleCRDs: the module tops up exactly the CRDs the folder lacks:
// with none, every one of Karpenter's, CapacityBuffer's among them; with
// all of them, none.
func TestModuleCRDs(t *testing.T) {
	all, err := moduleCRDs(nil)
	require.NoError(t, err)
	var names []string
	for _, crd := range all {
		names = append(names, crd.GetName())
	}
	assert.Contains(t, names, "capacitybuffers.autoscaling.x-k8s.io")
	assert.Contains(t, names, "nodepools.karpenter.sh")
	rest, err := moduleCRDs(all)
	require.NoError(t, err)
	assert.Empty(t, rest)
	one := &unstructured.Unstructured{}
	one.SetName("nodepools.karpenter.sh")
	rest, err = moduleCRDs([]*unstructured.Unstructured{one})
	require.NoError(t, err)
	assert.Len(t, rest, len(all)-1)
}
