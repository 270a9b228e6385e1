package bound_test

import (
	"fmt"

	"github.com/nodeplan/nodeplan/bound"
	"github.com/nodeplan/nodeplan/instancetypes"
	"github.com/nodeplan/nodeplan/packing"
	"github.com/nodeplan/nodeplan/requirements"
	"github.com/nodeplan/nodeplan/resources"
)

// Three pods of 1.5 cores: a 2-core node holds one, a 4-core node two.
// Summed demand alone would allow 4.5/4 of the larger node; the
// configuration LP knows a node holds whole pods.
func ExampleOf() {
	node := func(name string, cores int64, dollars float64) instancetypes.InstanceType {
		return instancetypes.InstanceType{
			Name:         name,
			Requirements: requirements.NewSet(requirements.MustNew(requirements.LabelInstanceType, requirements.In, name)),
			Capacity:     resources.List{CPU: cores * 1000, Memory: 8 << 30, Pods: 110},
			Offerings: []instancetypes.Offering{{Zone: "zone-a", CapacityType: instancetypes.OnDemand,
				Price: instancetypes.MustPriceFromDollars(dollars), Available: true}},
		}
	}
	catalog, err := instancetypes.New([]instancetypes.InstanceType{node("small", 2, 0.10), node("large", 4, 0.18)})
	if err != nil {
		panic(err)
	}
	p := packing.Problem{NodePools: []packing.NodePool{{Name: "default"}}, Catalog: catalog}
	for _, name := range []string{"a", "b", "c"} {
		p.Pods = append(p.Pods, packing.Pod{Namespace: "default", Name: name, Requests: resources.List{CPU: 1500, Memory: 1 << 30}})
	}
	plan, err := packing.Solve(p, packing.Options{})
	if err != nil {
		panic(err)
	}
	b, err := bound.ForPlan(p, plan, bound.Options{})
	if err != nil {
		panic(err)
	}
	lower := b.Price()
	lower -= lower % 1000 // floored to the micro-unit Amount prints: still a lower bound
	fmt.Printf("$%s/h — within %.1f %% of the best possible ($%s/h lower bound)\n",
		plan.Price.Amount(), 100*b.Gap(plan.Price), lower.Amount())
	fmt.Println("optimal LP:", b.Optimal)
	for _, c := range b.Configurations {
		fmt.Printf("the LP launches %.2f nodes of %s/%s\n", c.Nodes, c.NodePool, c.Type)
	}
	// Output:
	// $0.280000/h — within 3.7 % of the best possible ($0.269999/h lower bound)
	// optimal LP: true
	// the LP launches 1.50 nodes of default/large
}
