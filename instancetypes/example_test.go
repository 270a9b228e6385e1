package instancetypes_test

import (
	"fmt"

	"github.com/nodeplan/nodeplan/instancetypes"
	"github.com/nodeplan/nodeplan/requirements"
)

// Load the embedded AWS catalog and list the five cheapest arm64 types with
// at least 4 vCPUs, on-demand, with their price in the catalog's currency
// and their allocatable resources.
func Example() {
	catalog, err := instancetypes.AWS(instancetypes.Options{})
	if err != nil {
		panic(err)
	}
	reqs := requirements.NewSet(
		requirements.MustNew(requirements.LabelArch, requirements.In, "arm64"),
		requirements.MustNew(requirements.LabelInstanceCPU, requirements.Gte, "4"),
		requirements.MustNew(requirements.LabelCapacityType, requirements.In, "on-demand"),
	)
	n, currency := 0, catalog.Origin().Currency
	for it := range catalog.Compatible(reqs) {
		o, _ := it.Cheapest(reqs)
		fmt.Printf("%-12s %s %s\n", it.Name, o.Price.Format(currency), it.Allocatable)
		if n++; n == 5 {
			break
		}
	}
	// Output:
	// a1.xlarge    0.102000 USD/hour cpu=3920m memory=6525Mi ephemeral-storage=17Gi pods=58
	// t4g.xlarge   0.134400 USD/hour cpu=3920m memory=14103Mi ephemeral-storage=17Gi pods=58
	// c6g.xlarge   0.136000 USD/hour cpu=3920m memory=6525Mi ephemeral-storage=17Gi pods=58
	// c7g.xlarge   0.145000 USD/hour cpu=3920m memory=6525Mi ephemeral-storage=17Gi pods=58
	// c6gd.xlarge  0.153600 USD/hour cpu=3920m memory=6525Mi ephemeral-storage=17Gi pods=58
}

// Cheapest finds the cheapest type and offering for a requirement set.
func ExampleCatalog_Cheapest() {
	catalog, err := instancetypes.AWS(instancetypes.Options{Zones: []string{"us-east-1a"}})
	if err != nil {
		panic(err)
	}
	gpu := requirements.NewSet(requirements.MustNew(requirements.LabelInstanceGPUName, requirements.In, "a100"))
	it, o, ok := catalog.Cheapest(gpu)
	fmt.Println(it.Name, o.CapacityType, o.Zone, o.Price.Format(catalog.Origin().Currency), ok)
	// Output:
	// p4d.24xlarge spot us-east-1a 8.783057 USD/hour true
}

// WorstLaunchPrice is what consolidation compares: spot is present, so the
// most expensive compatible spot offering counts.
func ExampleInstanceType_WorstLaunchPrice() {
	catalog := instancetypes.KarpenterDiverse()
	it, _ := catalog.Get("fake-it-0")
	p, _ := it.WorstLaunchPrice(requirements.Set{})
	fmt.Println(it.Allocatable, p)
	// Output:
	// cpu=900m memory=2038Mi pods=10 0.314748365/h
}

// WithAvailability marks offerings unavailable after an insufficient-
// capacity error, in a new catalog.
func ExampleCatalog_WithAvailability() {
	catalog, _ := instancetypes.AWS(instancetypes.Options{CapacityTypes: []instancetypes.CapacityType{instancetypes.OnDemand}, Zones: []string{"us-east-1a"}})
	m5 := requirements.NewSet(requirements.MustNew(requirements.LabelInstanceFamily, requirements.In, "m5"))
	before, _, _ := catalog.Cheapest(m5)
	lost, err := catalog.WithAvailability(instancetypes.OfferingKey{
		InstanceType: before.Name, Zone: "us-east-1a", CapacityType: instancetypes.OnDemand})
	if err != nil {
		panic(err)
	}
	after, _, _ := lost.Cheapest(m5)
	fmt.Println(before.Name, "->", after.Name)
	// Output:
	// m5.large -> m5.xlarge
}

// Format writes a price with the currency of its catalog: CNY in
// cn-north-1. String, which does not know the currency, writes the exact
// amount alone.
func ExamplePrice_Format() {
	catalog, err := instancetypes.AWS(instancetypes.Options{Region: "cn-north-1"})
	if err != nil {
		panic(err)
	}
	m5, _ := catalog.Get("m5.large")
	o, _ := m5.Cheapest(requirements.NewSet(requirements.MustNew(requirements.LabelCapacityType, requirements.In, "on-demand")))
	fmt.Println(o.Price.Format(catalog.Origin().Currency))
	fmt.Println(o.Price)
	// Output:
	// 1.013000 CNY/hour
	// 1.013000/h
}
