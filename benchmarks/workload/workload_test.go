package workload

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"testing"
)

// classOf names the class of a generated pod by its constraints.
func classOf(p Pod) string {
	switch {
	case len(p.TopologySpread) > 0:
		return "spread:" + p.TopologySpread[0].Key
	case len(p.PodAffinity) > 0:
		return "affinity:" + p.PodAffinity[0].TopologyKey
	case len(p.PodAntiAffinity) > 0:
		return "anti:" + p.PodAntiAffinity[0].TopologyKey
	default:
		return "generic"
	}
}

func TestKarpenterDiverseCounts(t *testing.T) {
	tests := []struct {
		name    string
		n       int
		generic int
		each    int
	}{
		{name: "zero", n: 0},
		{name: "negative", n: -3},
		{name: "under five", n: 4, generic: 4},
		{name: "hundred", n: 100, generic: 20, each: 20},
		{name: "remainder", n: 103, generic: 23, each: 20},
		{name: "thousand", n: 1000, generic: 200, each: 200},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			w := KarpenterDiverse(tc.n, 42)
			assert.Len(t, w.Pods, max(tc.n, 0))
			counts := map[string]int{}
			for _, p := range w.Pods {
				counts[classOf(p)]++
			}
			assert.Equal(t, tc.generic, counts["generic"])
			for _, c := range []string{"spread:" + LabelZone, "spread:" + LabelHostname,
				"affinity:" + LabelZone, "anti:" + LabelHostname} {
				assert.Equal(t, tc.each, counts[c], c)
			}
		})
	}
}

func TestKarpenterDiverseClassOrder(t *testing.T) {
	w := KarpenterDiverse(12, 7)
	want := []string{"generic", "generic", "spread:" + LabelZone, "spread:" + LabelZone,
		"spread:" + LabelHostname, "spread:" + LabelHostname, "affinity:" + LabelZone, "affinity:" + LabelZone,
		"anti:" + LabelHostname, "anti:" + LabelHostname, "generic", "generic"}
	got := make([]string, len(w.Pods))
	for i, p := range w.Pods {
		got[i] = classOf(p)
	}
	assert.Equal(t, want, got)
}

func TestKarpenterDiversePodShapes(t *testing.T) {
	w := KarpenterDiverse(500, 42)
	names := map[string]bool{}
	for _, p := range w.Pods {
		assert.Equal(t, Namespace, p.Namespace)
		assert.False(t, names[p.Name], "duplicate name %s", p.Name)
		names[p.Name] = true
		contains(t, cpuChoices, p.CPUMilli)
		contains(t, memoryChoices, p.MemoryBytes/mebi)
		assert.Zero(t, p.MemoryBytes%mebi)
		checkClassLabels(t, p)
	}
}

func checkClassLabels(t *testing.T, p Pod) {
	t.Helper()
	switch classOf(p) {
	case "anti:" + LabelHostname:
		assert.Equal(t, map[string]string{"app": "nginx"}, p.Labels)
		assert.Equal(t, p.Labels, p.PodAntiAffinity[0].Selector)
		assert.Zero(t, p.PodAntiAffinity[0].Weight, "required")
	case "affinity:" + LabelZone:
		contains(t, labelChoices, p.Labels["my-affininity"])
		assert.Equal(t, p.Labels, p.PodAffinity[0].Selector, "self-affinity")
	default:
		contains(t, labelChoices, p.Labels["my-label"])
	}
	for _, s := range p.TopologySpread {
		assert.Equal(t, int32(1), s.MaxSkew)
		assert.True(t, s.DoNotSchedule)
		contains(t, labelChoices, s.Selector["my-label"])
	}
}

func TestKarpenterDiverseUsesAllChoices(t *testing.T) {
	w := KarpenterDiverse(1000, 42)
	cpus, mems, values := map[int64]bool{}, map[int64]bool{}, map[string]bool{}
	for _, p := range w.Pods {
		cpus[p.CPUMilli], mems[p.MemoryBytes] = true, true
		values[p.Labels["my-label"]+p.Labels["my-affininity"]] = true
	}
	assert.Len(t, cpus, len(cpuChoices))
	assert.Len(t, mems, len(memoryChoices))
	assert.Len(t, values, len(labelChoices)+1, "seven values plus the anti-affinity pods' empty one")
}

func TestGeneratorsAreDeterministic(t *testing.T) {
	gens := map[string]func(int, int64) Workload{
		"diverse": KarpenterDiverse, "preferences": KarpenterDiversePreferences, "zone-spread": ZoneSpread,
	}
	for name, gen := range gens {
		t.Run(name, func(t *testing.T) {
			a, b := gen(237, 11), gen(237, 11)
			assert.True(t, reflect.DeepEqual(a, b), "same seed gives the same workload")
			c := gen(237, 12)
			assert.False(t, reflect.DeepEqual(a.Pods, c.Pods), "another seed gives other pods")
		})
	}
}

type recordingSource struct {
	r     *rand.Rand
	calls []int
}

func (s *recordingSource) IntN(n int) int {
	s.calls = append(s.calls, n)
	return s.r.IntN(n)
}

