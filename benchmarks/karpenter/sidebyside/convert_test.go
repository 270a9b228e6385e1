package sidebyside

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nodeplan/nodeplan/benchmarks/workload"
	"github.com/nodeplan/nodeplan/packing"
)

// TestConvertDaemonsGPUMinValues runs small workloads using the workload
// fields both sides convert beyond pods and pools (daemonsets, GPU
// capacity, minValues) through Karpenter and nodeplan: both see them, so
// both plans agree.
func TestConvertDaemonsGPUMinValues(t *testing.T) {
	fake := workload.FakeInstanceTypes(8) // fake-it-i: i+1 cores
	gpu := gpuTypes(1)[:1]                // 4 cores, 1 GPU
	pod := func(cpu, gpus int64) workload.Pod {
		return workload.Pod{Namespace: "default", Name: fmt.Sprintf("p-%d-%d", cpu, gpus), CPUMilli: cpu, MemoryBytes: 1 << 20, GPU: gpus}
	}
	pool := workload.NodePool{Name: "default"}
	rows := []struct {
		name      string
		w         workload.Workload
		scheduled int
		price     float64
	}{
		{name: "no daemonset: a 2500m pod fits the 3-core type",
			w:         workload.Workload{InstanceTypes: fake, NodePools: []workload.NodePool{pool}, Pods: []workload.Pod{pod(2500, 0)}},
			scheduled: 1, price: fake[2].Offerings[0].PricePerHour},
		{name: "a 1000m daemonset takes room: the 4-core type",
			w: workload.Workload{InstanceTypes: fake, NodePools: []workload.NodePool{pool}, Pods: []workload.Pod{pod(2500, 0)},
				DaemonSets: []workload.Pod{{Namespace: "kube-system", Name: "agent", CPUMilli: 1000}}},
			scheduled: 1, price: fake[3].Offerings[0].PricePerHour},
		{name: "a GPU pod needs the GPU type",
			w:         workload.Workload{InstanceTypes: append(fake[:2:2], gpu...), NodePools: []workload.NodePool{pool}, Pods: []workload.Pod{pod(500, 1)}},
			scheduled: 1, price: gpu[0].Offerings[0].PricePerHour},
		{name: "two GPUs fit no type",
			w:         workload.Workload{InstanceTypes: append(fake[:2:2], gpu...), NodePools: []workload.NodePool{pool}, Pods: []workload.Pod{pod(500, 2)}},
			scheduled: 0},
		{name: "minValues 3 on the instance type: 3 types fit, so the pod schedules",
			w: workload.Workload{InstanceTypes: fake[5:], Pods: []workload.Pod{pod(500, 0)}, NodePools: []workload.NodePool{{Name: "default",
				Requirements: []workload.Requirement{{Key: labelInstanceType, Operator: "Exists", MinValues: 3}}}}},
			scheduled: 1, price: fake[5].Offerings[0].PricePerHour},
		{name: "minValues 4 on the instance type: only 3 types, so it does not",
			w: workload.Workload{InstanceTypes: fake[5:], Pods: []workload.Pod{pod(500, 0)}, NodePools: []workload.NodePool{{Name: "default",
				Requirements: []workload.Requirement{{Key: labelInstanceType, Operator: "Exists", MinValues: 4}}}}},
			scheduled: 0},
	}
	for _, row := range rows {
		t.Run(row.name, func(t *testing.T) {
			k, err := RunKarpenter(row.w, KarpenterOptions{})
			require.NoError(t, err)
			n, err := RunNodeplan(row.w, packing.Options{})
			require.NoError(t, err)
			for _, r := range []Result{k, n} {
				assert.Equal(t, row.scheduled, r.Scheduled)
				assert.InDelta(t, row.price, r.PricePerHour, 1e-9)
			}
		})
	}
}
