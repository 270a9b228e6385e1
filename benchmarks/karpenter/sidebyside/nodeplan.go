package sidebyside

import (
	"time"

	"github.com/nodeplan/nodeplan/benchmarks/workload"
	"github.com/nodeplan/nodeplan/guide"
	"github.com/nodeplan/nodeplan/packing"
)

// NodeplanRun is a prepared nodeplan solve of one workload: the conversion
// is done, Solve times the solve alone (packing.Solve, or all of
// guide.Solve: the first solve, the bound, the narrowed solves and the
// check).
type NodeplanRun struct {
	problem packing.Problem
	solve   func(packing.Problem) (packing.Plan, error)
}

// PrepareNodeplan converts w into nodeplan's input, on the embedded catalog
// w.Catalog names when it names one, for packing.Solve with opts.
func PrepareNodeplan(w workload.Workload, opts packing.Options) (*NodeplanRun, error) {
	return prepare(w, func(p packing.Problem) (packing.Plan, error) { return packing.Solve(p, opts) })
}

// PrepareGuided converts w as PrepareNodeplan does, for guide.Solve with
// opts.
func PrepareGuided(w workload.Workload, opts guide.Options) (*NodeplanRun, error) {
	return prepare(w, func(p packing.Problem) (packing.Plan, error) {
		res, err := guide.Solve(p, opts)
		return res.Plan, err
	})
}

func prepare(w workload.Workload, solve func(packing.Problem) (packing.Plan, error)) (*NodeplanRun, error) {
	p, err := nodeplanProblem(w)
	if err != nil {
		return nil, err
	}
	return &NodeplanRun{problem: p, solve: solve}, nil
}

// Solve solves and reports the plan as a Result: its price is the plan's,
// each NodeClaim at its chosen (cheapest) offering.
func (r *NodeplanRun) Solve() (Result, error) {
	start := time.Now()
	plan, err := r.solve(r.problem)
	elapsed := time.Since(start)
	if err != nil {
		return Result{}, err
	}
	return Result{Pods: len(r.problem.Pods), Scheduled: len(r.problem.Pods) - len(plan.Unschedulable),
		NodeClaims: len(plan.NodeClaims), PricePerHour: plan.Price.Dollars(), Duration: elapsed}, nil
}

// RunNodeplan prepares and solves w once with packing.Solve.
func RunNodeplan(w workload.Workload, opts packing.Options) (Result, error) {
	r, err := PrepareNodeplan(w, opts)
	if err != nil {
		return Result{}, err
	}
	return r.Solve()
}

// RunGuided prepares and solves w once with guide.Solve.
func RunGuided(w workload.Workload, opts guide.Options) (Result, error) {
	r, err := PrepareGuided(w, opts)
	if err != nil {
		return Result{}, err
	}
	return r.Solve()
}
