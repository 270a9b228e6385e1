package repair_test

import (
	"fmt"

	"github.com/nodeplan/nodeplan/repair"
)

// ExamplePlan: the repaired node's pods go where there is room, and a new
// node is launched for the one that fits nowhere else.
func ExamplePlan() {
	cl := testCluster(node("sick", pod("web-1", "500m"), pod("db-1", "1500m")), node("roomy", pod("api-1", "1")))
	res := repair.Result{Replace: []repair.Repair{{Node: "sick", NodePool: "default"}}}
	rep, err := repair.Plan(res, cl)
	if err != nil {
		panic(err)
	}
	for _, m := range rep.Moves {
		for _, h := range m.Homes {
			fmt.Printf("%s: %s -> %s%s\n", h.Pod, m.Node, h.Node, h.NodeClaim)
		}
	}
	for _, c := range rep.NodeClaims {
		fmt.Printf("launch %s: %s %s\n", c.Name, c.InstanceType, c.Offering.Price)
	}
	// Output:
	// default/web-1: sick -> roomy
	// default/db-1: sick -> repair-replacement-1
	// launch repair-replacement-1: m5.large 0.096000/h
}
