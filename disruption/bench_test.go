package disruption_test

import (
	"testing"
	"time"

	"github.com/nodeplan/nodeplan/disruption"
	"github.com/nodeplan/nodeplan/packing"
)

func BenchmarkAllowedDisruptions(b *testing.B) {
	pool := withBudgets(packing.Budget{Nodes: "10%"}, packing.Budget{Nodes: "0", Schedule: "0 9 * * 1-5", Duration: 8 * time.Hour})
	nodes := poolNodes("default", 1000)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := disruption.AllowedDisruptions(pool, nodes, disruption.Underutilized, noon); err != nil {
			b.Fatal(err)
		}
	}
}
