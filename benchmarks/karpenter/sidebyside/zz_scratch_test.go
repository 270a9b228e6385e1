package sidebyside

import (
	"fmt"
	"testing"

	"github.com/nodeplan/nodeplan/benchmarks/workload"
	"github.com/nodeplan/nodeplan/packing"
)

func TestScratch(t *testing.T) {
	for _, w := range []workload.Workload{workload.BasicScaleOut(1000), workload.Mixed(500, 1), workload.ZoneSpread(500, 1)} {
		k, err := RunKarpenter(w, KarpenterOptions{})
		fmt.Printf("%s karpenter %+v %v\n", w.Name, k, err)
		n, err := RunNodeplan(w, packing.Options{})
		fmt.Printf("%s nodeplan %+v %v\n", w.Name, n, err)
	}
}
