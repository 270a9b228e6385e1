package consolidation_test

import (
	"fmt"
	"testing"

	"github.com/nodeplan/nodeplan/consolidation"
	"github.com/nodeplan/nodeplan/instancetypes"
)

// fragmented is n c-16 nodes each running 10 pods of 100m..1.5 cores (10n
// pods in all, a third of the capacity) after a scale-down, deterministic.
func fragmented(n int) consolidation.Cluster {
	c := newCluster()
	for i := range n {
		var pods []int64
		for j := range 10 {
			pods = append(pods, int64(100+(i*7+j*131)%1400))
		}
		c.node(fmt.Sprintf("n%04d", i), 16, pods...)
	}
	return c.Cluster
}

// BenchmarkConsolidate plans fragmented clusters with Karpenter's methods
// (repack=false) and with the m→n repack after them (repack=true),
// reporting the savings as a share of the cluster's price.
func BenchmarkConsolidate(b *testing.B) {
	for _, n := range []int{100, 500, 2000} {
		c := fragmented(n)
		before := price(c)
		for _, repack := range []bool{false, true} {
			b.Run(fmt.Sprintf("nodes=%d/repack=%t", n, repack), func(b *testing.B) {
				b.ReportAllocs()
				var saved instancetypes.Price
				for b.Loop() {
					r, err := consolidation.Plan(c, consolidation.Options{Repack: repack})
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
}
