package verify_test

import (
	"fmt"

	"github.com/nodeplan/nodeplan/packing"
	"github.com/nodeplan/nodeplan/packing/verify"
)

// ExamplePlan checks a plan that forgot a pod and binds another to a
// node that does not exist.
func ExamplePlan() {
	p := packing.Problem{Pods: []packing.Pod{
		{Namespace: "default", Name: "web-0"},
		{Namespace: "default", Name: "web-1"},
	}}
	plan := packing.Plan{Bindings: []packing.Binding{{Pod: 0, Node: "node-7"}}, Order: []int{0}}
	for _, v := range verify.Plan(p, plan) {
		fmt.Println(v)
	}
	// Output:
	// PodLost: pod default/web-1 is neither bound, on a claim, nor unschedulable
	// UnknownNode: pod default/web-0 is bound to node "node-7", which does not exist
}
