package packing_test

import (
	"errors"
	"fmt"
	"os"
	"reflect"
	"runtime"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/leanovate/gopter"
	"github.com/leanovate/gopter/prop"
	"github.com/stretchr/testify/require"

	"github.com/nodeplan/nodeplan/internal/problemgen"
	"github.com/nodeplan/nodeplan/packing"
	"github.com/nodeplan/nodeplan/packing/verify"
)

// Property tests: every property runs over problems drawn by
// problemgen.Generate from consecutive seeds, so a failure names the seed
// that reproduces it (problemgen.Generate(seed, problemgen.Size{})) and
// prints the problem minimised by problemgen.Minimize.
//
// The default run checks 10,000 problems through Solve and verify.Plan in
// TestPropertyPlanVerifies, and a few thousand more in the other
// properties, some with options drawn by problemgen.GenerateOptions (a
// failure there names the seed of both). A third of the problems carry
// problemgen's unusual shapes (GPU daemonsets, self-excluding pools,
// hostname and beta-label constraints, many-valued spreads, bounds). The environment variable NODEPLAN_PROPERTY_COUNT sets the
// count of TestPropertyPlanVerifies for long runs (the others scale with
// it, at a tenth, a fifth or a half); a value below the default is ignored:
//
//	NODEPLAN_PROPERTY_COUNT=1000000 go test ./packing/ -run Property -timeout 0

// defaultPropertyCount is the number of problems TestPropertyPlanVerifies
// checks by default.
const defaultPropertyCount = 10_000

// searched are the options of the properties over Best: a few restarts
// rather than the default (up to 32 on these small problems), so that
// every problem takes the restarts' random tie-breaks, at an eighth of
// the cost. The restarts differ from the default ones only in number.
var searched = packing.Options{Restarts: 4}

// propertyCount is NODEPLAN_PROPERTY_COUNT when it is larger than the
// default, else the default.
func propertyCount(t *testing.T) int {
	s := os.Getenv("NODEPLAN_PROPERTY_COUNT")
	if s == "" {
		return defaultPropertyCount
	}
	n, err := strconv.Atoi(s)
	require.NoError(t, err, "NODEPLAN_PROPERTY_COUNT")
	return max(n, defaultPropertyCount)
}

// knownBug names the open solver bug a violation is a symptom of, or ""
// when it is not a known one. A problem whose violations all are known
// bugs is skipped with a log line naming its seed and the bugs, so that the
// default run can pass while a bug is open; every other violation fails.
// No bug is open: the last two (labels for bounded custom requirements, and
// Karpenter's self-affinity bootstrap, now kube-scheduler's rule) were fixed
// in the solver. Add a recogniser here, with the seeds, when one is found
// and cannot be fixed at once.
func knownBug(packing.Problem, packing.Plan, verify.Violation) string { return "" }

// unknownViolations returns the violations that are no known bug, and the
// names of the known bugs among the rest.
func unknownViolations(p packing.Problem, plan packing.Plan) (unknown []verify.Violation, known []string) {
	for _, v := range verify.Plan(p, plan) {
		if bug := knownBug(p, plan, v); bug != "" {
			if !slices.Contains(known, bug) {
				known = append(known, bug)
			}
			continue
		}
		unknown = append(unknown, v)
	}
	return unknown, known
}

// errKnownBug marks a problem that only shows known bugs.
type errKnownBug struct{ bugs []string }

func (e *errKnownBug) Error() string { return "known solver bugs: " + strings.Join(e.bugs, ", ") }

// property is a check of one problem: nil when it holds.
type property func(p packing.Problem) error

// safely runs prop, turning a panic into an error with its stack.
func safely(prop property, p packing.Problem) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("panic: %v\n%s", r, debug.Stack())
		}
	}()
	return prop(p)
}

// batches is how many parallel subtests a property's seeds are split into.
const batches = 8

// maxReports bounds the failures one batch reports (each is minimised).
const maxReports = 2

// forSeeds checks prop on the problems of seeds base..base+n-1, in
// parallel batches, reporting each failure with its seed and the
// minimised problem.
func forSeeds(t *testing.T, base uint64, n int, prop property) {
	forSeedsWith(t, base, n, func(uint64) property { return prop })
}

// forSeedsWith is forSeeds with a property that depends on the seed (the
// options it solves with, say).
func forSeedsWith(t *testing.T, base uint64, n int, prop func(seed uint64) property) {
	per := (n + batches - 1) / batches
	for b := range batches {
		lo, hi := base+uint64(b*per), base+uint64(min((b+1)*per, n))
		t.Run(fmt.Sprintf("seeds=%d-%d", lo, hi), func(t *testing.T) {
			t.Parallel()
			checkSeeds(t, lo, hi, prop)
		})
	}
}

