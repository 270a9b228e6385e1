package guide_test

import (
	"fmt"

	"github.com/nodeplan/nodeplan/benchmarks"
	"github.com/nodeplan/nodeplan/benchmarks/workload"
	"github.com/nodeplan/nodeplan/guide"
	"github.com/nodeplan/nodeplan/planview"
)

// Karpenter's diverse benchmark, 1,000 pods: the LP's nodes give
// a cheaper plan than the search alone.
func ExampleSolve() {
	p, err := benchmarks.Problem(workload.KarpenterDiverse(1000, 1), nil)
	if err != nil {
		panic(err)
	}
	res, err := guide.Solve(p, guide.Options{})
	if err != nil {
		panic(err)
	}
	fmt.Println("guided:", res.Guided)
	fmt.Printf("unguided: %s/h\n", res.Unguided.Amount())
	fmt.Println(planview.Gap(res.Plan.Price, res.Bound, "USD"))
	// Output:
	// guided: true
	// unguided: 238.579261/h
	// 230.710551 USD/hour — within 4.3 % of the best possible (221.268083 USD/hour lower bound)
}
