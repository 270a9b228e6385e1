package packing_test

import (
	"fmt"
	"testing"

	"github.com/nodeplan/nodeplan/instancetypes"
	"github.com/nodeplan/nodeplan/packing"
	"github.com/nodeplan/nodeplan/requirements"
)

// spreadProblem is n pods of one app spread with maxSkew 1 over key on
// the 400 types of the karpenter-diverse catalog: on the zone (three
// domains) or on the instance type (400 domains).
func spreadProblem(n int, key string) packing.Problem {
	pods := mkPods("p", n, podLabels(app...), req("cpu", "1"), spread(spreadBy(key, 1, app...)))
	return packing.Problem{Pods: pods, NodePools: []packing.NodePool{pool("default")}, Catalog: instancetypes.KarpenterDiverse()}
}

// BenchmarkSpread solves a topology spread over few domains (zone) and
// over many (instance type), which must cost about the same.
func BenchmarkSpread(b *testing.B) {
	for _, key := range []string{requirements.LabelZone, requirements.LabelHostname, requirements.LabelInstanceType} {
		for _, n := range []int{4, 32} {
			b.Run(fmt.Sprintf("key=%s/pods=%d", key, n), func(b *testing.B) {
				p := spreadProblem(n, key)
				b.ReportAllocs()
				for b.Loop() {
					plan, err := packing.Solve(p, packing.Options{})
					if err != nil || len(plan.Unschedulable) > 0 {
						b.Fatal(err, plan.Unschedulable)
					}
				}
			})
		}
	}
}

// minValuesProblem is n pods of karpenter-diverse-like sizes on the
// embedded AWS catalog under one NodePool; with min, the pool asks for at
// least 5 instance families and 10 instance types, as Karpenter's docs
// suggest for spot.
func minValuesProblem(b testing.TB, n int, min bool) packing.Problem {
	cat, err := instancetypes.AWS(instancetypes.Options{})
	if err != nil {
		b.Fatal(err)
	}
	np := pool("default")
	if min {
		np = pool("default", poolReq(withMin(exists(requirements.LabelInstanceFamily), 5), withMin(exists(requirements.LabelInstanceType), 10)))
	}
	pods := make([]packing.Pod, n)
	for i := range pods {
		pods[i] = mkPod(fmt.Sprintf("p%03d", i), req("cpu", fmt.Sprintf("%dm", 250+(i*379)%1750), "memory", fmt.Sprintf("%dMi", 256+(i*613)%3840)))
	}
	return packing.Problem{Pods: pods, NodePools: []packing.NodePool{np}, Catalog: cat}
}

// BenchmarkMinValues solves the same pods under a NodePool with and
// without minValues; issue 19 wants the first within 1.5× of the second.
func BenchmarkMinValues(b *testing.B) {
	for _, n := range []int{20, 200} {
		for _, min := range []bool{false, true} {
			b.Run(fmt.Sprintf("pods=%d/minValues=%v", n, min), func(b *testing.B) {
				p := minValuesProblem(b, n, min)
				var plan packing.Plan
				b.ReportAllocs()
				for b.Loop() {
					var err error
					if plan, err = packing.Solve(p, packing.Options{}); err != nil || len(plan.Unschedulable) > 0 {
						b.Fatal(err, plan.Unschedulable)
					}
				}
				b.ReportMetric(plan.Price.Dollars(), "$/h")
			})
		}
	}
}
