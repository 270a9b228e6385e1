package consolidation

import (
	"errors"
	"fmt"
	"math"

	"github.com/nodeplan/nodeplan/packing"
)

// ErrInvalidOptions is wrapped by the errors Plan, ValidateWith and
// Options.Validate return for invalid [Options].
var ErrInvalidOptions = errors.New("invalid consolidation options")

// Validate reports every invalid option, joined, each wrapping
// [ErrInvalidOptions] and naming the option: MinPriceImprovement outside
// 0..1 or NaN, MinScore negative or not finite, a negative MaxCandidates,
// MaxSingle or MaxIterations, invalid Solver options (which also wrap
// packing.ErrInvalidOptions), and Solver.Preferences
// packing.BudgetPreferences (a provisioning policy: each simulation would
// be a search of many solves whose report no command carries).
func (o Options) Validate() error {
	var errs []error
	bad := func(name, format string, args ...any) {
		errs = append(errs, fmt.Errorf("%w: %s: %s", ErrInvalidOptions, name, fmt.Sprintf(format, args...)))
	}
	if !(o.MinPriceImprovement >= 0 && o.MinPriceImprovement <= 1) {
		bad("MinPriceImprovement", "%v is not a fraction in 0..1", o.MinPriceImprovement)
	}
	if !(o.MinScore >= 0 && o.MinScore <= math.MaxFloat64) {
		bad("MinScore", "%v is not a finite number at least 0", o.MinScore)
	}
	for _, c := range [...]struct {
		name string
		v    int
	}{{"MaxCandidates", o.MaxCandidates}, {"MaxSingle", o.MaxSingle}, {"MaxIterations", o.MaxIterations}} {
		if c.v < 0 {
			bad(c.name, "%d is negative", c.v)
		}
	}
	if err := o.Solver.Validate(); err != nil {
		errs = append(errs, fmt.Errorf("%w: Solver: %w", ErrInvalidOptions, err))
	}
	if o.Solver.Preferences == packing.BudgetPreferences {
		// Each simulation would be a budget search of up to 129 solves
		// whose per-term report no command carries.
		bad("Solver.Preferences", "%s is for provisioning; consolidation simulates with Respect or Ignore", o.Solver.Preferences)
	}
	return errors.Join(errs...)
}
