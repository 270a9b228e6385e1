package consolidation_test

import (
	"fmt"

	"github.com/nodeplan/nodeplan/consolidation"
)

// After a scale-down, one node is empty and two are nearly idle; a fourth
// runs a pod that asks not to be disrupted.
func ExamplePlan() {
	c := newCluster()
	c.node("idle", 4)
	c.node("quiet-1", 8, 500)
	c.node("quiet-2", 8, 700)
	c.node("busy", 8, 5000).Pods[0].DoNotDisrupt = "true"

	r, err := consolidation.Plan(c.Cluster, consolidation.Options{})
	if err != nil {
		panic(err)
	}
	for _, cmd := range r.Commands {
		fmt.Println(cmd)
		for _, p := range cmd.Homes {
			fmt.Println("  ", p.Pod, "->", p.Node+p.NodeClaim)
		}
	}
	for _, k := range r.Kept {
		fmt.Println("kept", k.Node, k.Why, ":", k.Message)
	}
	// Output:
	// Empty delete [idle] (+0) saves 0.200000/h
	// Underutilized delete [quiet-1 quiet-2] (+0) saves 0.800000/h
	//    default/quiet-2-p0 -> busy
	//    default/quiet-1-p0 -> busy
	// kept busy PodDoNotDisrupt : pod default/busy-p0 has karpenter.sh/do-not-disrupt=true
}
