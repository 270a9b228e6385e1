package bound

import (
	"cmp"
	"fmt"
	"maps"
	"math"
	"math/bits"
	"slices"
	"strings"

	"github.com/nodeplan/nodeplan/packing"
	"github.com/nodeplan/nodeplan/resources"
)

// model is the configuration LP's data: the classes (merged on the grid),
// the columns (one per pool, type and set of admitted rules, at the
// cheapest such offering) and the existing nodes.
type model struct {
	names  []resources.Name // the dimensions some class requests
	count  []float64        // per class: its pods
	req    [][]int64        // per class, per dimension: its request
	group  []int            // per class: its dense anti-affinity group, -1 none
	rules  []int            // per class: its placement rules (packing.Class.Rules)
	groups int
	cols   []column
	nodes  []room
	pools  []poolVars
	nz     int            // limit variables, all pools
	sets   [][]bool       // per distinct class list of a room: which classes it admits
	setIdx map[string]int // sets by their class list
	pods   int            // pods the classes hold
	of     []int          // per packing class: the (merged) class it is in, -1 when left out
	skip   int            // pods of the input set no room admits
	single []float64
}

// column is a node configuration family: a type of a pool at the price of
// its cheapest offering admitting classes.
type column struct {
	pool  int
	typ   string
	price float64
	room
	use []float64 // per limit variable of its pool: its scaled capacity
}

// room is a node's capacity and the classes it admits (sorted, and as a
// mask: model.sets[set]).
type room struct {
	alloc   []int64
	classes []int32
	set     int
}

// intern returns the index of classes' mask in m.sets, adding it.
func (m *model) intern(classes []int32) int {
	key := fmt.Sprint(classes)
	if i, ok := m.setIdx[key]; ok {
		return i
	}
	mask := make([]bool, len(m.count))
	for _, k := range classes {
		mask[k] = true
	}
	if m.setIdx == nil {
		m.setIdx = map[string]int{}
	}
	m.setIdx[key] = len(m.sets)
	m.sets = append(m.sets, mask)
	return len(m.sets) - 1
}

// poolVars are a pool's limit variables: their first index, and per
// variable its scaled right-hand side (what the limit leaves, divided by
// the largest capacity a column charges it, so that coefficients are ≤ 1).
type poolVars struct {
	first int
	rhs   []float64
	scale []float64
	names []resources.Name // "nodes" for the node count
}

// build makes the model of the pods with include[i] (all when nil).
func build(c *packing.Classes, include []bool, o Options) model {
	var m model
	counts := make([]int, len(c.Classes))
	for k, cl := range c.Classes {
		for _, i := range cl.Pods {
			if include == nil || include[i] {
				counts[k]++
			}
		}
	}
	m.names = dimensions(c, counts)
	admitted := anyRoom(c)
	keep := make([]int, 0, len(c.Classes))
	for k, n := range counts {
		switch {
		case n == 0:
		case !admitted[c.Classes[k].Rules] || !fitsSomewhere(c, k, m.names):
			m.skip += n
		default:
			keep = append(keep, k)
		}
	}
	merged := m.merge(c, keep, counts, o.maxClasses())
	m.columns(c, merged)
	m.existing(c, merged)
	m.clampExisting()
	return m
}

// clampExisting caps each class no column holds a pod of at what the
// existing nodes admitting it hold (each alone): no plan places more, so
// the rest count as unplaceable; otherwise the LP would be infeasible
// and its dual held only by the seed's cap.
func (m *model) clampExisting() {
	p := newPricer(m, make([]float64, len(m.count)), 0, new(int))
	for k := range m.count {
		if slices.ContainsFunc(m.cols, func(c column) bool { return m.sets[c.set][k] && m.fitsOne(int32(k), c.alloc) }) {
			continue
		}
		held := 0.0
		for _, n := range m.nodes {
			if m.sets[n.set][k] {
				held += float64(p.fit(int32(k), n.alloc))
			}
		}
		if held < m.count[k] {
			drop := int(m.count[k] - held)
			m.count[k] -= float64(drop)
			m.skip += drop
			m.pods -= drop
		}
	}
}

// dimensions are cpu, memory, ephemeral storage and pods, then the
// extended resources some counted class requests, by name.
func dimensions(c *packing.Classes, counts []int) []resources.Name {
	names := []resources.Name{resources.CPU, resources.Memory, resources.EphemeralStorage, resources.Pods}
	ext := map[resources.Name]bool{}
	for k, cl := range c.Classes {
		if counts[k] == 0 {
			continue
		}
		for n, v := range cl.Requests.Extended() {
			ext[n] = ext[n] || v > 0
		}
	}
	for _, n := range slices.Sorted(maps.Keys(ext)) {
		names = append(names, n)
	}
	return names
}

// anyRoom reports, per placement rules, whether some offer or node admits
// them.
func anyRoom(c *packing.Classes) []bool {
	out := make([]bool, c.Rules())
	for r := range out {
		for pl, room := range c.Pools {
			for o := range room.Offers {
				out[r] = out[r] || room.NodesLeft > 0 && c.Admits(r, pl, o)
			}
		}
		for n := range c.Nodes {
			out[r] = out[r] || c.AdmitsNode(r, n)
		}
	}
	return out
}

