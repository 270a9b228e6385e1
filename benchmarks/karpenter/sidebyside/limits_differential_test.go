package sidebyside

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/nodeplan/nodeplan/benchmarks/workload"
	"github.com/nodeplan/nodeplan/packing"
)

// limitsCases is the number of problems TestDifferentialLimits runs (a
// fifth of them with -short).
const limitsCases = 120

// limitsWorkload generates problem seed, where a NodePool limit binds: on
// the first 5 to 16 fake types (fake-it-4 and up are special=optional), NodePool "a" (weight 10 to 100, a cpu
// limit of 2 to 24 cores) takes every pod, NodePool "b" (weight 0) only
// on-demand nodes of types without the special label; 5 to 60 pods of 100m
// to 3.5 cpu, a third of them asking for spot or special=optional, which
// only "a" offers.
func limitsWorkload(seed int64) (workload.Workload, string) {
	r := rand.New(rand.NewPCG(uint64(seed), 0x6c696d697473))
	types := 5 + r.IntN(12)
	limit := int64(2 + r.IntN(23))
	w := workload.Workload{
		Name:          "limits",
		InstanceTypes: workload.FakeInstanceTypes(types),
		NodePools: []workload.NodePool{
			{Name: "a", Weight: int32(10 + r.IntN(91)), LimitsCPUMilli: limit * 1000},
			{Name: "b", Requirements: []workload.Requirement{
				{Key: workload.LabelCapacityType, Operator: "In", Values: []string{"on-demand"}},
				{Key: workload.LabelSpecial, Operator: "DoesNotExist"},
			}},
		},
	}
	n := 5 + r.IntN(56)
	exclusive := 0
	for i := range n {
		p := workload.Pod{Namespace: workload.Namespace, Name: fmt.Sprintf("p-%d", i),
			CPUMilli: int64(100 + r.IntN(3400)), MemoryBytes: int64(64+r.IntN(4096)) << 20}
		switch r.IntN(6) {
		case 0:
			p.NodeSelector, exclusive = map[string]string{workload.LabelCapacityType: "spot"}, exclusive+1
		case 1:
			p.NodeSelector, exclusive = map[string]string{workload.LabelSpecial: "optional"}, exclusive+1
		}
		w.Pods = append(w.Pods, p)
	}
	return w, fmt.Sprintf("pods=%d exclusive=%d types=%d limit=%d cores", n, exclusive, types, limit)
}

// TestDifferentialLimits runs problems with a binding NodePool limit (see
// limitsWorkload) through Karpenter and nodeplan's default options
// (LimitMostPods) and checks what TestDifferential checks: nodeplan
// schedules every pod Karpenter does, by count, at no higher $/h when both
// schedule as many. It logs how often nodeplan with LimitLargestFirst,
// Karpenter's rule, would have scheduled fewer pods than Karpenter: the
// shortfall LimitMostPods fixes. NODEPLAN_DIFFERENTIAL_RUNS runs Karpenter
// that many times per problem, as for TestDifferential.
func TestDifferentialLimits(t *testing.T) {
	n := limitsCases
	if testing.Short() {
		n /= 5
	}
	runs := karpenterRuns(t, 0) // its problems are small (see limitsWorkload)
	var behind, ahead, fewerPodsLF int
	for seed := range int64(n) {
		w, desc := limitsWorkload(seed)
		mp, err := RunNodeplan(w, packing.Options{})
		if err != nil {
			t.Fatalf("seed %d (%s): nodeplan: %v", seed, desc, err)
		}
		lf, err := RunNodeplan(w, packing.Options{LimitPolicy: packing.LimitLargestFirst})
		if err != nil {
			t.Fatalf("seed %d (%s): nodeplan LimitLargestFirst: %v", seed, desc, err)
		}
		if mp.Scheduled < lf.Scheduled {
			t.Errorf("seed %d (%s): LimitMostPods scheduled %d pods, LimitLargestFirst %d", seed, desc, mp.Scheduled, lf.Scheduled)
		}
		b, err := LowerBound(w)
		if err != nil {
			t.Fatalf("seed %d (%s): bound: %v", seed, desc, err)
		}
		for range runs {
			k, err := RunKarpenter(w, KarpenterOptions{})
			if err != nil {
				t.Fatalf("seed %d (%s): karpenter: %v", seed, desc, err)
			}
			checkDifferential(t, seed, "limits "+desc, k, mp)
			checkBound(t, seed, "limits "+desc, k, mp, b)
			if lf.Scheduled < k.Scheduled {
				behind++
			}
			if mp.Scheduled > k.Scheduled {
				ahead++
			}
		}
		if lf.Scheduled < mp.Scheduled {
			fewerPodsLF++
		}
	}
	t.Logf("%d problems × %d Karpenter runs: LimitLargestFirst scheduled fewer pods than Karpenter in %d runs; "+
		"LimitMostPods scheduled more than Karpenter in %d runs and more than LimitLargestFirst on %d problems",
		n, runs, behind, ahead, fewerPodsLF)
}
