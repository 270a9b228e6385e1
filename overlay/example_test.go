package overlay_test

import (
	"fmt"

	"github.com/nodeplan/nodeplan/instancetypes"
	"github.com/nodeplan/nodeplan/overlay"
	"github.com/nodeplan/nodeplan/packing"
	"github.com/nodeplan/nodeplan/requirements"
	"github.com/nodeplan/nodeplan/resources"
)

// ExampleApply gives spot capacity a 10% surcharge, m5.large a licence
// price, and two overlays of one weight the same resource: the
// alphabetically earlier one loses.
func ExampleApply() {
	cat, _ := instancetypes.AWS(instancetypes.Options{})
	pools := []packing.NodePool{{Name: "default"}}
	overlays := []overlay.Overlay{
		{Name: "spot-surcharge", Weight: 10, PriceAdjustment: "+10%",
			Requirements: []overlay.Requirement{{Key: requirements.LabelCapacityType, Operator: "In", Values: []string{"spot"}}}},
		{Name: "m5-licence", Weight: 20, Price: "0.5",
			Requirements: []overlay.Requirement{{Key: requirements.LabelInstanceType, Operator: "In", Values: []string{"m5.large"}}}},
		{Name: "fuse-a", Capacity: resources.New(resources.Amount{Name: "smarter-devices/fuse", Value: 1})},
		{Name: "fuse-b", Capacity: resources.New(resources.Amount{Name: "smarter-devices/fuse", Value: 2})},
		{Name: "typo", Requirements: []overlay.Requirement{{Key: requirements.LabelInstanceType, Operator: "In", Values: []string{"m5.lrage"}}}},
	}
	res, err := overlay.Apply(cat, pools, overlays)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, o := range res.Report {
		fmt.Println(o.Status, o.Overlay)
	}
	before, _ := cat.Get("m5.large")
	after, _ := res.NodePools[0].Catalog.Get("m5.large")
	for i, o := range after.Offerings[:2] {
		fmt.Println(o.Zone, o.CapacityType, before.Offerings[i].Price, "->", o.Price)
	}
	fmt.Println("fuse:", after.Capacity.Get("smarter-devices/fuse"))
	c5, _ := cat.Get("c5.large")
	c5After, _ := res.NodePools[0].Catalog.Get("c5.large")
	fmt.Println("c5.large", c5After.Offerings[0].CapacityType, c5.Offerings[0].Price, "->", c5After.Offerings[0].Price)
	// Output:
	// Applied m5-licence
	// Applied spot-surcharge
	// SelectsNothing typo
	// Applied fuse-b
	// Conflict fuse-a
	// us-east-1a spot 0.038400/h -> 0.500000/h
	// us-east-1b spot 0.038400/h -> 0.500000/h
	// fuse: 2
	// c5.large spot 0.034000/h -> 0.037400/h
}
