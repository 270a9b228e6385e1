package overlay_test

import (
	"fmt"
	"testing"

	"github.com/nodeplan/nodeplan/instancetypes"
	"github.com/nodeplan/nodeplan/overlay"
	"github.com/nodeplan/nodeplan/packing"
	"github.com/nodeplan/nodeplan/requirements"
	"github.com/nodeplan/nodeplan/resources"
)

// BenchmarkApply applies overlays to the embedded AWS catalog (1,000+
// types) for a few NodePools.
func BenchmarkApply(b *testing.B) {
	cat, err := instancetypes.AWS(instancetypes.Options{})
	if err != nil {
		b.Fatal(err)
	}
	all := []overlay.Overlay{
		{Name: "spot", Weight: 10, PriceAdjustment: "+10%", Requirements: []overlay.Requirement{{Key: requirements.LabelCapacityType, Operator: "In", Values: []string{"spot"}}}},
		{Name: "m5", Weight: 20, Price: "0.5", Requirements: []overlay.Requirement{{Key: requirements.LabelInstanceFamily, Operator: "In", Values: []string{"m5"}}}},
		{Name: "fuse", Capacity: resources.New(resources.Amount{Name: "smarter-devices/fuse", Value: 1})},
		{Name: "zone", Weight: 5, PriceAdjustment: "-0.01", Requirements: []overlay.Requirement{{Key: requirements.LabelZone, Operator: "In", Values: []string{"us-east-1a"}}}},
	}
	for _, pools := range []int{1, 4} {
		for _, n := range []int{1, len(all)} {
			b.Run(fmt.Sprintf("pools=%d/overlays=%d/types=%d", pools, n, cat.Len()), func(b *testing.B) {
				nps := make([]packing.NodePool, pools)
				for i := range nps {
					nps[i].Name = fmt.Sprintf("pool-%d", i)
				}
				b.ReportAllocs()
				for b.Loop() {
					if _, err := overlay.Apply(cat, nps, all[:n]); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
