package problemgen

import (
	"math"
	"math/rand/v2"

	"github.com/nodeplan/nodeplan/instancetypes"
	"github.com/nodeplan/nodeplan/packing"
)

// GenerateOptions returns the valid solver options the seed stands for,
// across their range: every strategy, no restarts to a few (never the
// default's dozens, so that a property's cost stays that of a few
// solves), any seed, preferences respected, ignored or (rarely, as it
// solves many times) within a budget from 0 to unbounded, priority order
// or not, candidate types capped at one, a few or not at all, and
// per-node overheads from none (zero or negative) to the largest valid,
// and either limit policy. The same seed always gives the same options.
func GenerateOptions(seed uint64) packing.Options {
	g := &gen{src: rand.New(rand.NewPCG(seed, seed^0x2545f4914f6cdd1d))}
	o := packing.Options{
		Strategy:         pick(g, []packing.Strategy{packing.Best, packing.Plain, packing.CostAware}),
		Restarts:         pick(g, []int{-1, 1, 2, 4, 8}),
		Seed:             uint64(g.intn(1 << 30)),
		Preferences:      pick(g, []packing.PreferencePolicy{packing.IgnorePreferences, packing.RespectPreferences, packing.RespectPreferences, packing.RespectPreferences}),
		PriorityOrder:    g.chance(1, 3),
		MaxInstanceTypes: pick(g, []int{0, 0, 1, 2, 3, 600}),
		NodeOverhead:     pick(g, []instancetypes.Price{0, 0, -1, 10_000_000, 1_000_000_000, instancetypes.MaxValidPrice}),
		LimitPolicy:      pick(g, []packing.LimitPolicy{packing.LimitMostPods, packing.LimitLargestFirst}),
	}
	// Drawn last, so that the fields above are those the seed gave before
	// the budget policy existed.
	if o.Preferences == packing.RespectPreferences && g.chance(1, 8) {
		o.Preferences, o.PreferenceBudget = packing.BudgetPreferences, pick(g, preferenceBudgets)
	}
	return o
}

// preferenceBudgets are the valid PreferenceBudget values the generators
// draw: none, small, large and unbounded in effect.
var preferenceBudgets = []float64{0, 0.05, 0.1, 0.5, 1e9}

// optionCorruption makes one option of o invalid and says which.
type optionCorruption func(g *gen, o *packing.Options) string

var optionCorruptions = []optionCorruption{
	func(g *gen, o *packing.Options) string {
		o.Strategy = packing.CostAware + packing.Strategy(1+g.intn(250))
		return "strategy out of range"
	},
	func(g *gen, o *packing.Options) string {
		o.MaxInstanceTypes = int(pick(g, []int64{-1, -600, math.MinInt64}))
		return "negative MaxInstanceTypes"
	},
	func(g *gen, o *packing.Options) string {
		o.Restarts = int(pick(g, []int64{4097, 1 << 20, math.MaxInt64}))
		return "too many restarts"
	},
	func(g *gen, o *packing.Options) string {
		o.NodeOverhead = pick(g, []instancetypes.Price{instancetypes.MaxValidPrice + 1, instancetypes.MaxPrice})
		return "node overhead above the price bound"
	},
	func(g *gen, o *packing.Options) string {
		o.LimitPolicy = packing.LimitLargestFirst + packing.LimitPolicy(1+g.intn(254))
		return "limit policy out of range"
	},
	func(g *gen, o *packing.Options) string {
		o.Preferences = packing.BudgetPreferences + packing.PreferencePolicy(1+g.intn(250))
		return "preference policy out of range"
	},
	func(g *gen, o *packing.Options) string {
		o.Preferences = packing.BudgetPreferences
		o.PreferenceBudget = pick(g, []float64{-0.1, math.Inf(-1), math.Inf(1), math.NaN(), -math.SmallestNonzeroFloat64})
		return "preference budget negative, infinite or NaN"
	},
	func(g *gen, o *packing.Options) string {
		o.Preferences = pick(g, []packing.PreferencePolicy{packing.RespectPreferences, packing.IgnorePreferences})
		o.PreferenceBudget = pick(g, []float64{0.1, 1e9})
		return "preference budget under another policy"
	},
}

// CorruptOptions returns o with one option made invalid, chosen by seed,
// and a phrase naming it. [packing.Options.Validate] rejects every
// result.
func CorruptOptions(o packing.Options, seed uint64) (packing.Options, string) {
	g := &gen{src: rand.New(rand.NewPCG(seed, ^seed))}
	return o, pick(g, optionCorruptions)(g, &o)
}
