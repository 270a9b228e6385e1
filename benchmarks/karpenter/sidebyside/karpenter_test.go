package sidebyside

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nodeplan/nodeplan/benchmarks/workload"
)

func TestRunKarpenterDiverse100(t *testing.T) {
	w := workload.KarpenterDiverse(100, 42)
	res, err := RunKarpenter(w, KarpenterOptions{})
	require.NoError(t, err)
	assert.Equal(t, 100, res.Pods)
	assert.Equal(t, 100, res.Scheduled, "every pod schedules")
	// The 20 hostname anti-affinity pods need a node each.
	assert.GreaterOrEqual(t, res.NodeClaims, 20)
	assert.Greater(t, res.PricePerHour, 0.0)
	assert.Positive(t, res.Duration)
}

func TestPrepareErrors(t *testing.T) {
	w := workload.KarpenterDiverse(5, 1)
	w.NodePools = nil
	_, err := Prepare(w, KarpenterOptions{})
	assert.True(t, errors.Is(err, ErrNoNodePool), "got %v", err)

	run, err := Prepare(workload.KarpenterDiverse(5, 1), KarpenterOptions{})
	require.NoError(t, err)
	_, err = run.Solve()
	require.NoError(t, err)
	_, err = run.Solve()
	assert.ErrorIs(t, err, ErrSolved)
}

func TestConvertFakeTypes(t *testing.T) {
	its := instanceTypes(workload.FakeInstanceTypes(6))
	require.Len(t, its, 6)
	small, large := its[3], its[4] // 4 cores/8Gi and 5 cores/10Gi
	assert.Equal(t, "small", small.Requirements.Get(workload.LabelSize).Any())
	assert.False(t, small.Requirements.Get(workload.LabelSpecial).Has("optional"))
	assert.Equal(t, "large", large.Requirements.Get(workload.LabelSize).Any())
	assert.Equal(t, "optional", large.Requirements.Get(workload.LabelSpecial).Any())
	assert.Equal(t, "5", large.Requirements.Get(workload.LabelInteger).Any())
	assert.Len(t, large.Offerings, 5)
	assert.InDelta(t, 0.5+0.1*10*float64(1<<30)/1e9, large.Offerings[0].Price, 1e-12)
	alloc := large.Allocatable()
	assert.Equal(t, int64(4900), alloc.Cpu().MilliValue())
}

func TestConvertPodIsStable(t *testing.T) {
	w := workload.KarpenterDiverse(10, 3)
	a, b := pods(w.Pods), pods(w.Pods)
	for i := range a {
		assert.Equal(t, a[i].UID, b[i].UID)
	}
	anti := a[8] // the one hostname anti-affinity pod of 10
	require.NotNil(t, anti.Spec.Affinity)
	require.Len(t, anti.Spec.Affinity.PodAntiAffinity.RequiredDuringSchedulingIgnoredDuringExecution, 1)
	assert.Equal(t, "kubernetes.io/hostname",
		anti.Spec.Affinity.PodAntiAffinity.RequiredDuringSchedulingIgnoredDuringExecution[0].TopologyKey)
}

// TestReferenceDiverse pins the replayed workloads to the reference figures:
// the doc's resource lower bounds are the cpu totals times $0.3148 per core.
func TestReferenceDiverse(t *testing.T) {
	ws := ReferenceDiverse(ReferenceSizes...)
	require.Len(t, ws, 3)
	wantCPU := []int64{70_650, 678_550, 3_312_150}
	wantBound := []float64{22.24, 213.61, 1042.67}
	for i, w := range ws {
		var cpu int64
		for _, p := range w.Pods {
			cpu += p.CPUMilli
		}
		assert.Len(t, w.Pods, ReferenceSizes[i])
		assert.Equal(t, wantCPU[i], cpu, "size %d", ReferenceSizes[i])
		assert.InDelta(t, wantBound[i], float64(cpu)/1000*0.3148, 0.01)
	}
}

func TestRunReferenceDiverse100(t *testing.T) {
	res, err := RunKarpenter(ReferenceDiverse(100)[0], KarpenterOptions{})
	require.NoError(t, err)
	assert.Equal(t, 100, res.Scheduled)
	assert.Equal(t, 20, res.NodeClaims, "reference: 20 nodes")
	// Karpenter's own result varies between runs on the same input
	// ($31.79 to $32.73 seen here; the reference run gave $32.42).
	assert.InDelta(t, 32.42, res.PricePerHour, 2.5)
}
