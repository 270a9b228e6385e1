package packing

import (
	"cmp"
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync/atomic"

	"github.com/nodeplan/nodeplan/instancetypes"
	"github.com/nodeplan/nodeplan/internal/bitset"
	"github.com/nodeplan/nodeplan/requirements"
	"github.com/nodeplan/nodeplan/resources"
)

// static is what every run of one Solve shares, read-only: the pools with
// their instance types, the compiled pods, the nodes' labels and the
// topology counters.
type static struct {
	prob     *Problem
	opts     Options
	pools    []*pool
	pods     []podInfo
	labels   []map[string]string // per node of prob.Nodes: its nodeLabels, the same in every pass
	order    []int               // FFD order of pod indexes
	equal    [][2]int            // runs of order whose pods are of equal size
	shares   [][2]float64        // per pod: its share of all cpu and memory requested
	counters []counterDef
	// counterIndex finds a counter by its signature.
	counterIndex map[string]int32
	domains      map[string][]string // topology key -> known domains, sorted
	softTaints   bool                // some NodePool or node has a PreferNoSchedule taint
	// domainTaints lists, per domain, the taint sets of the nodes and pools
	// that may be in it.
	domainTaints map[pin][][]requirements.Taint
	// ctx and failed stop the solve at its loop boundaries (see halted);
	// fault, nil but in tests, runs at the start of each of Best's passes.
	ctx    context.Context
	failed atomic.Bool
	fault  func(cost bool)
}

