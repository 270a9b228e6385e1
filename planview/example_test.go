package planview_test

import (
	"fmt"
	"os"

	"github.com/nodeplan/nodeplan/instancetypes"
	"github.com/nodeplan/nodeplan/packing"
	"github.com/nodeplan/nodeplan/planview"
	"github.com/nodeplan/nodeplan/requirements"
	"github.com/nodeplan/nodeplan/resources"
)

// machine is an amd64 instance type sold on demand in zone-a.
func machine(name string, cpu int64, gib int64, dollars float64) instancetypes.InstanceType {
	return instancetypes.InstanceType{
		Name:         name,
		Requirements: requirements.NewSet(requirements.MustNew(requirements.LabelArch, requirements.In, "amd64")),
		Capacity:     resources.List{CPU: cpu * 1000, Memory: gib << 30, Pods: 110},
		Offerings: []instancetypes.Offering{{Zone: "zone-a", CapacityType: instancetypes.OnDemand,
			Price: instancetypes.MustPriceFromDollars(dollars), Available: true}},
	}
}

// replicas are n pods of a Deployment, each requesting cpu.
func replicas(name string, n int, cpu string) []packing.Pod {
	out := make([]packing.Pod, n)
	for i := range out {
		out[i] = packing.Pod{Namespace: "shop", Name: fmt.Sprintf("%s-%d", name, i), Owner: "Deployment/" + name,
			Requests: resources.MustParse(map[resources.Name]string{resources.CPU: cpu, resources.Memory: "1Gi"})}
	}
	return out
}

// Example solves a small problem and prints it as nodeplan does, with a
// note on the prices and the unschedulable pods grouped by owner.
func Example() {
	catalog, err := instancetypes.New([]instancetypes.InstanceType{
		machine("m.large", 2, 8, 0.096), machine("m.xlarge", 4, 16, 0.192)})
	if err != nil {
		fmt.Println(err)
		return
	}
	p := packing.Problem{Catalog: catalog, NodePools: []packing.NodePool{{Name: "general"}}}
	p.Pods = append(replicas("web", 5, "1500m"), replicas("etl", 3, "6")...)
	plan, err := packing.Solve(p, packing.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	v := planview.New(&p, &plan)
	notes := []string{"prices: a two-type example catalog (USD)"}
	if err := v.WriteTable(os.Stdout, planview.Options{Currency: "USD", Notes: notes, Wide: true}); err != nil {
		fmt.Println(err)
	}
	// Output:
	// prices: a two-type example catalog (USD)
	//
	// NODE       STATUS  NODEPOOL  INSTANCE TYPE  ZONE    CAPACITY   USD/HOUR  PODS  CPU              MEMORY           ARCH   INSTANCE TYPES
	// general-1  new     general   m.xlarge       zone-a  on-demand  0.192000  2     ████████░░  75%  █░░░░░░░░░  13%  amd64  m.xlarge
	// general-2  new     general   m.xlarge       zone-a  on-demand  0.192000  2     ████████░░  75%  █░░░░░░░░░  13%  amd64  m.xlarge
	// general-3  new     general   m.large        zone-a  on-demand  0.096000  1     ████████░░  75%  █░░░░░░░░░  13%  amd64  m.large,m.xlarge
	//
	// 3 new nodes, 5 pods scheduled, 3 unschedulable: 0.480000 USD/hour, 350.40 USD/month
	//
	// Unschedulable pods:
	//   Deployment shop/etl ×3 — Insufficient: no instance type in NodePool general has 6 cpu (with daemonset overhead); largest has 4
	//       pods: etl-0, etl-1, etl-2
}
