// Command consolidation plans the consolidation of a cluster after a
// scale-down, on the embedded AWS catalog: it prints the commands (delete
// or replace nodes) in execution order with their savings per hour, in the
// catalog's currency, and where each displaced pod lands, and why every
// other node is kept.
//
// The web deployment was scaled down: idle is empty, quiet-1 and quiet-2
// run one small pod each, big is an m5.2xlarge running three 2-CPU batch
// pods, busy runs a pod marked karpenter.sh/do-not-disrupt, and fresh got a
// pod a minute ago, inside the pool's five-minute consolidateAfter: it is
// no candidate, and, as in Karpenter's simulations, no home for displaced
// pods either. Nodes that take displaced pods have a pod event now, so
// they too are kept for consolidateAfter.
//
// The nodes are in the region's first zone; -region chooses a region with
// embedded prices (us-east-1 by default; cn-north-1 prints prices in CNY).
//
//	go run ./examples/consolidation [-region cn-north-1]
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/nodeplan/nodeplan/consolidation"
	"github.com/nodeplan/nodeplan/instancetypes"
	"github.com/nodeplan/nodeplan/packing"
	"github.com/nodeplan/nodeplan/requirements"
	"github.com/nodeplan/nodeplan/resources"
)

var now = time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)

func main() {
	region := flag.String("region", "", "AWS region whose prices and zones to use (default us-east-1)")
	flag.Parse()
	if err := run(os.Stdout, *region); err != nil {
		fmt.Fprintln(os.Stderr, "consolidation:", err)
		os.Exit(1)
	}
}

func run(w io.Writer, region string) error {
	catalog, err := instancetypes.AWS(instancetypes.Options{Region: region})
	if err != nil {
		return err
	}
	c, currency := cluster(catalog), catalog.Origin().Currency
	r, err := consolidation.Plan(c, consolidation.Options{})
	if err != nil {
		return err
	}
	var saved instancetypes.Price
	for _, cmd := range r.Commands {
		printCommand(w, cmd, currency)
		saved += cmd.Savings
	}
	for _, k := range r.Kept {
		fmt.Fprintf(w, "keep %s (%s): %s\n", k.Node, k.Why, k.Message)
	}
	fmt.Fprintf(w, "total savings: %s\n", saved.Format(currency))
	return nil
}

// cluster is one on-demand NodePool of m5 and c5 types, consolidating
// five minutes after the last pod event, and its six nodes.
func cluster(catalog *instancetypes.Catalog) consolidation.Cluster {
	pool := packing.NodePool{Name: "default",
		Requirements: requirements.NewSet(
			requirements.MustNew(requirements.LabelInstanceType, requirements.In, "m5.large", "m5.xlarge", "m5.2xlarge", "c5.xlarge"),
			requirements.MustNew(requirements.LabelCapacityType, requirements.In, requirements.CapacityTypeOnDemand)),
		Disruption: packing.Disruption{ConsolidateAfter: 5 * time.Minute, Budgets: []packing.Budget{{Nodes: "100%"}}}}
	zone := catalog.Origin().Zones[0]
	nodes := []packing.Node{
		node(catalog, zone, "idle", "m5.large"),
		node(catalog, zone, "quiet-1", "m5.xlarge", pod("web-1", "500m")),
		node(catalog, zone, "quiet-2", "m5.xlarge", pod("web-2", "700m")),
		node(catalog, zone, "big", "m5.2xlarge", pod("batch-1", "2"), pod("batch-2", "2"), pod("batch-3", "2")),
		node(catalog, zone, "busy", "m5.xlarge", pod("db-1", "3")),
		node(catalog, zone, "fresh", "c5.xlarge", pod("web-3", "250m")),
	}
	nodes[4].Pods[0].DoNotDisrupt = "true"
	return consolidation.Cluster{Nodes: nodes, NodePools: []packing.NodePool{pool}, Catalog: catalog, Now: now,
		LastPodEvent: map[string]time.Time{"fresh": now.Add(-time.Minute)}}
}

// node is an initialized on-demand node of pool "default" in zone at the
// catalog's price, created a day ago.
func node(catalog *instancetypes.Catalog, zone, name, typ string, pods ...packing.Pod) packing.Node {
	t, _ := catalog.Get(typ)
	n := packing.Node{Name: name, NodePool: "default", InstanceType: typ, Zone: zone,
		CapacityType: instancetypes.OnDemand, Allocatable: t.Allocatable, Initialized: true,
		CreationTime: now.Add(-24 * time.Hour), Pods: pods}
	for _, o := range t.Offerings {
		if o.Zone == n.Zone && o.CapacityType == n.CapacityType {
			n.Price = o.Price
		}
	}
	return n
}

func pod(name, cpu string) packing.Pod {
	return packing.Pod{Namespace: "default", Name: name, CreationTime: now.Add(-time.Hour),
		Requests: resources.MustParse(map[resources.Name]string{resources.CPU: cpu, resources.Memory: "1Gi"})}
}

// printCommand writes cmd with its prices in currency.
func printCommand(w io.Writer, cmd consolidation.Command, currency string) {
	fmt.Fprintf(w, "%s %s %v (%s) saves %s\n", cmd.Reason, cmd.Decision(), cmd.Candidates, cmd.Method, cmd.Savings.Format(currency))
	for _, r := range cmd.Replacements {
		fmt.Fprintf(w, "  launch %s: %s %s %s\n", r.Name, r.InstanceType, r.Offering.Zone, r.Offering.Price.Format(currency))
	}
	for _, p := range cmd.Homes {
		if p.NodeClaim != "" {
			fmt.Fprintf(w, "  %s -> %s (new)\n", p.Pod, p.NodeClaim)
		} else {
			fmt.Fprintf(w, "  %s -> %s\n", p.Pod, p.Node)
		}
	}
}
