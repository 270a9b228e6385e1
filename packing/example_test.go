package packing_test

import (
	"fmt"

	"github.com/nodeplan/nodeplan/instancetypes"
	"github.com/nodeplan/nodeplan/packing"
	"github.com/nodeplan/nodeplan/packing/verify"
	"github.com/nodeplan/nodeplan/requirements"
	"github.com/nodeplan/nodeplan/resources"
)

func ExampleSolve() {
	catalog, _ := instancetypes.AWS(instancetypes.Options{CapacityTypes: []instancetypes.CapacityType{instancetypes.OnDemand}})
	arch := requirements.MustParse(requirements.Expression{Key: requirements.LabelArch, Operator: requirements.In, Values: []string{"amd64"}})
	var pods []packing.Pod
	for i := range 6 {
		pods = append(pods, packing.Pod{Namespace: "default", Name: fmt.Sprintf("web-%d", i),
			Requests: resources.MustParse(map[resources.Name]string{resources.CPU: "1", resources.Memory: "2Gi"})})
	}
	pods = append(pods, packing.Pod{Namespace: "default", Name: "huge",
		Requests: resources.MustParse(map[resources.Name]string{resources.CPU: "1000"})})
	problem := packing.Problem{
		Catalog:   catalog,
		NodePools: []packing.NodePool{{Name: "default", Requirements: arch}},
		Pods:      pods,
	}
	plan, err := packing.Solve(problem, packing.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, nc := range plan.NodeClaims {
		fmt.Println(nc.Name, nc.InstanceType, len(nc.Pods), "pods")
	}
	for _, u := range plan.Unschedulable {
		fmt.Println(pods[u.Pod].Name, u.Reason.Kind)
	}
	// Three 1-CPU/2Gi pods would fit a t3a.xlarge, but three t3a.medium cost less.
	fmt.Println("violations:", len(verify.Plan(problem, plan)))
	// Output:
	// default-1 t3a.medium 1 pods
	// default-2 t3a.medium 1 pods
	// default-3 t3a.medium 1 pods
	// default-4 t3a.medium 1 pods
	// default-5 t3a.medium 1 pods
	// default-6 t3a.medium 1 pods
	// huge Insufficient
	// violations: 0
}
