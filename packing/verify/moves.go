package verify

import (
	"slices"

	"github.com/nodeplan/nodeplan/packing"
)

// MaxReorder caps the pods for which [Moves] searches a replay order.
const MaxReorder = 64

// Moves checks the homes a disruption command gives displaced pods:
// [Plan] without the claim Requests and price accounting (a replacement
// may also hold pods the command does not list). When the plan's order
// breaks a topology rule it retries, for at most MaxReorder pods, with an
// order found greedily: the host may bind displaced pods in any order.
// Consolidation and drift checks share it.
func Moves(p packing.Problem, plan packing.Plan) []Violation {
	out := homeViolations(p, plan)
	if !slices.ContainsFunc(out, isTopology) || len(p.Pods) > MaxReorder {
		return out
	}
	if order, ok := searchOrder(p, plan); ok {
		plan.Order = order
		return homeViolations(p, plan)
	}
	return out
}

func homeViolations(p packing.Problem, plan packing.Plan) []Violation {
	return slices.DeleteFunc(Plan(p, plan), func(v Violation) bool {
		return v.Rule == RuleRequestsMismatch || v.Rule == RulePriceMismatch
	})
}

func isTopology(v Violation) bool {
	return v.Rule == RuleTopologySpread || v.Rule == RulePodAffinity || v.Rule == RulePodAntiAffinity
}

// searchOrder builds a replay order greedily: at each step the first
// remaining pod that breaks no topology rule right after the pods chosen
// so far. It fails when no remaining pod can go next. O(P²) Plan calls.
func searchOrder(p packing.Problem, plan packing.Plan) ([]int, bool) {
	var order []int
	rest := slices.Clone(plan.Order)
	for len(rest) > 0 {
		k := slices.IndexFunc(rest, func(i int) bool { return canGoNext(p, plan, order, rest, i) })
		if k < 0 {
			return nil, false
		}
		order = append(order, rest[k])
		rest = slices.Delete(rest, k, k+1)
	}
	return order, true
}

// canGoNext reports whether pod i, replayed right after order, breaks no
// topology rule.
func canGoNext(p packing.Problem, plan packing.Plan, order, rest []int, i int) bool {
	trial := append(slices.Clone(order), i)
	for _, j := range rest {
		if j != i {
			trial = append(trial, j)
		}
	}
	plan.Order = trial
	return !slices.ContainsFunc(Plan(p, plan), func(v Violation) bool { return isTopology(v) && v.Pod == i })
}
