package repair_test

import (
	"fmt"
	"testing"

	"github.com/nodeplan/nodeplan/repair"
)

func BenchmarkDecide(b *testing.B) {
	for _, n := range []int{100, 10000} {
		in := randomInput(1, n)
		b.Run(fmt.Sprintf("nodes=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := repair.Decide(in); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
