package sidebyside

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nodeplan/nodeplan/benchmarks/workload"
)

// caWorkload is n pods of cpu millicores and memory MiB on the first
// `types` fake types with the benchmark NodePool.
func caWorkload(types, n int, cpu, memoryMiB int64) workload.Workload {
	w := workload.Workload{Name: "ca", InstanceTypes: workload.FakeInstanceTypes(types),
		NodePools: []workload.NodePool{{Name: "default"}}}
	for i := range n {
		w.Pods = append(w.Pods, workload.Pod{Namespace: "default", Name: string(rune('a' + i)),
			Labels: map[string]string{"app": "x"}, CPUMilli: cpu, MemoryBytes: memoryMiB << 20})
	}
	return w
}

func TestClusterAutoscaler(t *testing.T) {
	anti := caWorkload(4, 3, 100, 100)
	for i := range anti.Pods {
		anti.Pods[i].PodAntiAffinity = []workload.AffinityTerm{{TopologyKey: workload.LabelHostname,
			Selector: map[string]string{"app": "x"}}}
	}
	tests := []struct {
		name      string
		w         workload.Workload
		opts      CAOptions
		scheduled int
		nodes     int
	}{
		// Three 900m pods: one fake-it-2 (3 cores, 2900m allocatable) wastes
		// 10% of its cpu, two fake-it-1 (2 cores each) 32.5%.
		{name: "least-waste packs", w: caWorkload(4, 3, 900, 100), opts: CAOptions{NodeGroups: []string{"fake-it-1", "fake-it-2"}},
			scheduled: 3, nodes: 1},
		{name: "one group", w: caWorkload(4, 3, 900, 100), opts: CAOptions{NodeGroups: []string{"fake-it-1"}},
			scheduled: 3, nodes: 2},
		{name: "anti-affinity spreads", w: anti, scheduled: 3, nodes: 3},
		{name: "too big for every group", w: caWorkload(2, 2, 5000, 100), scheduled: 0, nodes: 0},
		{name: "price expander", w: caWorkload(4, 4, 900, 100), opts: CAOptions{Expander: ExpanderPrice}, scheduled: 4, nodes: 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res, err := RunClusterAutoscaler(tc.w, tc.opts)
			require.NoError(t, err)
			assert.Equal(t, len(tc.w.Pods), res.Pods)
			assert.Equal(t, tc.scheduled, res.Scheduled)
			assert.Equal(t, tc.nodes, res.NodeClaims)
		})
	}
}

func TestClusterAutoscalerErrors(t *testing.T) {
	_, err := RunClusterAutoscaler(caWorkload(2, 1, 100, 100), CAOptions{NodeGroups: []string{"nope"}})
	assert.ErrorIs(t, err, ErrUnknownInstanceType)
	_, err = RunClusterAutoscaler(workload.Workload{Name: "x", Catalog: "gcp"}, CAOptions{})
	assert.ErrorIs(t, err, ErrUnknownCatalog)
	assert.Equal(t, "least-waste", ExpanderLeastWaste.String())
	assert.Equal(t, "price", ExpanderPrice.String())
	assert.Equal(t, "Expander(9)", Expander(9).String())
}

func TestDefaultNodeGroups(t *testing.T) {
	assert.Equal(t, []string{"fake-it-0", "fake-it-1", "fake-it-3", "fake-it-7"},
		DefaultNodeGroups(workload.Workload{InstanceTypes: workload.FakeInstanceTypes(10)}))
	aws := DefaultNodeGroups(workload.BasicScaleOut(1))
	assert.Len(t, aws, 26)
	c, err := Catalog(workload.BasicScaleOut(1))
	require.NoError(t, err)
	for _, name := range aws {
		_, ok := c.Get(name)
		assert.True(t, ok, name)
	}
}

// TestClusterAutoscalerAWS checks the model on both AWS workloads: every
// pod placed, at no less than the lower bound.
func TestClusterAutoscalerAWS(t *testing.T) {
	for _, w := range []workload.Workload{workload.BasicScaleOut(100), workload.Mixed(100, 1)} {
		res, err := RunClusterAutoscaler(w, CAOptions{})
		require.NoError(t, err)
		assert.Equal(t, len(w.Pods), res.Scheduled, w.Name)
		b, err := LowerBound(w)
		require.NoError(t, err)
		assert.GreaterOrEqual(t, res.PricePerHour, b.PricePerHour, w.Name)
	}
}
