package verify

import "github.com/nodeplan/nodeplan/packing"

// PlanFreshCounts is Plan with the topology replay counting every domain
// from scratch for each pod, as it did before its running tallies.
func PlanFreshCounts(p packing.Problem, plan packing.Plan) []Violation {
	return check(p, plan, true)
}
