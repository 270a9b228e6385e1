// Command drift finds the nodes that no longer match their NodePool and
// NodeClass, or that outlived expireAfter, and prints the commands that
// replace them, with the price of every replacement in the catalog's
// currency and the home of every displaced pod, on the embedded AWS
// catalog.
//
// The cluster has three m5.large nodes: node-a still runs ami-old, which the
// NodeClass no longer resolves (the image changed to ami-new), node-b was
// created 721 hours ago (expireAfter defaults to 720h), node-c is current.
// The nodes are in the region's first zone; -region chooses a region with
// embedded prices (us-east-1 by default; cn-north-1 prints prices in CNY).
//
//	go run ./examples/drift [-region cn-north-1]
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

func main() {
	region := flag.String("region", "", "AWS region whose prices and zones to use (default us-east-1)")
	flag.Parse()
	if err := run(os.Stdout, *region); err != nil {
		fmt.Fprintln(os.Stderr, "drift:", err)
		os.Exit(1)
	}
}

func run(w io.Writer, region string) error {
	catalog, err := instancetypes.AWS(instancetypes.Options{Region: region})
	if err != nil {
		return err
	}
	cl := cluster(catalog)
	findings, err := drift.Evaluate(cl.Input)
	if err != nil {
		return err
	}
	for _, f := range findings {
		fmt.Fprintf(w, "finding %s %s: %s\n", f.Node, f.Reason, f.Message)
	}
	cmds, blocked, err := drift.Commands(findings, cl)
	if err != nil {
		return err
	}
	for _, c := range cmds {
		printCommand(w, c, catalog.Origin().Currency)
	}
	for _, b := range blocked {
		fmt.Fprintf(w, "blocked %s: %s\n", b.Node, b.Message)
	}
	return nil
}

// cluster is one on-demand NodePool of m5 and c5 types with a NodeClass
// that now resolves only ami-new, and its three nodes, each launched from
// the pool and class as they are now (hashes recorded) except for node-a's
// image.
func cluster(catalog *instancetypes.Catalog) drift.Cluster {
	pool := drift.Template{
		NodePool: packing.NodePool{Name: "default",
			Requirements: requirements.NewSet(
				requirements.MustNew(requirements.LabelInstanceType, requirements.In, "m5.large", "m5.xlarge", "c5.xlarge"),
				requirements.MustNew(requirements.LabelCapacityType, requirements.In, requirements.CapacityTypeOnDemand)),
			Disruption: packing.Disruption{TerminationGracePeriod: time.Hour, Budgets: []packing.Budget{{Nodes: "2"}}}},
		NodeClassRef: drift.NodeClassRef{Group: "karpenter.k8s.aws", Kind: "EC2NodeClass", Name: "default"},
	}
	class := drift.NodeClass{Name: "default", ImageIDs: []string{"ami-new"}, Subnets: []string{"subnet-a"},
		SecurityGroups: []string{"sg-nodes"}, UserDataHash: "ud-1", Role: "KarpenterNodeRole"}
	zone := catalog.Origin().Zones[0]
	nodes := []drift.NodeClaimState{
		node("node-a", zone, now.Add(-48*time.Hour), pod("web-1", "1"), pod("web-2", "500m")),
		node("node-b", zone, now.Add(-721*time.Hour), pod("api-1", "1")),
		node("node-c", zone, now.Add(-2*time.Hour), pod("web-3", "500m")),
	}
	m5, _ := catalog.Get("m5.large")
	for i := range nodes {
		nodes[i].Node.Allocatable = m5.Allocatable
		nodes[i].NodePoolHash, nodes[i].NodeClassHash = pool.Hash(), class.Hash()
	}
	nodes[0].Image = "ami-old"
	return drift.Cluster{Input: drift.Input{Nodes: nodes, NodePools: []drift.Template{pool},
		NodeClasses: map[string]drift.NodeClass{class.Name: class}, Catalog: catalog, Now: now}}
}

// node is an on-demand m5.large of pool "default" in zone, launched with
// ami-new, subnet-a and sg-nodes, created at created.
func node(name, zone string, created time.Time, pods ...packing.Pod) drift.NodeClaimState {
	return drift.NodeClaimState{
		Node: packing.Node{Name: name, NodePool: "default", InstanceType: "m5.large", Zone: zone,
			CapacityType: instancetypes.OnDemand, Initialized: true, CreationTime: created, Pods: pods},
		NodePoolHashVersion: drift.HashVersion, NodeClassHashVersion: drift.NodeClassHashVersion,
		Image: "ami-new", Subnet: "subnet-a", SecurityGroups: []string{"sg-nodes"},
	}
}

func pod(name, cpu string) packing.Pod {
	return packing.Pod{Namespace: "default", Name: name, UID: name, CreationTime: now.Add(-time.Hour),
		Requests: resources.MustParse(map[resources.Name]string{resources.CPU: cpu, resources.Memory: "1Gi"})}
}

// printCommand writes c with its prices in currency.
func printCommand(w io.Writer, c drift.Command, currency string) {
	fmt.Fprintf(w, "replace %s (%s, forceful=%v), pods deleted by +%s\n", c.Node, c.Reason, c.Forceful, c.Deadline.Sub(now))
	for _, r := range c.Replacements {
		fmt.Fprintf(w, "  launch %s: %s %s %s %s\n", r.Name, r.InstanceType, r.Offering.Zone, r.Offering.CapacityType, r.Offering.Price.Format(currency))
	}
	for _, h := range c.Homes {
		fmt.Fprintf(w, "  %s -> %s\n", h.Pod, home(h))
	}
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
