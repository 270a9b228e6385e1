package bound

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"testing"

	"github.com/nodeplan/nodeplan/internal/problemgen"
	"github.com/nodeplan/nodeplan/packing"
)

// FuzzOf decodes arbitrary bytes into a problem (problemgen.DecodeRest:
// possibly invalid, with hostile strings and extreme numbers) and options
// from the rest, and checks that Of never panics, rejects an invalid
// problem with packing.ErrInvalidProblem and invalid options with
// ErrInvalidOptions, and otherwise returns a finite, non-negative bound
// that Solve's plan, when it places every pod, does not cost less than;
// ForPlan's bound of that plan neither. Its seed corpus runs in the
// normal go test; fuzz it with
//
//	go test -run xxx -fuzz FuzzOf -fuzztime 10m ./bound/
func FuzzOf(f *testing.F) {
	f.Add([]byte(nil))
	f.Add([]byte{0})
	f.Add([]byte{255, 255, 255, 255})
	f.Add(make([]byte, 256))
	for _, b := range problemgen.RandomInputs(21, 1, 24, 16, 6) {
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		p, rest := problemgen.DecodeRest(data)
		o := Options{MaxIterations: rest.IntN(80) - 8, MaxClasses: rest.IntN(80) - 8}
		if err := checkOf(p, o); err != nil {
			t.Fatalf("%v\n%s", err, problemgen.Dump(p))
		}
	})
}

func checkOf(p packing.Problem, o Options) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("panic: %v", r)
		}
	}()
	b, err := Of(p, o)
	switch {
	case o.Validate() != nil:
		if !errors.Is(err, ErrInvalidOptions) {
			return fmt.Errorf("options %+v: got %v, want ErrInvalidOptions", o, err)
		}
		return nil
	case p.Validate() != nil:
		if !errors.Is(err, packing.ErrInvalidProblem) {
			return fmt.Errorf("invalid problem: got %v, want ErrInvalidProblem", err)
		}
		return nil
	case err != nil:
		return fmt.Errorf("valid problem: %v", err)
	case math.IsNaN(b.Dollars) || math.IsInf(b.Dollars, 0) || b.Dollars < 0:
		return fmt.Errorf("bound %+v", b)
	}
	plan, err := packing.Solve(p, packing.Options{})
	if err != nil {
		return nil // the solver's own fuzz target covers it
	}
	allPlaced := len(plan.Unschedulable) == 0 && !slices.ContainsFunc(plan.Headroom, func(h packing.Headroom) bool { return h.Unschedulable })
	if allPlaced && above(b.Dollars, plan.Price) {
		return fmt.Errorf("Of %+v above the plan's %v", b, plan.Price)
	}
	if fb, err := ForPlan(p, plan, o); err != nil || above(fb.Dollars, plan.Price) {
		return fmt.Errorf("ForPlan %+v (%v) above the plan's %v", fb, err, plan.Price)
	}
	return nil
}
