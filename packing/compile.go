package packing

import (
	"context"
	"slices"
	"sync/atomic"

	"github.com/nodeplan/nodeplan/internal/parallel"
	"github.com/nodeplan/nodeplan/internal/vouch"
	"github.com/nodeplan/nodeplan/requirements"
)

// static is what every run of one Solve shares, read-only: the pools with
// their instance types, the compiled pods, the nodes' labels and the
// topology counters. compile writes it before any run starts, each group
// of fields by the file named beside it; after that only failed changes.
type static struct {
	// The problem and its options (compile.go).
	prob *Problem
	opts Options
	// restarts and shuffles are opts.restarts and opts.shuffles of prob,
	// counted once (search.go).
	restarts, shuffles int
	// The compiled pools, ordered by weight (pools.go: compilePools).
	pools []*pool
	// The compiled pods and the topology counters their constraints define;
	// counterIndex finds a counter by its signature (pods.go: compilePods,
	// compileCounters).
	pods         []podInfo
	counters     []counterDef
	counterIndex map[string]int32
	// labels are, per node of prob.Nodes, its nodeLabels, the same in every
	// pass; softTaints, whether some NodePool or node has a
	// PreferNoSchedule taint (compile.go).
	labels     []map[string]string
	softTaints bool
	// rooms are, per node of prob.Nodes, what its own pods take; nodes,
	// the nodes that take pods as every run starts them, in the order
	// runs try them, and nodeFree their free room; tallies and antis, the
	// topology counts the nodes' pods add, and nodeUse the nodes' use of
	// their pools' limits (nodes.go: compileNodes, podRooms).
	rooms []*podsRoom
	nodes []nodeT
	// spare holds the arrays of nodes, nodeFree, pods and compileNodes'
	// order (spare.go).
	spare    *spare
	nodeFree *freeTree
	tallies  []domainCount
	antis    []domainCount
	nodeUse  usage
	// drop are the preferred terms relaxed up front (prefs.go); nil: none.
	drop map[PreferenceTerm]bool
	// domains are, per topology key, its known domains, sorted, and
	// domainTaints, per domain, the taint sets of the nodes and pools that
	// may be in it (domains.go: collectDomains).
	domains      map[string][]string
	domainTaints map[pin][][]requirements.Taint
	// order is the FFD order of pod indexes and equal its runs of pods of
	// equal size (order.go: ffdOrder, sizeRuns); shares, per pod, its share
	// of all cpu and memory requested (order.go: blend).
	order  []int
	equal  [][2]int
	shares [][2]float64
	// ctx and failed stop the solve at its loop boundaries (see halted);
	// hooks are the tests' (the zero hooks but in tests). solve.go writes
	// them: ctx and hooks before the first run, failed when a strategy's
	// search fails.
	ctx    context.Context
	failed atomic.Bool
	// plainFree is set when Plain's search (or one of greedyAtOnce's Plain
	// passes) found a pass that places every pod at no charge (search.go:
	// settled, greedyTasks.run).
	plainFree atomic.Bool
	hooks     hooks
}

// hooks are what tests change in a solve; the zero hooks change nothing.
type hooks struct {
	// fault runs at the start of each of Best's passes.
	fault func(cost bool)
	// noTwins turns off the answers kept for runs of twins (twins.go).
	noTwins bool
	// eagerMinValues asks minValues of every claim that takes the pod
	// otherwise, not only of those whose move is worth taking (see worth).
	eagerMinValues bool
	// sequential makes best search each strategy's passes in turn, on
	// two goroutines, even when it would run them all at once (see
	// greedyAtOnce).
	sequential bool
}

// compile compiles problem p for a solve with options o: the static every
// run of the solve shares.
func compile(p *Problem, o Options) *static { return compileWithout(p, o, vouched{}, nil) }

// compileWithout is compile with the nodes vd names vouched for (their
// labels are their effective labels) and the preferred terms in drop
// relaxed up front, as IgnorePreferences relaxes them all (nil: none).
func compileWithout(p *Problem, o Options, vd vouched, drop map[PreferenceTerm]bool) *static {
	s := &static{prob: p, opts: o, drop: drop, restarts: o.restarts(p), shuffles: o.shuffles(p), spare: takeSpare(vd)}
	s.pools = compilePools(p)
	s.softTaints = hasSoftTaints(p)
	parallel.Both(func() { s.order = ffdOrder(p.Pods, o.PriorityOrder) }, func() {
		s.labels = labelsOf(p.Nodes, vd)
		s.rooms = podRooms(p.Nodes, vd)
		s.compilePods()
		s.compileCounters()
		s.compileNodes()
		s.domains = s.collectDomains()
		for _, pl := range s.pools {
			pinBits(pl, s.domains)
		}
	})
	takeNames(s.pools, p.Nodes, s.labels)
	s.equal = sizeRuns(p.Pods, s.order, o.PriorityOrder)
	s.blend()
	return s
}

// vouched is what a vouch.Nodes says of the nodes of one problem: ids
// holds, per node, its index in v (see vouch.Nodes.Index) or -1 when v
// does not vouch for it; nil when v vouches for none. The zero vouched
// vouches for no node.
type vouched struct {
	v   vouch.Nodes
	ids []int
}

// vouchFor looks p's nodes up in v, once for the solve.
func vouchFor(p *Problem, v vouch.Nodes) vouched {
	if v.Len() == 0 {
		return vouched{v: v}
	}
	ids := make([]int, len(p.Nodes))
	for i := range p.Nodes {
		if k, ok := v.Index(p.Nodes[i].Name); ok {
			ids[i] = k
		} else {
			ids[i] = -1
		}
	}
	return vouched{v: v, ids: ids}
}

// at returns the vouch index of node i and whether it is vouched for.
func (vd vouched) at(i int) (int, bool) {
	if vd.ids == nil || vd.ids[i] < 0 {
		return 0, false
	}
	return vd.ids[i], true
}

// labelsOf returns the labels of each node (see nodeLabels), by index,
// for every pass of a solve to read: computed once, as a node's labels do
// not change between passes. Some are the nodes' own maps: read-only. A
// node vd vouches for has its effective labels already (see package
// vouch): they are not checked again.
func labelsOf(nodes []Node, vd vouched) []map[string]string {
	out := make([]map[string]string, len(nodes))
	for i := range nodes {
		if _, ok := vd.at(i); ok {
			out[i] = nodes[i].Labels
			continue
		}
		out[i] = nodeLabels(&nodes[i])
	}
	return out
}

// indexes returns 0, 1, …, n-1: the identity order that a sort of indexes
// starts from.
func indexes(n int) []int { return identity(make([]int, n)) }

// identity sets idx to 0, 1, …, len(idx)-1 and returns it.
func identity(idx []int) []int {
	for i := range idx {
		idx[i] = i
	}
	return idx
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
