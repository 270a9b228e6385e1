package disruption_test

import (
	"fmt"
	"time"

	"github.com/nodeplan/nodeplan/disruption"
	"github.com/nodeplan/nodeplan/packing"
)

// A pool of 20 nodes allows 10% of them to be disrupted, except during
// business hours on weekdays, when drift may not touch any node.
func ExampleAllowedDisruptions() {
	pool := packing.NodePool{Name: "default", Disruption: packing.Disruption{Budgets: []packing.Budget{
		{Nodes: "10%"},
		{Nodes: "0", Schedule: "0 9 * * mon-fri", Duration: 8 * time.Hour, Reasons: []string{"Drifted"}},
	}}}
	nodes := make([]packing.Node, 20)
	for i := range nodes {
		nodes[i] = packing.Node{Name: fmt.Sprint("n", i), NodePool: "default", Initialized: true}
	}
	nodes[0].MarkedForDeletion = true // already draining: consumes one

	wednesdayNoon := time.Date(2025, 6, 11, 12, 0, 0, 0, time.UTC)
	for _, r := range []disruption.Reason{disruption.Empty, disruption.Drifted} {
		n, err := disruption.AllowedDisruptions(pool, nodes, r, wednesdayNoon)
		fmt.Println(r, n, err)
	}
	n, _ := disruption.AllowedDisruptions(pool, nodes, disruption.Drifted, wednesdayNoon.Add(6*time.Hour))
	fmt.Println("Drifted at 18:00", n)
	// Output:
	// Empty 1 <nil>
	// Drifted 0 <nil>
	// Drifted at 18:00 1
}

func ExamplePodBlocks() {
	now := time.Date(2025, 6, 11, 12, 0, 0, 0, time.UTC)
	p := packing.Pod{Namespace: "batch", Name: "job-1", DoNotDisrupt: "1h", CreationTime: now.Add(-20 * time.Minute)}
	fmt.Println(disruption.PodBlocks(p, now))
	fmt.Println(disruption.PodBlocks(p, now.Add(time.Hour)))
	// Output:
	// true pod batch/job-1 has karpenter.sh/do-not-disrupt=1h, active until 2025-06-11T12:40:00Z
	// false
}
