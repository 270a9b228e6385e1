package packing_test

import (
	"fmt"
	"testing"

	"github.com/nodeplan/nodeplan/instancetypes"
	"github.com/nodeplan/nodeplan/packing"
)

// limitBenchProblem is n pods on the karpenter-diverse catalog: NodePool
// "a" (weight 10, labels team=a, a limit of n/4 cores) and "b"; a third of
// the pods select team=a, so "a"'s limit binds.
func limitBenchProblem(n int) packing.Problem {
	pools := []packing.NodePool{
		pool("a", poolWeight(10), poolLabels("team", "a"), poolLimits("cpu", fmt.Sprint(max(1, n/4)))),
		pool("b"),
	}
	pods := make([]packing.Pod, n)
	for i := range pods {
		opts := []podOpt{req("cpu", fmt.Sprintf("%dm", 250+(i*379)%1750), "memory", fmt.Sprintf("%dMi", 256+(i*613)%3840))}
		if i%3 == 0 {
			opts = append(opts, nodeSelector("team", "a"))
		}
		pods[i] = mkPod(fmt.Sprintf("p%04d", i), opts...)
	}
	return packing.Problem{Pods: pods, NodePools: pools, Catalog: instancetypes.KarpenterDiverse()}
}

// BenchmarkLimitPolicy solves problems whose NodePool limit binds under
// both policies: LimitMostPods's reruns are its extra cost. It reports
// the pods placed and the plan's $/h.
func BenchmarkLimitPolicy(b *testing.B) {
	for _, n := range []int{100, 1000} {
		p := limitBenchProblem(n)
		for _, pol := range []packing.LimitPolicy{packing.LimitLargestFirst, packing.LimitMostPods} {
			b.Run(fmt.Sprintf("pods=%d/%v", n, pol), func(b *testing.B) {
				var plan packing.Plan
				b.ReportAllocs()
				for b.Loop() {
					var err error
					if plan, err = packing.Solve(p, packing.Options{LimitPolicy: pol}); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(len(p.Pods)-len(plan.Unschedulable)), "placed")
				b.ReportMetric(plan.Price.Dollars(), "$/h")
			})
		}
	}
}
