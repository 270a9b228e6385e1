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
