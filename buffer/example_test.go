package buffer_test

import (
	"fmt"

	"github.com/nodeplan/nodeplan/buffer"
	"github.com/nodeplan/nodeplan/instancetypes"
	"github.com/nodeplan/nodeplan/packing"
	"github.com/nodeplan/nodeplan/resources"
)

// Example keeps room for 50% of a 3-replica Deployment (2 pods), capped by
// 3 cpu of limits, and solves it beside a real pod: the buffer's pods
// come out as headroom, not as placements.
func Example() {
	web := packing.Pod{Labels: map[string]string{"app": "web"},
		Requests: resources.MustParse(map[resources.Name]string{resources.CPU: "1", resources.Memory: "1Gi"})}
	b := buffer.Buffer{Namespace: "default", Name: "web-headroom", Percentage: 50, HasPercentage: true,
		Scalable: &buffer.ScalableRef{Kind: "Deployment", Name: "web"},
		Limits:   map[resources.Name]int64{resources.CPU: 3000}}
	ws := buffer.Workloads{{Kind: buffer.Deployment, Namespace: "default", Name: "web"}: {Template: web, Replicas: 3, HasReplicas: true}}
	r := buffer.Evaluate(b, ws)
	fmt.Println(r.Reason, r.Replicas)

	real := web
	real.Namespace, real.Name = "default", "web-1"
	catalog, _ := instancetypes.AWS(instancetypes.Options{CapacityTypes: []instancetypes.CapacityType{instancetypes.OnDemand}})
	p := packing.Problem{Catalog: catalog, NodePools: []packing.NodePool{{Name: "default"}},
		Pods: append([]packing.Pod{real}, r.Pods()...)}
	plan, err := packing.Solve(p, packing.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("placed:", len(plan.Order), "headroom:", len(plan.Headroom))
	for _, s := range buffer.Summarize([]buffer.Result{r}, p.Pods, plan) {
		fmt.Println(s.Name, s.Provisioning, s.Message)
	}
	// Output:
	// Resolved 2
	// placed: 1 headroom: 2
	// web-headroom RequiresNewCapacity 2/2 virtual pods required new capacity, 0 failed
}
