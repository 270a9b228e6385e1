package bound_test

import (
	"testing"
	"time"

	"github.com/nodeplan/nodeplan/bound"
	"github.com/nodeplan/nodeplan/packing"
)

func TestDebugDiverse(t *testing.T) {
	for _, n := range []int{1000, 5000} {
		p := diverseAWS(t, n)
		t0 := time.Now()
		b, err := bound.Of(p, bound.Options{})
		t.Logf("n=%d %+v err=%v in %v", n, b, err, time.Since(t0))
		plan, _ := packing.Solve(p, packing.Options{Restarts: -1})
		t.Logf("plan %v unsched %d ratio %.4f", plan.Price, len(plan.Unschedulable), plan.Price.Dollars()/b.Dollars)
	}
}
