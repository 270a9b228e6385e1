// Command interruption answers a spot interruption notice on the embedded
// AWS catalog: it prints the offerings marked unavailable and for how long,
// the replacement plan for the drained node's pods, with prices in the
// catalog's currency, and whether the replacement runs them before the
// instance is reclaimed, two minutes after the notice.
//
// spot-1 (a c5.xlarge spot instance in the region's first zone) gets the
// interruption notice; spot-2 (in the second zone) only a rebalance
// recommendation, which needs no action; od-1 (in the third) is an
// on-demand m5.large with room for one more pod. -region chooses a region
// with embedded prices (us-east-1 by default; cn-north-1 prints prices in
// CNY).
//
//	go run ./examples/interruption [-region cn-north-1]
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/nodeplan/nodeplan/disruption"
	"github.com/nodeplan/nodeplan/drift"
	"github.com/nodeplan/nodeplan/instancetypes"
	"github.com/nodeplan/nodeplan/packing"
	"github.com/nodeplan/nodeplan/requirements"
	"github.com/nodeplan/nodeplan/resources"
)

var now = time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)

// launchLatency is how long a new node takes to run pods.
const launchLatency = 90 * time.Second

func main() {
	region := flag.String("region", "", "AWS region whose prices and zones to use (default us-east-1)")
	flag.Parse()
	if err := run(os.Stdout, *region); err != nil {
		fmt.Fprintln(os.Stderr, "interruption:", err)
		os.Exit(1)
	}
}

func run(w io.Writer, region string) error {
	catalog, err := instancetypes.AWS(instancetypes.Options{Region: region})
	if err != nil {
		return err
	}
	cl := cluster(catalog)
	notices := []drift.Notice{
		{Kind: drift.SpotInterruption, Node: "spot-1", Time: now},
		{Kind: drift.RebalanceRecommendation, Node: "spot-2", Time: now},
	}
	plan, err := drift.Interruption(notices, cl, catalog, launchLatency)
	if err != nil {
		return err
	}
	printPlan(w, plan, catalog.Origin().Currency)
	return nil
}

// cluster is one NodePool of m5 and c5 types, spot or on-demand, and its
// three nodes.
func cluster(catalog *instancetypes.Catalog) drift.Cluster {
	pool := drift.Template{NodePool: packing.NodePool{Name: "default",
		Requirements: requirements.NewSet(
			requirements.MustNew(requirements.LabelInstanceType, requirements.In, "m5.large", "m5.xlarge", "c5.large", "c5.xlarge"),
			requirements.MustNew(requirements.LabelCapacityType, requirements.In, requirements.CapacityTypeSpot, requirements.CapacityTypeOnDemand))}}
	c5, _ := catalog.Get("c5.xlarge")
	m5, _ := catalog.Get("m5.large")
	zones := catalog.Origin().Zones
	nodes := []drift.NodeClaimState{
		node("spot-1", c5, zones[0], instancetypes.Spot, pod("worker-1", "1"), pod("worker-2", "1"), pod("worker-3", "1")),
		node("spot-2", c5, zones[1], instancetypes.Spot, pod("worker-4", "1"), pod("worker-5", "1"), pod("worker-6", "1")),
		node("od-1", m5, zones[2], instancetypes.OnDemand, pod("api-1", "500m")),
	}
	return drift.Cluster{Input: drift.Input{Nodes: nodes, NodePools: []drift.Template{pool}, Catalog: catalog, Now: now}}
}

// node is a node of pool "default" of type t in zone, created six hours
// ago.
func node(name string, t *instancetypes.InstanceType, zone string, ct instancetypes.CapacityType, pods ...packing.Pod) drift.NodeClaimState {
	return drift.NodeClaimState{Node: packing.Node{Name: name, NodePool: "default", InstanceType: t.Name, Zone: zone,
		CapacityType: ct, Allocatable: t.Allocatable, Initialized: true, CreationTime: now.Add(-6 * time.Hour), Pods: pods}}
}

func pod(name, cpu string) packing.Pod {
	return packing.Pod{Namespace: "default", Name: name, UID: name, CreationTime: now.Add(-time.Hour),
		Requests: resources.MustParse(map[resources.Name]string{resources.CPU: cpu, resources.Memory: "1Gi"})}
}

// printPlan writes plan with its prices in currency.
func printPlan(w io.Writer, plan drift.InterruptionPlan, currency string) {
	for _, a := range plan.Actions {
		fmt.Fprintf(w, "%s %s: drain=%v: %s\n", a.Notice.Kind, a.Notice.Node, a.Drain, a.Message)
	}
	for _, m := range plan.Unavailable {
		fmt.Fprintf(w, "unavailable %s %s %s for %s (until %s)\n", m.Key.InstanceType, m.Key.Zone, m.Key.CapacityType,
			m.Until.Sub(now), m.Until.Format(time.TimeOnly))
	}
	for _, c := range plan.Replacement.NodeClaims {
		fmt.Fprintf(w, "launch %s: %s %s %s %s, %d pods\n", c.Name, c.InstanceType, c.Offering.Zone,
			c.Offering.CapacityType, c.Offering.Price.Format(currency), len(c.Pods))
	}
	for _, h := range plan.Homes {
		fmt.Fprintf(w, "  %s -> %s\n", h.Pod, home(h))
	}
	fmt.Fprintf(w, "ready after %s, instance gone after %s: ready=%v\n",
		plan.ReadyAt.Sub(now), plan.Deadline.Sub(now), plan.Ready)
}

// home says where a displaced pod goes: exactly one of the fields is set.
func home(h disruption.Home) string {
	switch {
	case h.Node != "":
		return h.Node
	case h.NodeClaim != "":
		return h.NodeClaim + " (new)"
	}
	return "nowhere: " + h.Unschedulable
}
