package sidebyside

import (
	"github.com/nodeplan/nodeplan/benchmarks/workload"
	"github.com/nodeplan/nodeplan/bound"
)

// Bound is a lower bound on the hourly price of any plan for a workload
// that schedules every pod some node can hold: bound.Of's configuration
// LP (see package bound), with PricePerHour its value in dollars per hour.
type Bound struct {
	PricePerHour float64
	bound.Bound
}

// LowerBound bounds w's provisioning cost from below with bound.Of on the
// problem nodeplan solves (nodeplanProblem): no implementation's plan
// that schedules every pod but Unplaceable can cost less. It is only an
// error when w does not convert or is invalid.
func LowerBound(w workload.Workload) (Bound, error) {
	p, err := nodeplanProblem(w)
	if err != nil {
		return Bound{}, err
	}
	b, err := bound.Of(p, bound.Options{})
	if err != nil {
		return Bound{}, err
	}
	return Bound{PricePerHour: b.Dollars, Bound: b}, nil
}
