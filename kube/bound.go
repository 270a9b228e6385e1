package kube

import (
	"math"

	"github.com/nodeplan/nodeplan/bound"
	"github.com/nodeplan/nodeplan/instancetypes"
	"github.com/nodeplan/nodeplan/planview"
)

// ReportBound says how far a plan's new nodes can be from the cheapest
// ones placing the same pods: the certified lower bound of package bound
// ([bound.ForPlan]) beside the plan's price.
type ReportBound struct {
	// PricePerHour is the plan's new nodes, as summary.pricePerHour.
	PricePerHour float64 `json:"pricePerHour"`
	// LowerBoundPerHour is the certified lower bound on the new nodes of
	// any plan placing the pods this one placed, rounded down to the
	// sixth decimal.
	LowerBoundPerHour float64 `json:"lowerBoundPerHour"`
	// Gap is PricePerHour ÷ the bound − 1 (0.05: within 5 %); null when
	// the bound is 0 and the price is not.
	Gap *float64 `json:"gap"`
	// Optimal says the bound's LP was solved to optimality; otherwise the
	// bound is a weaker one, still certified (see package bound).
	Optimal bool `json:"optimal"`
	// Pods is how many pods the bound covers; Classes how many classes
	// they formed.
	Pods    int `json:"pods"`
	Classes int `json:"classes"`
	// Guided is what provision --guided did (package guide); absent
	// without it.
	Guided *ReportGuided `json:"guided,omitempty"`
}

// ReportGuided is what a guided solve (package guide's Solve) did: whether its
// plan was taken, whether that plan holds pods to the LP's nodes
// (guide.Result.Pinned), and the price of the plan the search found alone.
type ReportGuided struct {
	Taken           bool    `json:"taken"`
	Pinned          bool    `json:"pinned"`
	UnguidedPerHour float64 `json:"unguidedPricePerHour"`
}

// NewReportBound describes b, a bound of a plan whose new nodes cost
// price ([bound.ForPlan] of that plan).
func NewReportBound(b bound.Bound, price instancetypes.Price) *ReportBound {
	r := &ReportBound{PricePerHour: price.Decimal(), LowerBoundPerHour: planview.LowerBound(b).Decimal(),
		Optimal: b.Optimal, Pods: b.Pods, Classes: b.Classes}
	if g := b.Gap(price); !math.IsInf(g, 1) {
		r.Gap = &g
	}
	return r
}
