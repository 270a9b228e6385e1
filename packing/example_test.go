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

// A node's CSI attach limits bound the claims its pods may mount: the
// node, limited to 2 volumes of the EBS driver, takes the pod of one new
// claim and no more; the third pod gets a new node.
func ExampleVolume() {
	catalog, _ := instancetypes.AWS(instancetypes.Options{CapacityTypes: []instancetypes.CapacityType{instancetypes.OnDemand}})
	claim := func(name string) *packing.Volumes {
		return &packing.Volumes{Claims: []packing.Volume{{Driver: "ebs.csi.aws.com", Claim: "db/" + name}}}
	}
	node := packing.Node{Name: "node-1", InstanceType: "m5.large", Zone: "us-east-1a", Initialized: true,
		Labels:       map[string]string{requirements.LabelArch: "amd64", requirements.LabelOS: "linux"},
		Allocatable:  resources.MustParse(map[resources.Name]string{resources.CPU: "2", resources.Memory: "7Gi", resources.Pods: "29"}),
		VolumeLimits: map[string]int32{"ebs.csi.aws.com": 2},
		Pods:         []packing.Pod{{Namespace: "db", Name: "db-0", Volumes: claim("data-0")}}}
	var pods []packing.Pod
	for _, name := range []string{"db-1", "db-2"} {
		pods = append(pods, packing.Pod{Namespace: "db", Name: name, Volumes: claim("data-" + name[3:]),
			Requests: resources.MustParse(map[resources.Name]string{resources.CPU: "100m"})})
	}
	problem := packing.Problem{Catalog: catalog, Nodes: []packing.Node{node}, Pods: pods,
		NodePools: []packing.NodePool{{Name: "default", Requirements: requirements.MustParse(
			requirements.Expression{Key: requirements.LabelArch, Operator: requirements.In, Values: []string{"amd64"}})}}}
	plan, err := packing.Solve(problem, packing.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, b := range plan.Bindings {
		fmt.Println(pods[b.Pod].Name, "on", b.Node)
	}
	for _, nc := range plan.NodeClaims {
		fmt.Println(pods[nc.Pods[0]].Name, "on a new node")
	}
	fmt.Println("violations:", len(verify.Plan(problem, plan)))
	// Output:
	// db-1 on node-1
	// db-2 on a new node
	// violations: 0
}
