package workload

import (
	"reflect"
	"testing"
)

func TestBasicScaleOut(t *testing.T) {
	tests := []struct {
		name         string
		n            int
		small, large int
	}{
		{name: "suite", n: BasicScaleOutPods, small: 500, large: 500},
		{name: "odd", n: 7, small: 3, large: 4},
		{name: "negative", n: -1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			w := BasicScaleOut(tc.n)
			if w.Catalog != CatalogAWS || len(w.InstanceTypes) != 0 {
				t.Fatalf("catalog %q with %d types; want %q and none", w.Catalog, len(w.InstanceTypes), CatalogAWS)
			}
			counts := map[[2]int64]int{}
			for _, p := range w.Pods {
				counts[[2]int64{p.CPUMilli, p.MemoryBytes}]++
			}
			if counts[[2]int64{900, 3100 * mebi}] != tc.small || counts[[2]int64{3500, 28 * gibi}] != tc.large {
				t.Errorf("shapes %v; want %d small and %d large", counts, tc.small, tc.large)
			}
		})
	}
}

func TestMixedShares(t *testing.T) {
	w := Mixed(1000, 7)
	if len(w.Pods) != 1000 || w.Catalog != CatalogAWS {
		t.Fatalf("%d pods on %q", len(w.Pods), w.Catalog)
	}
	kinds := map[string]int{}
	for _, p := range w.Pods {
		kinds[p.Labels["kind"]]++
		if (p.Labels["kind"] == "gpu") != (p.GPU == 1) {
			t.Errorf("%s: gpu %d", p.Name, p.GPU)
		}
		if (p.Labels["kind"] == "web") != (len(p.TopologySpread) == 1) {
			t.Errorf("%s: spreads %v", p.Name, p.TopologySpread)
		}
	}
	want := map[string]int{"web": 500, "batch": 250, "memory": 150, "gpu": 100}
	if !reflect.DeepEqual(kinds, want) {
		t.Errorf("kinds %v; want %v", kinds, want)
	}
}

func TestMixedSmallAndDeterministic(t *testing.T) {
	for _, n := range []int{0, 1, 9, 33} {
		w := Mixed(n, 3)
		if len(w.Pods) != n {
			t.Errorf("Mixed(%d) has %d pods", n, len(w.Pods))
		}
		if !reflect.DeepEqual(w, Mixed(n, 3)) {
			t.Errorf("Mixed(%d, 3) differs between calls", n)
		}
	}
	if reflect.DeepEqual(Mixed(100, 1).Pods, Mixed(100, 2).Pods) {
		t.Error("seeds 1 and 2 give the same pods")
	}
}
