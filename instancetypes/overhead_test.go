package instancetypes

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nodeplan/nodeplan/resources"
)

func TestKubeReservedCPU(t *testing.T) {
	tests := []struct {
		cores int64
		want  int64
	}{
		{1, 60}, {2, 70}, {3, 75}, {4, 80}, {8, 90}, {16, 110}, {96, 310}, {448, 1190},
	}
	for _, tc := range tests {
		assert.Equal(t, tc.want, kubeReservedCPU(tc.cores*1000), "%d cores", tc.cores)
	}
	assert.Equal(t, int64(30), kubeReservedCPU(500), "half a core: 6% of 500m")
}

// TestAllocatableByHand checks the EKS model against values worked out by
// hand from the formulas in doc.go.
func TestAllocatableByHand(t *testing.T) {
	c, err := AWS(Options{})
	require.NoError(t, err)
	tests := []struct {
		name                string
		capacity, allocated resources.List
	}{{
		// 2 vCPU, 8192 MiB, 29 pods. Memory 8192 − ⌈8192·0.075⌉ = 8192 − 615 = 7577Mi.
		// kube-reserved cpu 60 + 10 = 70m; memory 11·29 + 255 = 574Mi, + 100Mi eviction.
		// Storage 20Gi − 1Gi − 2Gi = 17Gi. Karpenter's reference lists 1930m / 6903Mi / 17Gi / 29.
		name:      "m5.large",
		capacity:  resources.List{CPU: 2000, Memory: 7577 * mib, EphemeralStorage: 20 * gib, Pods: 29},
		allocated: resources.List{CPU: 1930, Memory: 6903 * mib, EphemeralStorage: 17 * gib, Pods: 29},
	}, {
		// arm64: 8192 − 64 = 8128; − ⌈8128·0.075⌉ = 610 → 7518Mi.
		// cpu 60 + 10 + 2·5 = 80m; memory 11·58 + 255 = 893Mi + 100Mi → 6525Mi
		// (the reference lists the same shape, a1.xlarge, at 3920m / 6525Mi).
		name:      "c6g.xlarge",
		capacity:  resources.List{CPU: 4000, Memory: 7518 * mib, EphemeralStorage: 20 * gib, Pods: 58},
		allocated: resources.List{CPU: 3920, Memory: 6525 * mib, EphemeralStorage: 17 * gib, Pods: 58},
	}, {
		// 96 vCPU, 1179648 MiB, 737 pods, 8 A100. Memory − ⌈88473.6⌉ = 1091174Mi.
		// cpu 60 + 10 + 10 + ⌊92000·0.0025⌋ = 310m; memory 11·737 + 255 = 8362Mi + 100Mi.
		name: "p4d.24xlarge",
		capacity: resources.List{CPU: 96000, Memory: 1091174 * mib, EphemeralStorage: 20 * gib, Pods: 737}.
			With(resources.GPU, 8),
		allocated: resources.List{CPU: 95690, Memory: 1082712 * mib, EphemeralStorage: 17 * gib, Pods: 737}.
			With(resources.GPU, 8),
	}}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			it, ok := c.Get(tc.name)
			require.True(t, ok)
			assert.True(t, tc.capacity.Equal(it.Capacity), "capacity %s, want %s", it.Capacity, tc.capacity)
			assert.True(t, tc.allocated.Equal(it.Allocatable), "allocatable %s, want %s", it.Allocatable, tc.allocated)
		})
	}
}

func TestDevices(t *testing.T) {
	c, err := AWS(Options{})
	require.NoError(t, err)
	tests := []struct {
		name     string
		resource resources.Name
		want     int64
	}{
		{"g4ad.xlarge", resources.AMDGPU, 1},
		{"dl1.24xlarge", resources.HabanaGaudi, 8},
		{"inf2.xlarge", resources.Neuron, 1},
		{"trn1.2xlarge", resources.Neuron, 1},
		{"m5.large", resources.GPU, 0},
	}
	for _, tc := range tests {
		it, ok := c.Get(tc.name)
		require.True(t, ok, tc.name)
		assert.Equal(t, tc.want, it.Capacity.Get(tc.resource), tc.name)
		assert.Equal(t, tc.want, it.Allocatable.Get(tc.resource), tc.name)
	}
}
