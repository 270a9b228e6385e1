package packing

import "time"

// ConsolidationPolicy says which nodes consolidation may act on. The zero
// value is WhenEmptyOrUnderutilized, Karpenter's default.
type ConsolidationPolicy uint8

const (
	// WhenEmptyOrUnderutilized consolidates empty and underused nodes.
	WhenEmptyOrUnderutilized ConsolidationPolicy = iota
	// WhenEmpty consolidates only nodes without pods (daemonsets aside).
	WhenEmpty
	// Balanced consolidates when the savings are worth the disruption.
	Balanced
)

// String returns the Karpenter spelling.
func (p ConsolidationPolicy) String() string {
	return [...]string{"WhenEmptyOrUnderutilized", "WhenEmpty", "Balanced"}[min(int(p), 2)]
}

// Disruption holds a NodePool's disruption settings, consumed by the
// consolidation and drift packages. The zero Disruption is Karpenter's
// default: WhenEmptyOrUnderutilized, consolidateAfter 0, the default budget
// of 10% of nodes, expireAfter 720h.
type Disruption struct {
	Policy ConsolidationPolicy
	// ConsolidateAfter is how long after the last pod event a node becomes
	// consolidatable; ConsolidateNever disables consolidation.
	ConsolidateAfter time.Duration
	ConsolidateNever bool
	// Budgets; empty means one budget of "10%".
	Budgets []Budget
	// ExpireAfter is the node lifetime; zero means 720h; ExpireNever
	// disables expiration.
	ExpireAfter time.Duration
	ExpireNever bool
	// TerminationGracePeriod bounds the time a draining node waits; zero
	// means none.
	TerminationGracePeriod time.Duration
}

// Budget is a disruption budget: Nodes is a count ("5") or a percentage
// ("10%") of the pool's nodes; Schedule (cron, robfig/cron syntax) and
// Duration make it active only in windows; Reasons limit it to some
// disruption reasons (empty: all).
type Budget struct {
	Nodes    string
	Schedule string
	Duration time.Duration
	Reasons  []string
}
