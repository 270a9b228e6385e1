package static_test

import (
	"fmt"
	"time"

	"github.com/nodeplan/nodeplan/packing"
	"github.com/nodeplan/nodeplan/resources"
	"github.com/nodeplan/nodeplan/static"
)

// A static pool of 3 replicas with 2 NodeClaims, one of them drifted,
// under limits.nodes 4: StaticDrift takes the one place left under the
// limit for a replacement, so scale-up waits.
func Example() {
	at := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	pool := static.Pool{Replicas: 3, NodePool: packing.NodePool{Name: "fixed",
		Limits: map[resources.Name]int64{packing.LimitNodes: 3}}}
	up := packing.Node{Initialized: true}
	res, err := static.Decide(static.Input{Now: at, Pools: []static.Pool{pool}, Claims: []static.Claim{
		{Name: "fixed-a", NodePool: "fixed", Resolved: true, Node: up},
		{Name: "fixed-b", NodePool: "fixed", Resolved: true, Drifted: true, Node: up},
	}})
	if err != nil {
		panic(err)
	}
	d := res.Pools[0]
	fmt.Printf("%s: %d active of %d, create %d, replace %v\n", d.NodePool, d.Active, d.Replicas, d.Create, d.Replace)
	for _, n := range d.Notes {
		fmt.Printf("%s: %s\n", n.Why, n.Message)
	}
	// Output:
	// fixed: 2 active of 3, create 0, replace [{fixed-b}]
	// LimitReached: NodePool fixed's limits.nodes 3, with 2 active, 0 deleting, 0 pending disruption and 1 drift replacements, leaves room for 0 of 1 missing NodeClaims
	// UnknownLaunch: no offering of the catalog is compatible with NodePool fixed: its new NodeClaims are not priced
}