func checkSeeds(t *testing.T, lo, hi uint64, seeded func(seed uint64) property) {
	reports := 0
	for seed := lo; seed < hi && reports < maxReports; seed++ {
		p, prop := problemgen.Generate(seed, problemgen.Size{}), seeded(seed)
		err := safely(prop, p)
		var kb *errKnownBug
		switch {
		case errors.As(err, &kb):
			t.Logf("skipping seed %d: it shows only %v", seed, err)
		case err != nil:
			reports++
			t.Error(failureReport(seed, p, err, prop))
		}
	}
}

// failureReport names the seed, the failure, and the minimised problem
// with its own failure.
func failureReport(seed uint64, p packing.Problem, err error, prop property) string {
	m := problemgen.Minimize(p, func(q packing.Problem) bool { return isFailure(safely(prop, q)) })
	return fmt.Sprintf("seed %d (problemgen.Generate(%d, problemgen.Size{})): %v\n"+
		"minimised problem, failing with: %v\n%s", seed, seed, err, safely(prop, m), problemgen.Dump(m))
}

// isFailure reports whether err is a failure other than a known bug.
func isFailure(err error) bool {
	var kb *errKnownBug
	return err != nil && !errors.As(err, &kb)
}

// solve is Solve that fails the property on an error: generated problems
// are valid.
func solve(p packing.Problem, o packing.Options) (packing.Plan, error) {
	plan, err := packing.Solve(p, o)
	if err != nil {
		return plan, fmt.Errorf("Solve(%v) returned an error for a valid problem: %w", o.Strategy, err)
	}
	return plan, nil
}

// verified solves p with o and returns an error listing verify.Plan's
// violations, if any.
func verified(p packing.Problem, o packing.Options) (packing.Plan, error) {
	plan, err := solve(p, o)
	if err != nil {
		return plan, err
	}
	unknown, known := unknownViolations(p, plan)
	switch {
	case len(unknown) > 0:
		return plan, fmt.Errorf("verify.Plan found %d violations of the %v plan: %v", len(unknown), o.Strategy, unknown)
	case len(known) > 0:
		return plan, &errKnownBug{bugs: known}
	}
	return plan, nil
}

// TestPropertyPlanVerifies: the default plan of every generated problem
// passes verify.Plan: every pod exactly once, every node and claim feasible,
// every NodePool policy kept (invariants 1 to 3).
func TestPropertyPlanVerifies(t *testing.T) {
	forSeeds(t, 0, propertyCount(t), func(p packing.Problem) error {
		_, err := verified(p, searched)
		return err
	})
}

// TestPlanVerifiesRegressions: generated problems the long runs of
// TestPropertyPlanVerifies once failed on, each with what it showed.
func TestPlanVerifiesRegressions(t *testing.T) {
	tests := []struct {
		seed uint64
		why  string
	}{
		{44899, "issue 20: a NodePool label's rack domain, with existing nodes' racks, meets minDomains 4"},
		{49547, "issue 20: two NodePools' rack labels meet minDomains 2, with a pod only counted"},
	}
	for _, tc := range tests {
		t.Run(strconv.FormatUint(tc.seed, 10), func(t *testing.T) {
			_, err := verified(problemgen.Generate(tc.seed, problemgen.Size{}), searched)
			require.NoError(t, err, tc.why)
		})
	}
}

// TestPropertyStrategies: the Plain and CostAware plans, and the plans
// with priority order and preferences ignored, pass verify.Plan too; and Best
// never costs more than Plain when they place as many pods.
func TestPropertyStrategies(t *testing.T) {
	forSeeds(t, 1<<40, propertyCount(t)/5, func(p packing.Problem) error {
		plain, err := verified(p, packing.Options{Strategy: packing.Plain})
		if err != nil {
			return err
		}
		if _, err := verified(p, packing.Options{Strategy: packing.CostAware, PriorityOrder: true}); err != nil {
			return err
		}
		if _, err := verified(p, packing.Options{Strategy: packing.Plain, Preferences: packing.IgnorePreferences}); err != nil {
			return err
		}
		best, err := solve(p, searched)
		if err != nil {
			return err
		}
		if len(best.Unschedulable) == len(plain.Unschedulable) && best.Price > plain.Price {
			return fmt.Errorf("Best costs %s, more than Plain's %s, for as many pods", best.Price, plain.Price)
		}
		return nil
	})
}

// TestPropertyDeterministic: two solves of one problem give deep-equal
// plans, also under GOMAXPROCS(1) (invariant 4). It does not run in
// parallel because GOMAXPROCS is process-wide.
func TestPropertyDeterministic(t *testing.T) {
	n := propertyCount(t) / 10
	plans := make([]packing.Plan, n)
	for seed := range uint64(n) {
		p := problemgen.Generate(seed+1<<41, problemgen.Size{})
		a, errA := packing.Solve(p, searched)
		b, errB := packing.Solve(p, searched)
		require.NoError(t, errors.Join(errA, errB))
		if !reflect.DeepEqual(a, b) || fmt.Sprintf("%+v", a) != fmt.Sprintf("%+v", b) {
			t.Fatalf("seed %d: two solves differ:\n%+v\n%+v\n%s", seed+1<<41, a, b, problemgen.Dump(p))
		}
		plans[seed] = a
	}
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	for seed := range uint64(n) {
		p := problemgen.Generate(seed+1<<41, problemgen.Size{})
		c, err := packing.Solve(p, searched)
		require.NoError(t, err)
		if !reflect.DeepEqual(plans[seed], c) {
			t.Fatalf("seed %d: the plan under GOMAXPROCS(1) differs:\n%+v\n%+v", seed+1<<41, plans[seed], c)
		}
	}
}