// fitsSomewhere reports whether one pod of class k fits some admitting
// offer's type within its pool's limits, or node.
func fitsSomewhere(c *packing.Classes, k int, names []resources.Name) bool {
	cl := c.Classes[k]
	for pl, room := range c.Pools {
		for o, off := range room.Offers {
			tr := room.Types[off.Type]
			if room.NodesLeft > 0 && c.Admits(cl.Rules, pl, o) && withinLimits(room, tr) && cl.Requests.Fits(tr.Alloc) {
				return true
			}
		}
	}
	for n, nd := range c.Nodes {
		if c.AdmitsNode(cl.Rules, n) && cl.Requests.Fits(nd.Free) {
			return true
		}
	}
	return false
}

// mergedClass is a class of the model: input classes of equal rules and
// group whose requests round down to the same grid point.
type mergedClass struct {
	rules, group int
	req          []int64
}

// merge groups the kept classes on the finest grid that leaves at most
// limit classes (exact requests when they are few enough): cpu, memory
// and ephemeral storage rounded down to their leading bits significant
// bits. Rounding down only shrinks pods, so the bound stays a bound.
func (m *model) merge(c *packing.Classes, keep, counts []int, limit int) []mergedClass {
	var out []mergedClass
	for sig := 64; sig >= 1; sig-- {
		out = m.mergeAt(c, keep, counts, sig)
		if len(out) <= limit || sig == 1 {
			break
		}
		if sig == 64 {
			sig = 17 // next try 16 bits
		}
	}
	return out
}

// mergeAt merges on the grid of sig significant bits, filling m's class
// fields.
func (m *model) mergeAt(c *packing.Classes, keep, counts []int, sig int) []mergedClass {
	m.count, m.req, m.group, m.rules, m.pods = nil, nil, nil, nil, 0
	m.of = make([]int, len(c.Classes))
	for k := range m.of {
		m.of[k] = -1
	}
	groups := map[int]int{}
	index := map[string]int{}
	var out []mergedClass
	for _, k := range keep {
		cl := c.Classes[k]
		req := make([]int64, len(m.names))
		for d, n := range m.names {
			req[d] = roundDown(cl.Requests.Get(n), d, sig)
		}
		key := fmt.Sprint(cl.Rules, cl.Group, req)
		j, ok := index[key]
		if !ok {
			j = len(out)
			index[key] = j
			out = append(out, mergedClass{rules: cl.Rules, group: cl.Group, req: req})
			m.count, m.req, m.rules = append(m.count, 0), append(m.req, req), append(m.rules, cl.Rules)
			m.group = append(m.group, denseGroup(groups, cl.Group))
		}
		m.count[j] += float64(counts[k])
		m.pods += counts[k]
		m.of[k] = j
	}
	m.groups = len(groups)
	return out
}

// classPods lists, per class of the model, the pods of its input classes
// that include admits (all when nil), ascending.
func (m *model) classPods(c *packing.Classes, include []bool) [][]int {
	out := make([][]int, len(m.count))
	for k, j := range m.of {
		if j < 0 {
			continue
		}
		for _, i := range c.Classes[k].Pods {
			if include == nil || include[i] {
				out[j] = append(out[j], i)
			}
		}
	}
	for _, pods := range out {
		slices.Sort(pods)
	}
	return out
}

func denseGroup(groups map[int]int, g int) int {
	if g < 0 {
		return -1
	}
	if d, ok := groups[g]; ok {
		return d
	}
	groups[g] = len(groups)
	return groups[g]
}

// roundDown keeps the sig leading bits of v for the dimensions the grid
// rounds (cpu, memory, ephemeral storage: d < 3); pods and extended
// resources stay exact.
func roundDown(v int64, d, sig int) int64 {
	if d >= 3 || v <= 0 || sig >= 63 {
		return v
	}
	drop := bits.Len64(uint64(v)) - sig
	if drop <= 0 {
		return v
	}
	return v >> drop << drop
}

// columns lists, per pool that may launch a node, per type that fits
// within the pool's limits, one column per set of admitted rules at its
// cheapest offering, dropping those another column dominates.
func (m *model) columns(c *packing.Classes, merged []mergedClass) {
	byRules := classesByRules(merged, c.Rules())
	for pl, pr := range c.Pools {
		pv := m.poolVars(pr)
		m.pools = append(m.pools, pv)
		if pr.NodesLeft <= 0 {
			continue
		}
		var cols []column
		for t, tr := range pr.Types {
			if use, ok := limitUse(pr, pv, tr); ok {
				cols = append(cols, m.typeColumns(c, pl, t, byRules, use)...)
			}
		}
		m.cols = append(m.cols, undominated(cols)...)
	}
}

