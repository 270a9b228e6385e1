package drift_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/nodeplan/nodeplan/drift"
	"github.com/nodeplan/nodeplan/instancetypes"
	"github.com/nodeplan/nodeplan/packing"
	"github.com/nodeplan/nodeplan/requirements"
	"github.com/nodeplan/nodeplan/resources"
)

var t0 = time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)

var zones = []string{"zone-a", "zone-b"}

// testCatalog has three types, each on-demand and spot in two zones.
func testCatalog() *instancetypes.Catalog {
	spec := []struct {
		name, cpu, mem string
		dollars        float64
	}{{"c5.large", "2", "4Gi", 0.085}, {"m5.large", "2", "8Gi", 0.096}, {"m5.xlarge", "4", "16Gi", 0.192}}
	var types []instancetypes.InstanceType
	for _, s := range spec {
		it := instancetypes.InstanceType{Name: s.name,
			Requirements: requirements.NewSet(requirements.MustNew(requirements.LabelArch, requirements.In, "amd64"),
				requirements.MustNew(requirements.LabelOS, requirements.In, "linux")),
			Capacity: resources.MustParse(map[resources.Name]string{resources.CPU: s.cpu, resources.Memory: s.mem, resources.Pods: "110"})}
		for _, z := range zones {
			od := instancetypes.MustPriceFromDollars(s.dollars)
			it.Offerings = append(it.Offerings,
				instancetypes.Offering{Zone: z, CapacityType: instancetypes.OnDemand, Price: od, Available: true},
				instancetypes.Offering{Zone: z, CapacityType: instancetypes.Spot, Price: od * 4 / 10, Available: true})
		}
		types = append(types, it)
	}
	c, err := instancetypes.New(types)
	if err != nil {
		panic(err)
	}
	return c
}

func template(name string) drift.Template {
	return drift.Template{
		NodePool: packing.NodePool{Name: name,
			Requirements: requirements.NewSet(requirements.MustNew(requirements.LabelCapacityType, requirements.In, "on-demand", "spot"),
				requirements.MustNew(requirements.LabelOS, requirements.In, "linux")),
			Labels: map[string]string{"team": "web"}},
		Annotations:  map[string]string{"owner": "ops"},
		NodeClassRef: drift.NodeClassRef{Group: "karpenter.k8s.aws", Kind: "EC2NodeClass", Name: "default"},
	}
}

func nodeClass() drift.NodeClass {
	return drift.NodeClass{Name: "default", ImageIDs: []string{"ami-new", "ami-old"}, Subnets: []string{"subnet-a", "subnet-b"},
		SecurityGroups: []string{"sg-1", "sg-2"}, UserDataHash: "ud1", Role: "KarpenterNodeRole"}
}

func pod(name, cpu string) packing.Pod {
	return packing.Pod{Namespace: "default", Name: name, UID: name, CreationTime: t0,
		Requests: resources.MustParse(map[resources.Name]string{resources.CPU: cpu, resources.Memory: "256Mi"})}
}

// state is a healthy m5.large of pool "default", created at t0 with the
// current hashes recorded, with pods.
func state(name string, pods ...packing.Pod) drift.NodeClaimState {
	tpl := template("default")
	return drift.NodeClaimState{
		Node: packing.Node{Name: name, NodePool: "default", InstanceType: "m5.large", Zone: "zone-a",
			CapacityType: instancetypes.OnDemand, Initialized: true, CreationTime: t0,
			Labels: map[string]string{requirements.LabelOS: "linux", requirements.LabelCapacityType: "on-demand",
				requirements.LabelInstanceType: "m5.large", requirements.LabelZone: "zone-a", "team": "web"},
			Allocatable: resources.MustParse(map[resources.Name]string{resources.CPU: "1930m", resources.Memory: "6903Mi", resources.Pods: "29"}),
			Pods:        pods},
		NodePoolHash: tpl.Hash(), NodePoolHashVersion: drift.HashVersion,
		Image: "ami-old", Subnet: "subnet-a", SecurityGroups: []string{"sg-2", "sg-1"},
		NodeClassHash: nodeClass().Hash(), NodeClassHashVersion: drift.NodeClassHashVersion,
	}
}

func input(nodes ...drift.NodeClaimState) drift.Input {
	return drift.Input{Nodes: nodes, NodePools: []drift.Template{template("default")},
		NodeClasses: map[string]drift.NodeClass{"default": nodeClass()}, Catalog: testCatalog()}
}

// evaluate is drift.Evaluate on a valid input.
func evaluate(t testing.TB, in drift.Input, at time.Time) []drift.Finding {
	t.Helper()
	f, err := drift.Evaluate(inputAt(in, at))
	require.NoError(t, err)
	return f
}

func reasons(fs []drift.Finding) []string {
	out := []string{}
	for _, f := range fs {
		out = append(out, fmt.Sprintf("%s:%s", f.Node, f.Reason))
	}
	return out
}

// inputAt is in at now.
func inputAt(in drift.Input, now time.Time) drift.Input {
	in.Now = now
	return in
}

// clusterAt is cl at now.
func clusterAt(cl drift.Cluster, now time.Time) drift.Cluster {
	cl.Now = now
	return cl
}
