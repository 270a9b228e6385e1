package consolidation_test

import (
	"fmt"
	"time"

	"github.com/nodeplan/nodeplan/consolidation"
	"github.com/nodeplan/nodeplan/instancetypes"
	"github.com/nodeplan/nodeplan/packing"
	"github.com/nodeplan/nodeplan/requirements"
	"github.com/nodeplan/nodeplan/resources"
)

var now = time.Date(2025, 6, 11, 12, 0, 0, 0, time.UTC)

const gib = 1 << 30

// sizes are the CPU counts of the test catalog's types "c-N".
var sizes = []int64{1, 2, 4, 8, 16, 32}

// testCatalog has types c-N with N cores, 4 GiB per core and 110 pods,
// on-demand at $0.05 per core-hour and spot at $0.02, in zones a and b;
// extra adds spot-only types s-1..s-extra of 1..extra cores at $0.01 per
// core-hour, for spot-to-spot tests.
func testCatalog(extra int) *instancetypes.Catalog {
	var types []instancetypes.InstanceType
	for _, n := range sizes {
		types = append(types, instanceType(fmt.Sprint("c-", n), n, 0.05, 0.02))
	}
	for n := int64(1); n <= int64(extra); n++ {
		types = append(types, instanceType(fmt.Sprint("s-", n), n, 0, 0.01))
	}
	c, err := instancetypes.New(types)
	if err != nil {
		panic(err)
	}
	return c
}

func instanceType(name string, cpu int64, od, spot float64) instancetypes.InstanceType {
	var offs []instancetypes.Offering
	for _, z := range []string{"a", "b"} {
		if od > 0 {
			offs = append(offs, instancetypes.Offering{Zone: z, CapacityType: instancetypes.OnDemand, Price: instancetypes.MustPriceFromDollars(od * float64(cpu)), Available: true})
		}
		offs = append(offs, instancetypes.Offering{Zone: z, CapacityType: instancetypes.Spot, Price: instancetypes.MustPriceFromDollars(spot * float64(cpu)), Available: true})
	}
	return instancetypes.InstanceType{Name: name, Capacity: resources.List{CPU: cpu * 1000, Memory: 4 * cpu * gib, Pods: 110}, Offerings: offs}
}

// cluster is a small builder for test snapshots.
type cluster struct{ consolidation.Cluster }

func newCluster(pools ...packing.NodePool) *cluster {
	if len(pools) == 0 {
		pools = []packing.NodePool{pool("default")}
	}
	return &cluster{consolidation.Cluster{NodePools: pools, Catalog: testCatalog(0), Now: now}}
}

// pool is a NodePool with an unlimited budget unless budgets are given.
func pool(name string, budgets ...packing.Budget) packing.NodePool {
	if len(budgets) == 0 {
		budgets = []packing.Budget{{Nodes: "100%"}}
	}
	return packing.NodePool{Name: name, Disruption: packing.Disruption{Budgets: budgets},
		Requirements: requirements.NewSet(requirements.MustNew(requirements.LabelCapacityType, requirements.In, "on-demand"))}
}

// node adds an on-demand node of type c-<cpu> in zone a with pods of the
// given millicores (named <node>-p<i>) and returns it for tweaking.
func (c *cluster) node(name string, cpu int64, pods ...int64) *packing.Node {
	return c.nodeCT(name, cpu, instancetypes.OnDemand, pods...)
}

func (c *cluster) nodeCT(name string, cpu int64, ct instancetypes.CapacityType, pods ...int64) *packing.Node {
	t, _ := c.Catalog.Get(fmt.Sprint("c-", cpu))
	price := instancetypes.MustPriceFromDollars(0.05 * float64(cpu))
	if ct == instancetypes.Spot {
		price = instancetypes.MustPriceFromDollars(0.02 * float64(cpu))
	}
	n := packing.Node{Name: name, NodePool: c.NodePools[0].Name, InstanceType: t.Name, Zone: "a", CapacityType: ct,
		Allocatable: t.Allocatable, Initialized: true, Price: price, CreationTime: now.Add(-time.Hour)}
	for i, m := range pods {
		n.Pods = append(n.Pods, pod(fmt.Sprintf("%s-p%d", name, i), m))
	}
	c.Nodes = append(c.Nodes, n)
	return &c.Nodes[len(c.Nodes)-1]
}

func pod(name string, milli int64) packing.Pod {
	return packing.Pod{Namespace: "default", Name: name, Labels: map[string]string{"app": "web"},
		Requests: resources.List{CPU: milli, Memory: milli << 20}, CreationTime: now.Add(-time.Hour)}
}

// price sums the hourly price of the nodes not marked for deletion.
func price(c consolidation.Cluster) instancetypes.Price {
	var p instancetypes.Price
	for _, n := range c.Nodes {
		if !n.MarkedForDeletion {
			p += n.Price
		}
	}
	return p
}
