package consolidation_test

import (
	"fmt"
	"testing"

	"github.com/nodeplan/nodeplan/consolidation"
	"github.com/nodeplan/nodeplan/instancetypes"
)

// fragmented is n c-8 nodes each running 1..3 pods of 500m..2s after a
// scale-down, deterministic.
func fragmented(n int) consolidation.Cluster {
	c := newCluster()
	for i := range n {
		var pods []int64
		for j := range 1 + i%3 {
			pods = append(pods, int64(500+(i*7+j*13)%1500))
		}
		c.node(fmt.Sprintf("n%04d", i), 8, pods...)
	}
	return c.Cluster
}

func BenchmarkConsolidate(b *testing.B) {
	for _, n := range []int{100, 500} {
		c := fragmented(n)
		before := price(c)
		b.Run(fmt.Sprintf("nodes=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			var saved instancetypes.Price
			for b.Loop() {
				r, err := consolidation.Plan(c, consolidation.Options{})
				if err != nil {
					b.Fatal(err)
				}
				saved = 0
				for _, cmd := range r.Commands {
					saved += cmd.Savings
				}
			}
			b.ReportMetric(float64(saved)/float64(before), "savings/cost")
		})
	}
}
