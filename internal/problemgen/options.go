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
// solves), any seed, preferences ignored or not, priority order or not,
// candidate types capped at one, a few or not at all, per-node
// overheads from none (zero or negative) to the largest valid, and either
// limit policy. The same seed always gives the same options.
func GenerateOptions(seed uint64) packing.Options {
	g := &gen{src: rand.New(rand.NewPCG(seed, seed^0x2545f4914f6cdd1d))}
	return packing.Options{
		Strategy:          pick(g, []packing.Strategy{packing.Best, packing.Plain, packing.CostAware}),
		Restarts:          pick(g, []int{-1, 1, 2, 4, 8}),
		Seed:              uint64(g.intn(1 << 30)),
		IgnorePreferences: g.chance(1, 4),
		PriorityOrder:     g.chance(1, 3),
		MaxInstanceTypes:  pick(g, []int{0, 0, 1, 2, 3, 600}),
		NodeOverhead:      pick(g, []instancetypes.Price{0, 0, -1, 10_000_000, 1_000_000_000, instancetypes.MaxValidPrice}),
		LimitPolicy:       pick(g, []packing.LimitPolicy{packing.LimitMostPods, packing.LimitLargestFirst}),
	}
}

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
}

// CorruptOptions returns o with one option made invalid, chosen by seed,
// and a phrase naming it. [packing.Options.Validate] rejects every
// result.
func CorruptOptions(o packing.Options, seed uint64) (packing.Options, string) {
	g := &gen{src: rand.New(rand.NewPCG(seed, ^seed))}
	return o, pick(g, optionCorruptions)(g, &o)
}
