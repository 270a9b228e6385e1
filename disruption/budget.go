package disruption

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/robfig/cron/v3"

	"github.com/nodeplan/nodeplan/packing"
)

// DefaultBudget is the budget a NodePool without budgets gets.
const DefaultBudget = "10%"

// unlimited is what an inactive or inapplicable budget allows.
const unlimited = math.MaxInt32

// AllowedDisruptions returns how many more nodes of pool may be disrupted
// for reason at now, by Karpenter's rule:
//
//   - the budgets are pool.Disruption.Budgets, or one budget of
//     [DefaultBudget] when there are none;
//   - a budget is active when it has no Schedule, or when its cron Schedule
//     (standard five fields or a descriptor such as "@daily", in UTC) fired
//     within the Duration before now (see [Active]);
//   - a budget applies when its Reasons is empty or names reason;
//   - Nodes is a count "N" or a percentage "P%" (0..100) of the pool's
//     nodes, rounded up: 10% of 11 nodes allows 2;
//   - the minimum over active, applicable budgets wins;
//   - the pool's nodes that are NotReady or MarkedForDeletion already
//     consume the allowance: the result is max(0, min − those).
//
// The pool's nodes are those of nodes whose NodePool is pool.Name and that
// are Initialized; the rest are ignored, as Karpenter leaves nodes in
// flight out of both the total and the charge
// (BuildDisruptionBudgetMapping).
//
// Every invalid budget is reported, joined, as a [*BudgetError] naming the
// pool and the budget index, and the result is then 0 (fail closed, as
// Karpenter). The complexity is O(len(nodes) + len(budgets)); it does not
// modify its arguments and is safe for concurrent use.
func AllowedDisruptions(pool packing.NodePool, nodes []packing.Node, reason Reason, now time.Time) (int, error) {
	total, busy := count(pool.Name, nodes)
	allowed, err := minAllowed(pool, total, reason, now)
	if err != nil {
		return 0, err
	}
	return max(0, allowed-busy), nil
}

// ValidateBudgets reports every invalid disruption budget of pool, joined,
// each a [*BudgetError] naming the pool and the budget index: the errors
// [AllowedDisruptions] returns for pool whatever its nodes, reason and
// time, as every field of every budget is checked whether or not the
// budget is active or applies. A pool without budgets is valid. The
// complexity is O(budgets × cron parse); it does not modify pool and is
// safe for concurrent use.
func ValidateBudgets(pool packing.NodePool) error {
	_, err := minAllowed(pool, 0, Empty, time.Time{})
	return err
}

// count returns the pool's nodes and those of them already disrupting.
func count(pool string, nodes []packing.Node) (total, busy int) {
	for _, n := range nodes {
		if n.NodePool != pool || !n.Initialized {
			continue
		}
		total++
		if n.NotReady || n.MarkedForDeletion {
			busy++
		}
	}
	return total, busy
}

func minAllowed(pool packing.NodePool, total int, reason Reason, now time.Time) (int, error) {
	budgets := pool.Disruption.Budgets
	if len(budgets) == 0 {
		budgets = []packing.Budget{{Nodes: DefaultBudget}}
	}
	allowed := unlimited
	var errs []error
	for i, b := range budgets {
		n, err := budgetAllows(b, total, reason, now)
		if err != nil {
			errs = append(errs, withPool(err, pool.Name, i))
			continue
		}
		allowed = min(allowed, n)
	}
	return allowed, errors.Join(errs...)
}

func withPool(err error, pool string, i int) error {
	var be *BudgetError
	if errors.As(err, &be) {
		be.NodePool, be.Index = pool, i
	}
	return err
}

// budgetAllows is what one budget allows for reason, unlimited when it is
// inactive or does not apply. Every field is validated either way.
func budgetAllows(b packing.Budget, total int, reason Reason, now time.Time) (int, error) {
	n, err := scaled(b.Nodes, total)
	if err != nil {
		return 0, err
	}
	applies, err := appliesTo(b.Reasons, reason)
	if err != nil {
		return 0, err
	}
	active, err := Active(b, now)
	if err != nil || !active || !applies {
		return unlimited, err
	}
	return n, nil
}

// scaled resolves "N" or "P%" against total, rounding a percentage up.
func scaled(nodes string, total int) (int, error) {
	if p, ok := strings.CutSuffix(nodes, "%"); ok {
		v, err := strconv.Atoi(p)
		if err != nil || v < 0 || v > 100 || p != strconv.Itoa(v) {
			return 0, &BudgetError{Field: "Nodes", Value: nodes, Err: errors.New("want a percentage from 0% to 100%")}
		}
		return (v*total + 99) / 100, nil
	}
	v, err := strconv.Atoi(nodes)
	if err != nil || v < 0 || nodes != strconv.Itoa(v) {
		return 0, &BudgetError{Field: "Nodes", Value: nodes, Err: errors.New("want a non-negative count or a percentage")}
	}
	return v, nil
}

func appliesTo(reasons []string, reason Reason) (bool, error) {
	for _, s := range reasons {
		if _, err := ParseReason(s); err != nil {
			return false, &BudgetError{Field: "Reasons", Value: s, Err: err}
		}
	}
	return len(reasons) == 0 || slices.Contains(reasons, reason.String()), nil
}

// Active reports whether budget b is in force at now: always when it has
// neither Schedule nor Duration; otherwise when the cron Schedule, read in
// UTC, fires at some instant in (now−Duration, now]: Karpenter asks cron
// for the first firing after now−Duration, so a firing exactly Duration
// ago has already closed its window. Schedule and Duration
// must be set together, and Duration must be positive. The error is a
// [*BudgetError] without pool and index. Parsing the schedule costs a few
// microseconds; Active is safe for concurrent use.
func Active(b packing.Budget, now time.Time) (bool, error) {
	if b.Schedule == "" && b.Duration == 0 {
		return true, nil
	}
	if b.Schedule == "" || b.Duration <= 0 {
		return false, &BudgetError{Field: "Duration", Value: b.Duration.String(),
			Err: errors.New("schedule and a positive duration must be set together")}
	}
	sched, err := cron.ParseStandard("TZ=UTC " + b.Schedule)
	if err != nil {
		return false, &BudgetError{Field: "Schedule", Value: b.Schedule, Err: fmt.Errorf("invalid cron: %w", err)}
	}
	now = now.UTC()
	return !sched.Next(now.Add(-b.Duration)).After(now), nil
}
