package disruption_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/leanovate/gopter"
	"github.com/leanovate/gopter/gen"
	"github.com/leanovate/gopter/prop"

	"github.com/nodeplan/nodeplan/disruption"
	"github.com/nodeplan/nodeplan/packing"
)

// TestAllowedDisruptionsProperties: adding a budget never allows more;
// the result never exceeds the ceiling of the percentage; charged nodes
// lower it one for one down to zero.
func TestAllowedDisruptionsProperties(t *testing.T) {
	params := gopter.DefaultTestParametersWithSeed(20261211) // fixed: every run checks the same cases
	params.MinSuccessfulTests = 300
	props := gopter.NewProperties(params)
	props.Property("more budgets never allow more", prop.ForAll(
		func(pct, count, size, busy int) bool {
			nodes := poolNodes("default", size)
			for i := range min(busy, size) {
				nodes[i].MarkedForDeletion = true
			}
			one := withBudgets(packing.Budget{Nodes: fmt.Sprintf("%d%%", pct)})
			two := withBudgets(packing.Budget{Nodes: fmt.Sprintf("%d%%", pct)}, packing.Budget{Nodes: fmt.Sprint(count)})
			a, errA := disruption.AllowedDisruptions(one, nodes, disruption.Underutilized, noon)
			b, errB := disruption.AllowedDisruptions(two, nodes, disruption.Underutilized, noon)
			ceil := (pct*size + 99) / 100
			return errA == nil && errB == nil && b <= a && a == max(0, ceil-min(busy, size)) &&
				b == max(0, min(ceil, count)-min(busy, size))
		},
		gen.IntRange(0, 100), gen.IntRange(0, 50), gen.IntRange(0, 200), gen.IntRange(0, 30),
	))
	props.Property("a window is active exactly within Duration after a firing", prop.ForAll(
		func(hour, dur, at int) bool {
			b := packing.Budget{Nodes: "0", Schedule: fmt.Sprintf("0 %d * * *", hour), Duration: time.Duration(dur) * time.Minute}
			now := time.Date(2025, 6, 11, 0, 0, 0, 0, time.UTC).Add(time.Duration(at) * time.Minute)
			got, err := disruption.Active(b, now)
			since := ((at-hour*60)%1440 + 1440) % 1440 // minutes since the last firing
			return err == nil && got == (since < dur)
		},
		gen.IntRange(0, 23), gen.IntRange(1, 1439), gen.IntRange(0, 2*1440),
	))
	props.TestingRun(t)
}
