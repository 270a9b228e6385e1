package instancetypes

import (
	"testing"

	"github.com/nodeplan/nodeplan/requirements"
)

func BenchmarkCatalog(b *testing.B) {
	c := awsCatalogForTest(b)
	sets := []struct {
		name string
		reqs requirements.Set
	}{
		{"broad", benchReqs()},
		{"gpu", requirements.NewSet(requirements.MustNew(requirements.LabelInstanceGPUName, requirements.In, "a100", "h100"))},
		{"type", requirements.NewSet(requirements.MustNew(requirements.LabelInstanceType, requirements.In, "m5.large"))},
		{"none", requirements.Set{}},
	}
	for _, s := range sets {
		b.Run("Prune/"+s.name, func(b *testing.B) {
			b.ReportAllocs()
			var buf [3 * stackWords]uint64
			for b.Loop() {
				_ = c.index.filter(s.reqs, c.avail, buf[:])
			}
		})
		b.Run("Compatible/"+s.name, func(b *testing.B) {
			b.ReportAllocs()
			dst := make([]*InstanceType, 0, c.Len())
			for b.Loop() {
				dst = c.AppendCompatible(dst[:0], s.reqs)
			}
		})
		b.Run("CompatibleFirst/"+s.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				for range c.Compatible(s.reqs) {
					break
				}
			}
		})
		b.Run("Cheapest/"+s.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				_, _, _ = c.Cheapest(s.reqs)
			}
		})
	}
	b.Run("InstanceType.Cheapest", func(b *testing.B) {
		b.ReportAllocs()
		m5, _ := c.Get("m5.large")
		reqs := benchReqs()
		for b.Loop() {
			_, _ = m5.Cheapest(reqs)
		}
	})
	b.Run("WithAvailability", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			_, _ = c.WithAvailability(OfferingKey{"m5.large", "us-east-1a", Spot})
		}
	})
}

func BenchmarkAWS(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := AWS(Options{}); err != nil {
			b.Fatal(err)
		}
	}
}