// pool is a NodePool compiled for one solve.
type pool struct {
	np        *NodePool
	reqs      requirements.Set // requirements ∩ labels ∩ nodepool name
	taints    []requirements.Taint
	types     []*instancetypes.InstanceType // compatible, with a usable offering, cheapest first
	price     []instancetypes.Price         // cheapest offering of each type under reqs
	alloc     []resources.List              // allocatable less daemonset overhead
	daemon    []resources.List              // daemonset overhead per type
	all       bitset.Set
	maxAlloc  resources.List
	pins      map[pin]bitset.Set      // types admitting key=value, for topology keys
	pinList   map[string][]bitset.Set // the same by key, aligned with static.domains
	minValues bool
	typeKeys  map[string]bool    // label keys some type of the pool defines
	reserved  bool               // some type has a reserved offering
	limits    []resources.Amount // resource limits, by name; "nodes" aside
	capLim    [][]int64          // per type: its capacity in each limited resource
	maxCapLim []int64            // the largest capLim of any type, per limit
	bySize    [dims][]int32      // type indices by allocatable in each core dimension
	// offerPairs are the (zone, capacity type) pairs of the types' usable
	// offerings, and offerMask, per type, the pairs it offers (bit i for
	// offerPairs[i]); both nil when the pool has reserved offerings or
	// more than 64 pairs, and offerings are then checked one by one.
	offerPairs []zoneCT
	offerMask  []uint64
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

// pin is one topology key fixed to one value.
type pin struct{ key, value string }

func prepare(p *Problem, o Options) *static {
	s := &static{prob: p, opts: o}
	s.pools = compilePools(p)
	s.softTaints = hasSoftTaints(p)
	s.labels = labelsOf(p.Nodes)
	s.compilePods()
	s.compileCounters()
	s.domains = s.collectDomains()
	for _, pl := range s.pools {
		pinBits(pl, s.domains)
	}
	s.order = ffdOrder(p.Pods, o.PriorityOrder)
	s.equal = sizeRuns(p.Pods, s.order, o.PriorityOrder)
	s.blend()
	return s
}

// labelsOf returns the labels of each node (see nodeLabels), by index,
// for every pass of a solve to read: computed once, as a node's labels do
// not change between passes. Some are the nodes' own maps: read-only.
func labelsOf(nodes []Node) []map[string]string {
	out := make([]map[string]string, len(nodes))
	for i := range nodes {
		out[i] = nodeLabels(&nodes[i])
	}
	return out
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
	if pl.conflict = ownLabelConflict(np); pl.conflict == "" { // else it launches nothing
		pl.filterTypes(p.PoolCatalog(np), p.DaemonSets)
	}
	pl.sortTypes()
	pl.maskOffers()
	pl.typeKeys = map[string]bool{}
	for _, t := range pl.types {
		for _, k := range t.Requirements.Keys() {
			pl.typeKeys[k] = true
		}
	}
	pl.all = bitset.Full(len(pl.types))
	pl.allocatable()
	pl.sortBySize()
	pl.compileLimits()
	for r := range pl.reqs.All() {
		pl.minValues = pl.minValues || r.MinValues() > 0
	}
	return pl
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

// daemonLoad sums the requests, pod slot included, of the daemonsets that
// run on type t of pool pl (see daemonRuns): one of a daemonset's
// node-affinity alternatives must be compatible with the pool and the
// type.
func daemonLoad(dss []DaemonSet, pl *pool, t *instancetypes.InstanceType) resources.List {
	var sum resources.List
	typeReqs := t.Requirements
	admits := func(alt requirements.Set) bool {
		return pl.reqs.CompatibleWith(alt, func(k string) bool { return requirements.IsWellKnown(k) || typeReqs.Has(k) }) == nil && typeReqs.Intersects(alt) == nil
	}
	for j := range dss {
		if daemonRuns(&dss[j], pl.taints, admits) {
			sum = sum.Add(podRequests(dss[j].Requests))
		}
	}
	return sum
}

// unfitType is a type of a pool's catalog that its daemonsets' load does
// not fit, kept for the reasons a pod is given.
type unfitType struct {
	t    *instancetypes.InstanceType
	load resources.List
}

// daemonRuns reports whether ds runs where taints are and admits allows
// one of its node-affinity alternatives: it tolerates the taints
// (PreferNoSchedule aside) and admits holds for some alternative. A pool's
// type admits one compatible with the pool and the type (see daemonLoad),
// a node one its labels match (see static.pendingDaemons).
func daemonRuns(ds *DaemonSet, taints []requirements.Taint, admits func(alt requirements.Set) bool) bool {
	return requirements.Tolerates(tolerateSoft(ds.Tolerations), taints) == nil && slices.ContainsFunc(ds.NodeAffinity.Alternatives(), admits)
}

// tolerateSoft returns tols with a toleration of every PreferNoSchedule
// taint added, in a new slice when it appends: tols is not modified.
func tolerateSoft(tols []requirements.Toleration) []requirements.Toleration {
	return append(slices.Clip(tols), requirements.Toleration{Operator: requirements.TolerateExists, Effect: requirements.PreferNoSchedule})
}

// indexes returns 0, 1, …, n-1: the identity order that a sort of indexes
// starts from.
func indexes(n int) []int {
	idx := make([]int, n)
	for i := range idx {
		idx[i] = i
	}
	return idx
}

// podRequests is a pod's requests with the one pod slot it takes.
func podRequests(r resources.List) resources.List {
	if r.Pods == 0 {
		r.Pods = 1
	}
	return r
}

func hasSoftTaints(p *Problem) bool {
	soft := func(ts []requirements.Taint) bool {
		return slices.ContainsFunc(ts, func(t requirements.Taint) bool { return t.Effect == requirements.PreferNoSchedule })
	}
	for i := range p.NodePools {
		if soft(p.NodePools[i].Taints) {
			return true
		}
	}
	for i := range p.Nodes {
		if soft(p.Nodes[i].Taints) {
			return true
		}
	}
	return false
}

// ffdOrder sorts pod indexes first-fit-decreasing: by size (see
// cmpSize), then creation time and uid ascending, as Karpenter's queue,
// then namespace, name and input position. The order is total.
func ffdOrder(pods []Pod, byPriority bool) []int {
	idx := indexes(len(pods))
	slices.SortStableFunc(idx, func(a, b int) int {
		pa, pb := &pods[a], &pods[b]
		return cmp.Or(cmpSize(pa, pb, byPriority),
			pa.CreationTime.Compare(pb.CreationTime),
			strings.Compare(pa.UID, pb.UID),
			strings.Compare(pa.Namespace, pb.Namespace),
			strings.Compare(pa.Name, pb.Name))
	})
	return idx
}

// cmpSize orders pods larger first: priority (when asked), cpu, memory,
// then the other resources, all descending. Pods it finds equal are the
// ties a restart may reorder.
func cmpSize(pa, pb *Pod, byPriority bool) int {
	c := 0
	if byPriority {
		c = cmp.Compare(pb.Priority, pa.Priority)
	}
	return cmp.Or(c,
		cmp.Compare(pb.Requests.CPU, pa.Requests.CPU),
		cmp.Compare(pb.Requests.Memory, pa.Requests.Memory),
		pb.Requests.Compare(pa.Requests))
}

// sizeRuns returns the [start, end) bounds, in order, of the runs of two or
// more pods of equal size.
func sizeRuns(pods []Pod, order []int, byPriority bool) [][2]int {
	var runs [][2]int
	for i := 0; i < len(order); {
		j := i + 1
		for j < len(order) && cmpSize(&pods[order[i]], &pods[order[j]], byPriority) == 0 {
			j++
		}
		if j-i > 1 {
			runs = append(runs, [2]int{i, j})
		}
		i = j
	}
	return runs
}