func TestKarpenterDiverseFromDrawOrder(t *testing.T) {
	src := &recordingSource{r: rand.New(rand.NewPCG(1, 2))}
	KarpenterDiverseFrom(5, src)
	want := []int{7, 5, 6, 7, 7, 5, 6, 7, 7, 5, 6, 7, 5, 6, 5, 6}
	assert.Equal(t, want, src.calls, "label, [selector,] cpu, memory per pod, class by class")
}

func TestFakeInstanceTypes(t *testing.T) {
	its := FakeInstanceTypes(FakeTypeCount)
	require.Len(t, its, 400)
	for i, it := range its {
		cores := int64(i + 1)
		assert.Equal(t, fmt.Sprintf("fake-it-%d", i), it.Name)
		assert.Equal(t, cores*1000, it.CPUMilli)
		assert.Equal(t, 2*cores*gibi, it.MemoryBytes)
		assert.Equal(t, 10*cores, it.Pods)
		assert.Equal(t, int64(100), it.OverheadCPUMilli)
		assert.Equal(t, 10*mebi, it.OverheadMemoryBytes)
		require.Len(t, it.Offerings, 5)
		for _, o := range it.Offerings {
			assert.True(t, o.Available)
			assert.InDelta(t, 0.1*float64(cores)+0.1*float64(2*cores*gibi)/1e9, o.PricePerHour, 1e-9)
		}
	}
	assert.Equal(t, map[string]string{LabelInteger: "4", LabelSize: "small"}, its[3].Labels)
	assert.Equal(t, map[string]string{LabelInteger: "5", LabelSize: "large", LabelSpecial: "optional"}, its[4].Labels)
	assert.InDelta(t, 0.3147483648, its[0].Offerings[0].PricePerHour, 1e-9)
}

func TestNodePool(t *testing.T) {
	np := KarpenterDiverse(1, 1).NodePools
	require.Len(t, np, 1)
	assert.Equal(t, int64(10_000_000_000), np[0].LimitsCPUMilli)
	assert.Equal(t, int64(10_000_000)*gibi, np[0].LimitsMemoryBytes)
	assert.Empty(t, np[0].Requirements)
	assert.Empty(t, np[0].Taints)
}

func TestKarpenterDiversePreferences(t *testing.T) {
	w := KarpenterDiversePreferences(4000, 42)
	require.Len(t, w.Pods, 4000)
	first := w.Pods[0]
	for _, p := range w.Pods {
		assert.Equal(t, map[string]string{"app": "nginx"}, p.Labels)
		assert.Equal(t, first.CPUMilli, p.CPUMilli, "one request shared by all, as in Karpenter")
		assert.Equal(t, first.MemoryBytes, p.MemoryBytes)
		require.Len(t, p.PodAntiAffinity, 2)
		assert.Equal(t, AffinityTerm{TopologyKey: LabelZone, Selector: map[string]string{"app": "nginx"}, Weight: 10}, p.PodAntiAffinity[0])
		assert.Equal(t, int32(1), p.PodAntiAffinity[1].Weight)
		require.Len(t, p.PreferredNodeAffinity, 1)
		assert.Equal(t, []Requirement{{Key: LabelZone, Operator: "In", Values: []string{"test-zone-1"}}},
			p.PreferredNodeAffinity[0].Requirements)
	}
	assert.Empty(t, KarpenterDiversePreferences(-1, 42).Pods)
}

func TestZoneSpread(t *testing.T) {
	tests := []struct {
		n, deployments, last int
	}{{0, 0, 0}, {1, 1, 1}, {20, 1, 20}, {45, 3, 5}, {1000, 50, 20}}
	for _, tc := range tests {
		t.Run(fmt.Sprint(tc.n), func(t *testing.T) {
			w := ZoneSpread(tc.n, 5)
			require.Len(t, w.Pods, tc.n)
			byApp := map[string][]Pod{}
			for _, p := range w.Pods {
				require.Len(t, p.TopologySpread, 1)
				s := p.TopologySpread[0]
				assert.Equal(t, Spread{Key: LabelZone, MaxSkew: 1, DoNotSchedule: true, Selector: p.Labels}, s)
				byApp[p.Labels["app"]] = append(byApp[p.Labels["app"]], p)
			}
			assert.Len(t, byApp, tc.deployments)
			if tc.n > 0 {
				assert.Len(t, byApp[fmt.Sprintf("deploy-%d", tc.deployments-1)], tc.last)
			}
			for _, ps := range byApp {
				for _, p := range ps {
					assert.Equal(t, ps[0].CPUMilli, p.CPUMilli, "replicas are identical")
				}
			}
		})
	}
}

func FuzzKarpenterDiverse(f *testing.F) {
	f.Add(0, int64(0))
	f.Add(7, int64(42))
	f.Add(-1, int64(-9))
	f.Add(101, int64(1<<40))
	f.Fuzz(func(t *testing.T, n int, seed int64) {
		n %= 2000
		w := KarpenterDiverse(n, seed)
		if len(w.Pods) != max(n, 0) {
			t.Fatalf("len(Pods) = %d; want %d", len(w.Pods), max(n, 0))
		}
		if !reflect.DeepEqual(w, KarpenterDiverse(n, seed)) {
			t.Fatal("not deterministic")
		}
	})
}