// TestPropertyInputsUnchanged: Solve and verify.Plan modify neither the problem
// (its slices, maps and catalog) nor the plan (invariant 4).
func TestPropertyInputsUnchanged(t *testing.T) {
	forSeeds(t, 3<<40, propertyCount(t)/10, func(p packing.Problem) error {
		clone, dump := problemgen.Clone(p), problemgen.Dump(p)
		plan, err := solve(p, packing.Options{})
		if err != nil {
			return err
		}
		planDump := fmt.Sprintf("%+v", plan)
		verify.Plan(p, plan)
		switch {
		case !reflect.DeepEqual(p, clone):
			return errors.New("the problem differs from its clone after Solve and verify.Plan")
		case problemgen.Dump(p) != dump:
			return errors.New("the problem's dump changed after Solve and verify.Plan")
		case fmt.Sprintf("%+v", plan) != planDump:
			return errors.New("verify.Plan modified the plan")
		}
		return nil
	})
}

// TestPropertyInvalidRejected: a problem with an invalid field makes Solve
// return an error wrapping ErrInvalidProblem, and never panic (invariant
// 6).
func TestPropertyInvalidRejected(t *testing.T) {
	forSeeds(t, 4<<40, propertyCount(t)/5, func(p packing.Problem) error {
		q, what := problemgen.Corrupt(p, uint64(len(p.Pods)))
		_, err := packing.Solve(q, packing.Options{})
		if !errors.Is(err, packing.ErrInvalidProblem) {
			return fmt.Errorf("Solve of a problem with %s returned %v, want an error wrapping ErrInvalidProblem", what, err)
		}
		return nil
	})
}

// TestPropertyOptions: the plans Solve makes with options drawn across
// their valid range (every strategy, few or no restarts, candidate types
// capped at one or a few, per-node overheads up to the price bound,
// preferences ignored, priority order) pass verify.Plan.
func TestPropertyOptions(t *testing.T) {
	forSeedsWith(t, 5<<40, propertyCount(t)/10, func(seed uint64) property {
		o := problemgen.GenerateOptions(seed)
		return func(p packing.Problem) error {
			if _, err := verified(p, o); err != nil {
				return fmt.Errorf("options %+v: %w", o, err)
			}
			return nil
		}
	})
}

// TestPropertyInvalidOptions: options with one invalid field (a strategy
// out of range, a negative MaxInstanceTypes, too many restarts, an
// overhead above the price bound) make Solve return an error wrapping
// ErrInvalidOptions and no plan, and never panic (invariant 6).
func TestPropertyInvalidOptions(t *testing.T) {
	forSeedsWith(t, 6<<40, propertyCount(t)/10, func(seed uint64) property {
		o, what := problemgen.CorruptOptions(problemgen.GenerateOptions(seed), seed)
		return func(p packing.Problem) error {
			plan, err := packing.Solve(p, o)
			if !errors.Is(err, packing.ErrInvalidOptions) || !reflect.DeepEqual(plan, packing.Plan{}) {
				return fmt.Errorf("Solve with %s (%+v) returned %v and %d claims, want an error wrapping ErrInvalidOptions and no plan",
					what, o, err, len(plan.NodeClaims))
			}
			return nil
		}
	})
}

// TestPropertyLarger runs the verify.Plan property through gopter on larger
// problems (up to 60 pods, 30 types, 8 nodes).
func TestPropertyLarger(t *testing.T) {
	params := gopter.DefaultTestParametersWithSeed(20250101)
	params.MinSuccessfulTests = propertyCount(t) / 20
	params.Workers = 2
	size := problemgen.Size{Pods: 60, Types: 30, Nodes: 8, BoundPods: 6}
	props := gopter.NewProperties(params)
	props.Property("verify.Plan(p, Solve(p)) is empty", prop.ForAll(func(s problemgen.Seeded) string {
		_, err := verified(s.Problem, searched)
		if isFailure(err) {
			m := problemgen.Minimize(s.Problem, func(q packing.Problem) bool { _, err := verified(q, searched); return isFailure(err) })
			return fmt.Sprintf("seed %d (size %+v): %v\nminimised:\n%s", s.Seed, size, err, problemgen.Dump(m))
		}
		return ""
	}, problemgen.GenSeeded(size)))
	props.TestingRun(t)
}
