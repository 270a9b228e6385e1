package sidebyside

import (
	"fmt"
	"testing"

	"github.com/nodeplan/nodeplan/benchmarks/workload"
)

func TestScratch2(t *testing.T) {
	w := workload.BasicScaleOut(1000)
	run, err := Prepare(w, KarpenterOptions{})
	if err != nil { t.Fatal(err) }
	results, err := run.scheduler.Solve(run.ctx, run.pods)
	if err != nil { t.Fatal(err) }
	for _, nc := range results.NewNodeClaims {
		it := nc.InstanceTypeOptions
		a := it[0].Allocatable(); fmt.Println(len(nc.Pods), len(it), it[0].Name, it[0].Capacity, a.Cpu(), a.Memory(), a.Pods(), launchPrice(nc))
	}
	fmt.Println(len(results.PodErrors))
}
