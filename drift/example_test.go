package drift_test

import (
	"fmt"
	"time"

	"github.com/nodeplan/nodeplan/drift"
	"github.com/nodeplan/nodeplan/packing"
)

// Example shows an image change and an expired node: the findings, and the
// commands that replace them.
func Example() {
	oldImage := state("node-a", pod("web-1", "500m"))
	oldImage.Image = "ami-2024" // the NodeClass now resolves only ami-old and ami-new
	expired := state("node-b", pod("web-2", "500m"))
	expired.Node.CreationTime = t0.Add(-719 * time.Hour)
	spare := state("node-c")
	cl := drift.Cluster{Input: input(oldImage, expired, spare)}
	cl.NodePools[0].NodePool.Disruption.TerminationGracePeriod = time.Hour
	cl.NodePools[0].NodePool.Disruption.Budgets = []packing.Budget{{Nodes: "2"}}
	for i := range cl.Nodes {
		cl.Nodes[i].NodePoolHash = cl.NodePools[0].Hash() // recorded under the current template
	}
	now := t0.Add(2 * time.Hour)
	cl.Now = now // the moment the snapshot stands for

	findings, err := drift.Evaluate(cl.Input)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, f := range findings {
		fmt.Printf("%s %s: %s\n", f.Node, f.Reason, f.Message)
	}
	cmds, blocked, err := drift.Commands(findings, cl)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, c := range cmds {
		fmt.Printf("replace %s (%s, forceful=%v), deadline +%s\n", c.Node, c.Reason, c.Forceful, c.Deadline.Sub(now))
		for _, h := range c.Homes {
			fmt.Printf("  %s -> %s%s\n", h.Pod, h.Node, h.NodeClaim)
		}
	}
	for _, b := range blocked {
		fmt.Printf("blocked %s: %s\n", b.Node, b.Message)
	}
	// Output:
	// node-a ImageDrifted: Node node-a runs image ami-2024, which NodeClass default no longer resolves.
	// node-b Expired: Node node-b expired at 2025-01-01T01:00:00Z, 720h0m0s after its creation.
	// replace node-b (Expired, forceful=true), deadline +1h0m0s
	//   default/web-2 -> node-a
	// replace node-a (Drifted, forceful=false), deadline +1h0m0s
	//   default/web-1 -> node-c
	//   default/web-2 -> node-c
}

// ExampleInterruption shows a spot notice: the offering marked unavailable,
// the replacement and whether it is ready before the instance goes.
func ExampleInterruption() {
	cl := drift.Cluster{Input: input(spotNode("spot-1"))}
	now := t0.Add(2 * time.Hour)
	cl.Now = now
	notice := drift.Notice{Kind: drift.SpotInterruption, Node: "spot-1", Time: now}
	plan, err := drift.Interruption([]drift.Notice{notice}, cl, cl.Catalog, 45*time.Second)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(plan.Actions[0].Message)
	for _, m := range plan.Unavailable {
		fmt.Printf("unavailable: %s %s %s for %s\n", m.Key.InstanceType, m.Key.Zone, m.Key.CapacityType, m.Until.Sub(now))
	}
	for _, c := range plan.Replacement.NodeClaims {
		fmt.Printf("launch %s: %s %s %s\n", c.Name, c.InstanceType, c.Offering.Zone, c.Offering.CapacityType)
	}
	fmt.Printf("ready in %s of %s: %v\n", plan.ReadyAt.Sub(now), plan.Deadline.Sub(now), plan.Ready)
	// Output:
	// Spot instance c5.large of node spot-1 in zone-a is reclaimed at 2025-01-01T02:02:00Z.
	// unavailable: c5.large zone-a spot for 3m0s
	// launch interruption-replacement-1: c5.large zone-b spot
	// ready in 45s of 2m0s: true
}

// ExampleHash shows that the template hash ignores map order and
// requirements.
func ExampleHash() {
	a, b := template("default"), template("default")
	a.NodePool.Labels = map[string]string{"x": "1", "y": "2"}
	b.NodePool.Labels = map[string]string{"y": "2", "x": "1"}
	b.NodePool.Requirements = a.NodePool.Requirements.Without("kubernetes.io/os")
	fmt.Println(a.Hash() == b.Hash(), len(a.Hash()), drift.HashVersion)
	// Output: true 16 nodeplan-v1
}