// poolVars allots the pool's limit variables: one per limited resource
// and one for "nodes" when limited.
func (m *model) poolVars(pr packing.PoolRoom) poolVars {
	pv := poolVars{first: m.nz}
	for _, lim := range pr.Limits {
		scale := 0.0
		for _, tr := range pr.Types {
			scale = max(scale, float64(tr.Capacity.Get(lim.Name)))
		}
		if scale == 0 {
			continue // no type uses the resource: the limit binds nothing
		}
		pv.names, pv.scale = append(pv.names, lim.Name), append(pv.scale, scale)
		pv.rhs = append(pv.rhs, float64(max(lim.Value, 0))/scale)
	}
	if pr.NodesLeft < math.MaxInt64 && pr.NodesLeft > 0 {
		pv.names, pv.scale = append(pv.names, packing.LimitNodes), append(pv.scale, 1)
		pv.rhs = append(pv.rhs, float64(pr.NodesLeft))
	}
	m.nz += len(pv.rhs)
	return pv
}

// limitUse is what one node of type tr charges each limit variable,
// scaled; false when one node alone exceeds a limit.
func limitUse(pr packing.PoolRoom, pv poolVars, tr packing.TypeRoom) ([]float64, bool) {
	if !withinLimits(pr, tr) {
		return nil, false
	}
	use := make([]float64, len(pv.rhs))
	for i, n := range pv.names {
		if n == packing.LimitNodes {
			use[i] = 1
			continue
		}
		use[i] = float64(tr.Capacity.Get(n)) / pv.scale[i]
	}
	return use, true
}

// withinLimits reports whether one node of type tr fits what pr's limits
// leave, in integers as packing charges them (a capacity equal to what is
// left fits).
func withinLimits(pr packing.PoolRoom, tr packing.TypeRoom) bool {
	for _, lim := range pr.Limits {
		if tr.Capacity.Get(lim.Name) > max(lim.Value, 0) {
			return false
		}
	}
	return true
}

// classesByRules lists the merged classes of each placement rules.
func classesByRules(merged []mergedClass, rules int) [][]int32 {
	out := make([][]int32, rules)
	for k, mc := range merged {
		out[mc.rules] = append(out[mc.rules], int32(k))
	}
	return out
}

// typeColumns are the columns of type t of pool pl: its offerings grouped
// by the rules they admit, each at its cheapest.
func (m *model) typeColumns(c *packing.Classes, pl, t int, byRules [][]int32, use []float64) []column {
	pr := c.Pools[pl]
	alloc := make([]int64, len(m.names))
	for d, n := range m.names {
		alloc[d] = pr.Types[t].Alloc.Get(n)
	}
	best := map[string]int{}
	var out []column
	for o, off := range pr.Offers {
		if off.Type != t {
			continue
		}
		var key strings.Builder
		var classes []int32
		for r := range byRules {
			if len(byRules[r]) > 0 && c.Admits(r, pl, o) {
				fmt.Fprintf(&key, "%d,", r)
				classes = append(classes, byRules[r]...)
			}
		}
		if len(classes) == 0 {
			continue
		}
		price := off.Price.Dollars()
		if i, ok := best[key.String()]; ok {
			out[i].price = min(out[i].price, price)
			continue
		}
		best[key.String()] = len(out)
		slices.Sort(classes)
		out = append(out, column{pool: pl, typ: pr.Types[t].Name, price: price, room: room{alloc: alloc, classes: classes, set: m.intern(classes)}, use: use})
	}
	return out
}

// undominated drops the columns of one pool another column of it
// dominates: it admits the same classes, costs no more, has at least the
// room in every dimension and charges no more to any limit. A dominated
// column's constraint in the dual is implied by its dominator's, so the
// bound does not change. Ties keep the first.
func undominated(cols []column) []column {
	slices.SortStableFunc(cols, func(a, b column) int { return cmp.Compare(a.price, b.price) })
	var out []column
	for _, c := range cols {
		if !slices.ContainsFunc(out, func(k column) bool { return dominates(k, c) }) {
			out = append(out, c)
		}
	}
	return out
}

func dominates(a, b column) bool {
	if a.price > b.price || a.set != b.set {
		return false
	}
	for d, v := range a.alloc {
		if v < b.alloc[d] {
			return false
		}
	}
	for i, v := range a.use {
		if v > b.use[i] {
			return false
		}
	}
	return true
}

// existing adds the existing nodes that admit some class as free rooms.
func (m *model) existing(c *packing.Classes, merged []mergedClass) {
	byRules := classesByRules(merged, c.Rules())
	for n, nd := range c.Nodes {
		var classes []int32
		for r := range byRules {
			if c.AdmitsNode(r, n) {
				classes = append(classes, byRules[r]...)
			}
		}
		if len(classes) == 0 {
			continue
		}
		slices.Sort(classes)
		alloc := make([]int64, len(m.names))
		for d, name := range m.names {
			alloc[d] = nd.Free.Get(name)
		}
		m.nodes = append(m.nodes, room{alloc: alloc, classes: classes, set: m.intern(classes)})
	}
}
