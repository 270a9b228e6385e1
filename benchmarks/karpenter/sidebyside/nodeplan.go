package sidebyside

import (
	"time"

	"github.com/nodeplan/nodeplan/benchmarks/workload"
	"github.com/nodeplan/nodeplan/guide"
	"github.com/nodeplan/nodeplan/packing"
)

// NodeplanRun is a prepared nodeplan solve of one workload: the conversion
// is done, Solve times packing.Solve alone.
type NodeplanRun struct {
	problem packing.Problem
	opts    packing.Options
}

// PrepareNodeplan converts w into nodeplan's input, on the embedded catalog
// w.Catalog names when it names one.
func PrepareNodeplan(w workload.Workload, opts packing.Options) (*NodeplanRun, error) {
	p, err := nodeplanProblem(w)
	if err != nil {
		return nil, err
	}
	return &NodeplanRun{problem: p, opts: opts}, nil
}

// Solve runs packing.Solve and reports the plan as a Result: its price is
// the plan's, each NodeClaim at its chosen (cheapest) offering.
func (r *NodeplanRun) Solve() (Result, error) {
	start := time.Now()
	plan, err := packing.Solve(r.problem, r.opts)
	elapsed := time.Since(start)
	if err != nil {
		return Result{}, err
	}
	return Result{Pods: len(r.problem.Pods), Scheduled: len(r.problem.Pods) - len(plan.Unschedulable),
		NodeClaims: len(plan.NodeClaims), PricePerHour: plan.Price.Dollars(), Duration: elapsed}, nil
}

// RunNodeplan prepares and solves w once.
func RunNodeplan(w workload.Workload, opts packing.Options) (Result, error) {
	r, err := PrepareNodeplan(w, opts)
	if err != nil {
		return Result{}, err
	}
	return r.Solve()
}

// GuidedRun is a prepared guide.Solve of one workload: Solve times the
// whole of it (packing.Solve, the bound, the narrowed solve and the check).
type GuidedRun struct {
	problem packing.Problem
	opts    guide.Options
}

// PrepareGuided converts w as PrepareNodeplan does.
func PrepareGuided(w workload.Workload, opts guide.Options) (*GuidedRun, error) {
	p, err := nodeplanProblem(w)
	if err != nil {
		return nil, err
	}
	return &GuidedRun{problem: p, opts: opts}, nil
}

// Solve runs guide.Solve and reports its plan as a Result.
func (r *GuidedRun) Solve() (Result, error) {
	start := time.Now()
	res, err := guide.Solve(r.problem, r.opts)
	elapsed := time.Since(start)
	if err != nil {
		return Result{}, err
	}
	plan := res.Plan
	return Result{Pods: len(r.problem.Pods), Scheduled: len(r.problem.Pods) - len(plan.Unschedulable),
		NodeClaims: len(plan.NodeClaims), PricePerHour: plan.Price.Dollars(), Duration: elapsed}, nil
}

// RunGuided prepares and solves w once with guide.Solve.
func RunGuided(w workload.Workload, opts guide.Options) (Result, error) {
	r, err := PrepareGuided(w, opts)
	if err != nil {
		return Result{}, err
	}
	return r.Solve()
}
