package sidebyside

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nodeplan/nodeplan/benchmarks/workload"
	"github.com/nodeplan/nodeplan/packing"
)

func TestLowerBound(t *testing.T) {
	fake := workload.FakeInstanceTypes(4)
	price := func(i int) float64 { return fake[i].Offerings[0].PricePerHour }
	anti := caWorkload(4, 3, 100, 100)
	for i := range anti.Pods {
		anti.Pods[i].PodAntiAffinity = []workload.AffinityTerm{{TopologyKey: workload.LabelHostname,
			Selector: map[string]string{"app": "x"}}}
	}
	tests := []struct {
		name        string
		w           workload.Workload
		single      float64
		antiBound   float64
		lp          float64
		unplaceable int
	}{
		// One pod needs a node: the cheapest.
		{name: "one small pod", w: caWorkload(4, 1, 100, 100), single: price(0), lp: price(0)},
		// Three pods no two of which share a node: three of the cheapest.
		{name: "anti-affinity", w: anti, single: price(0), antiBound: 3 * price(0), lp: 3 * price(0)},
		{name: "too big", w: caWorkload(4, 2, 9000, 100), unplaceable: 2},
		{name: "empty", w: caWorkload(4, 0, 0, 0)},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b, err := LowerBound(tc.w)
			require.NoError(t, err)
			assert.InDelta(t, tc.single, b.SinglePod, 1e-9)
			assert.InDelta(t, tc.antiBound, b.AntiAffinity, 1e-9)
			assert.InDelta(t, tc.lp, b.LP, 1e-6)
			assert.Equal(t, tc.unplaceable, b.Unplaceable)
			assert.GreaterOrEqual(t, b.PricePerHour, max(b.LP, b.AntiAffinity, b.SinglePod))
		})
	}
}

// TestLowerBoundLP checks the LP on a case with a known optimum: 8 pods of
// 900m on fake types whose allocatable holds ⌊(1000k−overhead)/900⌋ of
// them; the configuration LP covers the 8 pods with the type of least
// price per pod it holds, fractionally. (The aggregated LP this bound
// replaced priced 7.2 cores at fake-it-3's price per allocatable core,
// below any plan: a node holds whole pods.)
func TestLowerBoundLP(t *testing.T) {
	w := caWorkload(4, 8, 900, 100)
	b, err := LowerBound(w)
	require.NoError(t, err)
	perPod := math.Inf(1)
	for _, it := range workload.FakeInstanceTypes(4) {
		if fit := (it.CPUMilli - it.OverheadCPUMilli) / 900; fit > 0 {
			perPod = min(perPod, it.Offerings[0].PricePerHour/float64(fit))
		}
	}
	assert.InDelta(t, 8*perPod, b.LP, 1e-6)
	assert.True(t, b.Optimal)
	plan, err := RunNodeplan(w, packing.Options{})
	require.NoError(t, err)
	assert.LessOrEqual(t, b.PricePerHour, plan.PricePerHour+1e-9)
}

// TestLowerBoundBelowPlans checks the bound against every implementation
// on small cuts of every workload.
func TestLowerBoundBelowPlans(t *testing.T) {
	ws := []workload.Workload{workload.KarpenterDiverse(60, 1), workload.KarpenterDiversePreferences(30, 1),
		workload.ZoneSpread(60, 1), workload.BasicScaleOut(60), workload.Mixed(60, 1)}
	for _, w := range ws {
		b, err := LowerBound(w)
		require.NoError(t, err)
		for name, run := range map[string]func() (Result, error){
			"karpenter": func() (Result, error) { return RunKarpenter(w, KarpenterOptions{}) },
			"nodeplan":  func() (Result, error) { return RunNodeplan(w, packing.Options{}) },
			"ca":        func() (Result, error) { return RunClusterAutoscaler(w, CAOptions{}) },
		} {
			res, err := run()
			require.NoError(t, err)
			require.Equal(t, res.Pods, res.Scheduled, "%s %s", w.Name, name)
			assert.LessOrEqual(t, b.PricePerHour, res.PricePerHour*(1+1e-9), "%s %s", w.Name, name)
		}
	}
}
