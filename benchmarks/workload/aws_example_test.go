package workload_test

import (
	"fmt"

	"github.com/nodeplan/nodeplan/benchmarks/workload"
)

func ExampleBasicScaleOut() {
	w := workload.BasicScaleOut(workload.BasicScaleOutPods)
	first, last := w.Pods[0], w.Pods[len(w.Pods)-1]
	fmt.Println(w.Name, w.Catalog, len(w.Pods), first.Name, first.CPUMilli, last.Name, last.MemoryBytes>>30)
	// Output:
	// basic-scale-out aws 1000 small-resource-app-0 900 large-resource-app-499 28
}
