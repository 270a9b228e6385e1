package resources

import "testing"

var (
	benchList  List
	benchBool  bool
	benchInt   int
	benchQuant Quantity
)

func BenchmarkResources(b *testing.B) {
	req := List{CPU: 500, Memory: 1 << 30, Pods: 1}
	capacity := List{CPU: 4000, Memory: 8 << 30, EphemeralStorage: 20 << 30, Pods: 110}
	extReq := New(Amount{CPU, 500}, Amount{GPU, 1})
	extCap := New(Amount{CPU, 4000}, Amount{GPU, 4}, Amount{PodENI, 9})
	b.Run("Add", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			benchList = req.Add(capacity)
		}
	})
	b.Run("Add/extended", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			benchList = extReq.Add(extCap)
		}
	})
	b.Run("Fits", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			benchBool = req.Fits(capacity)
		}
	})
	b.Run("Fits/extended", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			benchBool = extReq.Fits(extCap)
		}
	})
	b.Run("Compare", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			benchInt = req.Compare(capacity)
		}
	})
	for _, s := range []string{"100m", "1.5Gi", "12e-3", "1.0000000000000000000001"} {
		b.Run("ParseQuantity/"+s, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				benchQuant, _ = ParseQuantity(s)
			}
		})
	}
}
