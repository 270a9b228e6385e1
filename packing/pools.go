package packing

import (
	"cmp"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/nodeplan/nodeplan/instancetypes"
	"github.com/nodeplan/nodeplan/internal/bitset"
	"github.com/nodeplan/nodeplan/requirements"
	"github.com/nodeplan/nodeplan/resources"
)

// pool is a NodePool compiled for one solve, read-only once compiled.
// pools.go (compilePool) writes its fields but these: pins and pinList
// (domains.go: pinBits), offerPairs, offerMask, pairZones, pairCTs,
// zonePairs, ctPairs and pairTypes (offerings.go: maskOffers), limits,
// capLim and maxCapLim (limits.go: compileLimits).
type pool struct {
	np       *NodePool
	reqs     requirements.Set // requirements ∩ labels ∩ nodepool name
	zone     zoneValue        // reqs's one zone, if any (zoneOf)
	taints   []requirements.Taint
	types    []*instancetypes.InstanceType // compatible, with a usable offering, cheapest first
	names    []string                      // the types' names
	price    []instancetypes.Price         // cheapest offering of each type under reqs
	alloc    []resources.List              // allocatable less daemonset overhead
	daemon   []resources.List              // daemonset overhead per type
	all      bitset.Set
	maxAlloc resources.List
	pins     map[pin]bitset.Set      // types admitting key=value, for topology keys
	pinList  map[string][]bitset.Set // the same by key, aligned with static.domains
	// minIDs are, for each key of reqs with minValues, each type's values
	// of it, numbered (see valueIDs); nil when no requirement has
	// minValues.
	minIDs    map[string]valueIDs
	typeKeys  map[string]bool    // label keys some type of the pool defines
	reserved  bool               // some type has a reserved offering
	limits    []resources.Amount // resource limits, by name; "nodes" aside
	capLim    [][]int64          // per type: its capacity in each limited resource
	maxCapLim []int64            // the largest capLim of any type, per limit
	bySize    [dims][]int32      // type indices by allocatable in each core dimension
	// sizes are, per core dimension, the allocatables in bySize order, and
	// below, per dimension, the types of bySize[d][:step*j] for each j
	// (below[d][0] empty): trim's binary search and bulk removal. step is a
	// multiple of 64 that keeps below at about 32 sets a dimension past
	// 2,048 types, so its size grows with the types, not their square.
	sizes [dims][]int64
	below [dims][]bitset.Set
	step  int
	// offerPairs are the (zone, capacity type) pairs of the types' usable
	// offerings, and offerMask, per type, the pairs it offers (bit i for
	// offerPairs[i]); both nil when the pool has reserved offerings or
	// more than 64 pairs, and offerings are then checked one by one.
	offerPairs []zoneCT
	offerMask  []uint64
	// pairZones and pairCTs are the distinct zones and capacity types of
	// offerPairs, and zonePairs and ctPairs the pairs (as offerMask bits)
	// of each.
	pairZones, pairCTs []string
	zonePairs, ctPairs []uint64
	// pairs are the offerPairs reqs allows (allowedBy), an empty
	// claim's.
	pairs uint64
	// taken are the numbers, ascending, that claims' names skip: existing
	// nodes are named, or have the hostname, pool-N (claim.go: takeNames).
	taken []int
	// pairTypes are, per pair of offerPairs, the types that offer it
	// (offerMask by pair), so that a filter narrows a set word by word.
	pairTypes []bitset.Set
	// zones are the zones and capacity types the pool can launch a node
	// in (launchZones), for LimitMostPods' zone reruns.
	zones []zoneCT
	// unfit are the types left out because their daemonset overhead alone
	// does not fit them.
	unfit []unfitType
	// conflict says how the pool's requirements exclude a label of its
	// own nodes; such a pool has no types and launches nothing.
	conflict string
}

// ownLabelConflict names the first label, in key order, that np puts on
// its nodes (see poolLabels) and its own requirements exclude, or returns
// "". Such a pool can launch no node that meets its requirements.
func ownLabelConflict(np *NodePool) string {
	labels := poolLabels(np)
	for _, k := range slices.Sorted(maps.Keys(labels)) {
		if r := np.Requirements.Get(k); np.Requirements.Has(k) && !r.Has(labels[k]) {
			return fmt.Sprintf("its requirement %s excludes its own label %s=%s", r, k, labels[k])
		}
	}
	return ""
}

// compilePools orders the pools by weight, higher first, ties by name
// descending as Karpenter orders them, and compiles each.
func compilePools(p *Problem) []*pool {
	pools := make([]*pool, 0, len(p.NodePools))
	for i := range p.NodePools {
		if pl := compilePool(p, &p.NodePools[i]); pl != nil {
			pools = append(pools, pl)
		}
	}
	slices.SortStableFunc(pools, func(a, b *pool) int {
		return cmp.Or(cmp.Compare(b.np.Weight, a.np.Weight), strings.Compare(b.np.Name, a.np.Name))
	})
	return pools
}

func compilePool(p *Problem, np *NodePool) *pool {
	pl := &pool{np: np, taints: np.Taints, reqs: compilePoolReqs(np)}
	pl.zone = zoneOf(pl.reqs)
	if pl.conflict = ownLabelConflict(np); pl.conflict == "" { // else it launches nothing
		pl.filterTypes(p.PoolCatalog(np), p.DaemonSets)
	}
	pl.sortTypes()
	pl.names = make([]string, len(pl.types))
	for i, t := range pl.types {
		pl.names[i] = t.Name
	}
	pl.maskOffers()
	pl.pairs = pl.allowedBy(pl.reqs)
	pl.zones = pl.launchZones()
	pl.typeKeys = map[string]bool{}
	for i, t := range pl.types {
		if i > 0 && t.Requirements.SameKeys(pl.types[i-1].Requirements) {
			continue // most types constrain the keys the one before does
		}
		for r := range t.Requirements.All() {
			pl.typeKeys[r.Key()] = true
		}
	}
	pl.all = bitset.Full(len(pl.types))
	pl.allocatable()
	pl.sortBySize()
	pl.compileLimits()
	for r := range pl.reqs.All() {
		if r.MinValues() > 0 {
			if pl.minIDs == nil {
				pl.minIDs = map[string]valueIDs{}
			}
			pl.minIDs[r.Key()] = pl.numberKey(r.Key())
		}
	}
	return pl
}

