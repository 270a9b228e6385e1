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

// BenchmarkParse builds a catalog from a catalog file: the embedded AWS
// data read as a user's file (so with the repeated-key check a file gets),
// priced by the file's own prices for us-east-1.
func BenchmarkParse(b *testing.B) {
	b.ReportAllocs()
	b.SetBytes(int64(len(awsCatalog)))
	var n int
	for b.Loop() {
		c, err := Parse(awsCatalog, Options{})
		if err != nil {
			b.Fatal(err)
		}
		n = c.Len()
	}
	b.ReportMetric(float64(n), "types")
}
