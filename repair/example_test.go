package repair_test

import (
	"fmt"
	"time"

	"github.com/nodeplan/nodeplan/repair"
)

// ExampleDecide: with the AWS policies, a node NotReady for 40 minutes is
// replaced, one NotReady for 10 minutes is still tolerated.
func ExampleDecide() {
	now := time.Date(2025, 6, 11, 12, 0, 0, 0, time.UTC)
	notReady := func(since time.Duration) []repair.Condition {
		return []repair.Condition{{Type: "Ready", Status: repair.ConditionFalse, LastTransitionTime: now.Add(-since)}}
	}
	nodes := []repair.Node{
		{Name: "b", NodePool: "default", Conditions: notReady(10 * time.Minute)},
		{Name: "a", NodePool: "default", Conditions: notReady(40 * time.Minute)},
	}
	for i := range 8 {
		nodes = append(nodes, repair.Node{Name: fmt.Sprintf("ok-%d", i), NodePool: "default"})
	}
	res, err := repair.Decide(repair.Input{Nodes: nodes, Now: now})
	if err != nil {
		panic(err)
	}
	for _, r := range res.Replace {
		fmt.Printf("replace %s: %s\n", r.Node, r.Policy)
	}
	for _, k := range res.Kept[:2] {
		fmt.Printf("keep %s: %s: %s\n", k.Node, k.Why, k.Message)
	}
	// Output:
	// replace a: Ready=False after 30m0s
	// keep b: Tolerating: Ready=False since 2025-06-11T11:50:00Z, tolerated until 2025-06-11T12:20:00Z
	// keep ok-0: Healthy: no condition matches a repair policy
}

// ExampleDecide_cap: three of ten nodes of a NodePool NotReady for an hour
// is more than 20 %, so none of them is replaced.
func ExampleDecide_cap() {
	now := time.Date(2025, 6, 11, 12, 0, 0, 0, time.UTC)
	var nodes []repair.Node
	for i := range 10 {
		n := repair.Node{Name: fmt.Sprintf("n%d", i), NodePool: "gpu"}
		if i < 3 {
			n.Conditions = []repair.Condition{{Type: "Ready", Status: repair.ConditionFalse, LastTransitionTime: now.Add(-time.Hour)}}
		}
		nodes = append(nodes, n)
	}
	res, err := repair.Decide(repair.Input{Nodes: nodes, Now: now})
	if err != nil {
		panic(err)
	}
	fmt.Println(len(res.Replace), "replaced")
	fmt.Printf("%s: %s: %s\n", res.Kept[0].Node, res.Kept[0].Why, res.Kept[0].Message)
	// Output:
	// 0 replaced
	// n0: PoolUnhealthy: 3 of 10 nodes of NodePool "gpu" are unhealthy, more than 20% rounded up (2)
}
