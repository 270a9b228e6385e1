package workload_test

import (
	"fmt"

	"github.com/nodeplan/nodeplan/benchmarks/workload"
)

func ExampleKarpenterDiverse() {
	w := workload.KarpenterDiverse(1000, 42)
	fmt.Println(w.Name, len(w.InstanceTypes), "types", len(w.NodePools), "pool", len(w.Pods), "pods")
	anti := w.Pods[800]
	fmt.Println(anti.Name, anti.PodAntiAffinity[0].TopologyKey)
	it := w.InstanceTypes[4]
	fmt.Printf("%s %dm %dGi $%.4f/h %v\n", it.Name, it.CPUMilli, it.MemoryBytes>>30, it.Offerings[0].PricePerHour, it.Labels)
	// Output:
	// karpenter-diverse 400 types 1 pool 1000 pods
	// hostname-anti-affinity-0 kubernetes.io/hostname
	// fake-it-4 5000m 10Gi $1.5737/h map[integer:5 size:large special:optional]
}

func ExampleZoneSpread() {
	w := workload.ZoneSpread(50, 1)
	last := w.Pods[len(w.Pods)-1]
	fmt.Println(len(w.Pods), last.Name, last.TopologySpread[0].Key, last.TopologySpread[0].MaxSkew)
	// Output:
	// 50 deploy-2-9 topology.kubernetes.io/zone 1
}
