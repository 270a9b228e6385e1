package problemgen_test

import (
	"fmt"

	"github.com/nodeplan/nodeplan/internal/problemgen"
	"github.com/nodeplan/nodeplan/packing"
)

// ExampleGenerate draws a problem from a seed; the same seed always gives
// the same problem, so a failing seed is a complete reproduction.
func ExampleGenerate() {
	a := problemgen.Generate(42, problemgen.Size{})
	b := problemgen.Generate(42, problemgen.Size{})
	fmt.Println(a.Validate() == nil, problemgen.Dump(a) == problemgen.Dump(b))
	// Output: true true
}

// ExampleMinimize shrinks a problem to the part that still shows a
// failure: here, "some pending pod requests GPUs".
func ExampleMinimize() {
	failing := func(p packing.Problem) bool {
		for _, pod := range p.Pods {
			if pod.Requests.Get("nvidia.com/gpu") > 0 {
				return true
			}
		}
		return false
	}
	for seed := uint64(0); ; seed++ {
		if p := problemgen.Generate(seed, problemgen.Size{}); failing(p) {
			m := problemgen.Minimize(p, failing)
			fmt.Println(len(m.Pods), len(m.Nodes), len(m.NodePools))
			return
		}
	}
	// Output: 1 0 0
}
