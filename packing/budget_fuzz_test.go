package packing_test

import (
	"math"
	"testing"

	"github.com/nodeplan/nodeplan/internal/problemgen"
	"github.com/nodeplan/nodeplan/packing"
)

// fuzzBudgets are the budget fractions of FuzzSolveBudget's seeds: valid
// ones from none to unbounded, and hostile ones Solve must reject.
var fuzzBudgets = []float64{0, 0.1, 1e9, math.MaxFloat64, -0.1, math.NaN(), math.Inf(1), math.Inf(-1),
	math.SmallestNonzeroFloat64, -math.SmallestNonzeroFloat64}

// FuzzSolveBudget is FuzzSolve under BudgetPreferences with the fuzzed
// fraction (possibly negative, NaN or infinite): Solve never panics,
// rejects a bad fraction with ErrInvalidOptions and an invalid problem with
// ErrInvalidProblem, and returns plans verify.Plan accepts. Its seed corpus
// (FuzzSolve's seeds, each with some of fuzzBudgets) runs in the normal go
// test; fuzz it with
//
//	go test -run xxx -fuzz FuzzSolveBudget -fuzztime 10m ./packing/
func FuzzSolveBudget(f *testing.F) {
	for i, s := range fuzzSeeds() {
		f.Add(s, fuzzBudgets[i%len(fuzzBudgets)])
	}
	f.Fuzz(func(t *testing.T, data []byte, frac float64) {
		p, _ := problemgen.DecodeRest(data)
		o := packing.Options{Preferences: packing.BudgetPreferences, PreferenceBudget: frac, Restarts: -1}
		if err := safely(fuzzSolve(o), p); isFailure(err) {
			m := problemgen.Minimize(p, func(q packing.Problem) bool { return isFailure(safely(fuzzSolve(o), q)) })
			t.Fatalf("input %s, budget %v: %v\nminimised problem:\n%s", inputID(data), frac, err, problemgen.Dump(m))
		}
	})
}
