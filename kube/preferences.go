package kube

import (
	"github.com/nodeplan/nodeplan/packing"
)

// ReportPreferences is, in a [Report], what a plan solved under
// packing.BudgetPreferences says of the pending pods' preferred terms.
type ReportPreferences struct {
	// Policy is the preference policy ("Budget") and Budget its fraction:
	// the plan costs at most (1 + Budget) times the plan that ignores
	// every preference.
	Policy string  `json:"policy"`
	Budget float64 `json:"budget"`
	// Terms are the preferred terms, grouped per owner and term, in the
	// plan's order (packing.Plan.Preferences).
	Terms []ReportPreference `json:"terms"`
}

// ReportPreference is one preferred term of a [ReportPreferences]: whose
// it is, what it asks, whether the plan honours it and what honouring it
// adds to the plan's hourly price, the other terms as decided.
type ReportPreference struct {
	Namespace string `json:"namespace"`
	Owner     string `json:"owner"`
	// Kind is PreferredNodeAffinity, PreferredPodAffinity,
	// PreferredPodAntiAffinity or ScheduleAnywaySpread.
	Kind   string `json:"kind"`
	Weight int32  `json:"weight"`
	Term   string `json:"term"`
	Pods   int    `json:"pods"`
	// Honoured says whether the plan honours the term; Measured whether
	// its cost was measured (false past the solver's cap, with
	// CostPerHour 0).
	Honoured    bool    `json:"honoured"`
	Measured    bool    `json:"measured"`
	CostPerHour float64 `json:"costPerHour"`
}

// Preferences describes the preference report of plan, solved with o:
// nil unless o.Preferences is packing.BudgetPreferences (the other
// policies measure nothing). plan is not modified.
func Preferences(o packing.Options, plan *packing.Plan) *ReportPreferences {
	if o.Preferences != packing.BudgetPreferences {
		return nil
	}
	r := &ReportPreferences{Policy: o.Preferences.String(), Budget: o.PreferenceBudget,
		Terms: make([]ReportPreference, 0, len(plan.Preferences))}
	for _, c := range plan.Preferences {
		r.Terms = append(r.Terms, ReportPreference{Namespace: c.Term.Namespace, Owner: c.Term.Owner, Kind: c.Term.Kind.String(),
			Weight: c.Term.Weight, Term: c.Term.Term, Pods: c.Pods, Honoured: c.Honoured, Measured: c.Measured,
			CostPerHour: c.Cost.Decimal()})
	}
	return r
}