// sortBySize orders the pool's types by allocatable in each core dimension,
// smallest first, ties by index.
func (pl *pool) sortBySize() {
	for d := range dims {
		order := make([]int32, len(pl.types))
		for i := range order {
			order[i] = int32(i)
		}
		slices.SortFunc(order, func(a, b int32) int {
			return cmp.Or(cmp.Compare(dim(&pl.alloc[a], d), dim(&pl.alloc[b], d)), cmp.Compare(a, b))
		})
		pl.bySize[d] = order
		pl.sizes[d] = make([]int64, len(order))
		for i, t := range order {
			pl.sizes[d][i] = dim(&pl.alloc[t], d)
		}
	}
	words := (len(pl.types) + 63) / 64
	pl.prefixSets(64 * max(1, words/32)) // 64 up to 2,048 types; past it, about 32 sets a dimension
}

// prefixSets fills pl.below for step, in one allocation.
func (pl *pool) prefixSets(step int) {
	n := len(pl.types)
	words, sets := (n+63)/64, n/step+1
	pl.step = step
	slab := make([]uint64, dims*sets*words)
	for d := range dims {
		pl.below[d] = make([]bitset.Set, sets)
		for j := range sets {
			s := bitset.Set(slab[:words:words])
			slab = slab[words:]
			if j > 0 {
				s.CopyFrom(pl.below[d][j-1])
				for _, t := range pl.bySize[d][step*(j-1) : step*j] {
					s.Add(int(t))
				}
			}
			pl.below[d][j] = s
		}
	}
}

// filterTypes keeps the types of cat the pool can launch, with their
// cheapest offering's price and their daemonset overhead. Karpenter keeps
// a type when its requirements intersect the pool's: labels only one side
// defines (the pool's custom labels) do not count. As Karpenter fits a
// claim's requests plus each type's own daemonset overhead, a type its
// daemonsets alone overfill (a daemonset requesting a GPU the type lacks)
// holds no pod: it goes to unfit.
func (pl *pool) filterTypes(cat *instancetypes.Catalog, dss []DaemonSet) {
	for _, t := range cat.Types() {
		if err := t.Requirements.Intersects(pl.reqs); err != nil {
			continue
		}
		off, ok := t.Cheapest(pl.reqs)
		if !ok {
			continue
		}
		load := daemonLoad(dss, pl, t)
		if !load.Fits(t.Allocatable) {
			pl.unfit = append(pl.unfit, unfitType{t: t, load: load})
			continue
		}
		pl.types = append(pl.types, t)
		pl.reserved = pl.reserved || slices.ContainsFunc(t.Offerings, func(o instancetypes.Offering) bool { return o.CapacityType == instancetypes.Reserved })
		pl.price = append(pl.price, off.Price)
		pl.daemon = append(pl.daemon, load)
	}
}

// allowUndefined reports whether a pod may require a key the pool does not
// define: a well-known label, or one its instance types define, which the
// type choice settles (as a provider registers its type labels with
// Karpenter), or the hostname every node gets (Karpenter's new NodeClaim
// requires hostname In [a placeholder]; see admitsNewHost).
func (pl *pool) allowUndefined(key string) bool {
	return requirements.IsWellKnown(key) || pl.typeKeys[key] || key == requirements.LabelHostname
}

// compatible is the pool's Compatible: r (a pool or claim requirement set)
// admits incoming, the keys the pool's types define allowed undefined.
func (pl *pool) compatible(r, incoming requirements.Set) error {
	return r.CompatibleWith(incoming, pl.allowUndefined)
}

// sortTypes orders types (with their price and daemonset overhead) by
// price under the pool's requirements, then name.
func (pl *pool) sortTypes() {
	idx := indexes(len(pl.types))
	slices.SortFunc(idx, func(a, b int) int {
		return cmp.Or(cmp.Compare(pl.price[a], pl.price[b]), strings.Compare(pl.types[a].Name, pl.types[b].Name))
	})
	types, prices, daemon := make([]*instancetypes.InstanceType, len(idx)), make([]instancetypes.Price, len(idx)), make([]resources.List, len(idx))
	for i, j := range idx {
		types[i], prices[i], daemon[i] = pl.types[j], pl.price[j], pl.daemon[j]
	}
	pl.types, pl.price, pl.daemon = types, prices, daemon
}

// compilePoolReqs is np's requirements ∩ the labels its nodes carry (see
// poolLabels).
func compilePoolReqs(np *NodePool) requirements.Set {
	return np.Requirements.Intersect(requirements.FromLabels(poolLabels(np)))
}

// allocatable computes each type's allocatable less its daemonset
// overhead, and their maximum.
func (pl *pool) allocatable() {
	pl.alloc = make([]resources.List, len(pl.types))
	for i, t := range pl.types {
		pl.alloc[i] = t.Allocatable.Sub(pl.daemon[i])
		pl.maxAlloc = pl.maxAlloc.Max(pl.alloc[i])
	}
}

// unfitType is a type of a pool's catalog that its daemonsets' load does
// not fit, kept for the reasons a pod is given.
type unfitType struct {
	t    *instancetypes.InstanceType
	load resources.List
}
