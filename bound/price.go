package bound

import (
	"cmp"
	"math"
	"slices"
)

// pricer prices rooms under a dual vector y: what the pods one node
// holds are worth at y (the knapsack of column generation), exactly by
// branch and bound or as an upper bound.
type pricer struct {
	m     *model
	y     []float64
	order [][]int32 // per dimension: the classes with y > 0, by y per unit desc
	nodes int       // branch-and-bound node budget per call
	work  *int      // branch-and-bound nodes left for the whole column generation
	box   boxLP     // the relaxations' tableau (relax.go), reused call after call
}

func newPricer(m *model, y []float64, nodes int, work *int) *pricer {
	p := &pricer{m: m, y: y, nodes: nodes, work: work, order: make([][]int32, len(m.names))}
	var pos []int32
	for k, v := range y {
		if v > 0 {
			pos = append(pos, int32(k))
		}
	}
	for d := range m.names {
		o := slices.Clone(pos)
		slices.SortStableFunc(o, func(a, b int32) int { return cmp.Compare(p.ratio(b, d), p.ratio(a, d)) })
		p.order[d] = o
	}
	return p
}

// ratio is class k's dual value per unit of dimension d, +Inf when it
// requests none.
func (p *pricer) ratio(k int32, d int) float64 {
	if r := p.m.req[k][d]; r > 0 {
		return p.y[k] / float64(r)
	}
	return math.Inf(1)
}

// fit is how many pods of class k one room of alloc holds alone, at most
// the class's count, and one for a class in an anti-affinity group.
func (p *pricer) fit(k int32, alloc []int64) int64 {
	n := int64(p.m.count[k])
	if p.m.group[k] >= 0 {
		n = 1
	}
	return min(n, p.m.holds(k, alloc))
}

// upper is an upper bound on what room r's pods are worth at y: the least
// over dimensions of the fractional knapsack on that dimension alone over
// the classes in no group, plus, per group, its best member. Each term
// bounds the integer optimum from above, which is all the certificate
// needs. O(dimensions × classes).
func (p *pricer) upper(r *room, admits []bool) float64 {
	var groups float64
	if p.m.groups > 0 {
		best := make([]float64, p.m.groups)
		for _, k := range p.order[0] {
			if g := p.m.group[k]; g >= 0 && admits[k] && p.fit(k, r.alloc) > 0 {
				best[g] = max(best[g], p.y[k])
			}
		}
		for _, v := range best {
			groups += v
		}
	}
	bound := math.Inf(1)
	for d := range p.m.names {
		bound = min(bound, p.fractional(r, admits, d))
	}
	return bound + groups
}

// fractional is the fractional knapsack of the ungrouped classes on
// dimension d of room r.
func (p *pricer) fractional(r *room, admits []bool, d int) float64 {
	capacity, v := float64(r.alloc[d]), 0.0
	for _, k := range p.order[d] {
		if p.m.group[k] >= 0 || !admits[k] {
			continue
		}
		n := float64(p.fit(k, r.alloc))
		if n == 0 {
			continue
		}
		if req := float64(p.m.req[k][d]); req > 0 {
			if capacity <= 0 {
				break // the rest all need some: classes needing none come first
			}
			n = min(n, capacity/req)
			capacity -= n * req
		}
		v += n * p.y[k]
	}
	return v
}

// item is a class in a branch and bound and its fit: how many pods of
// it the room holds alone.
type item struct {
	k   int32
	fit int64
}

// search is one branch and bound over a room's classes.
type search struct {
	p       *pricer
	items   []item
	byDim   [][]int // per dimension: the item indices by dual per unit of it, desc
	left    []int64 // room left per dimension
	used    []bool
	counts  []int64
	best    float64
	pattern []int64
	budget  int
	// l's λ bound every subproblem too (see lagrange): net is, per item,
	// its dual less λ's charge for its requests; gain is scratch, per
	// group, its best member's net.
	l    *lagrange
	net  []float64
	gain []float64
}

// exact is the most room r's pods are worth at y and the counts per
// class (aligned with r.classes) reaching it, starting from the pattern
// start (worth from); exact is false when the node budget ran out, and
// then value is only the best found.
func (p *pricer) exact(r *room, admits []bool, start []int64, from float64, l *lagrange) (value float64, pattern []int64, exact bool) {
	budget := min(p.nodes, *p.work)
	if budget <= 0 {
		return from, start, false
	}
	s := &search{p: p, left: slices.Clone(r.alloc), used: make([]bool, p.m.groups), budget: budget, l: l}
	defer func() { *p.work -= budget - s.budget }()
	for _, k := range r.classes {
		if p.y[k] > 0 && admits[k] {
			if n := p.fit(k, r.alloc); n > 0 {
				s.items = append(s.items, item{k: k, fit: n})
			}
		}
	}
	slices.SortStableFunc(s.items, func(a, b item) int { return cmp.Compare(s.density(b, r), s.density(a, r)) })
	s.prepare()
	s.counts = make([]int64, len(s.items))
	s.pattern = make([]int64, len(s.items))
	s.best = from
	s.dfs(0, 0)
	if s.best == from {
		return from, start, s.budget > 0
	}
	out := make([]int64, len(r.classes))
	for i, it := range s.items {
		j, _ := slices.BinarySearch(r.classes, it.k)
		out[j] = s.pattern[i]
	}
	return s.best, out, s.budget > 0
}

// density is an item's dual value over its largest share of the room.
func (s *search) density(it item, r *room) float64 {
	share := 0.0
	for d, req := range s.p.m.req[it.k] {
		if r.alloc[d] > 0 {
			share = max(share, float64(req)/float64(r.alloc[d]))
		}
	}
	return s.p.y[it.k] / max(share, 1e-12)
}

// prepare compiles what bound reads: per item index the Lagrangian
// reductions from it on, and per dimension the items by dual per unit.
func (s *search) prepare() {
	s.net = make([]float64, len(s.items))
	for i, it := range s.items {
		s.net[i] = s.p.y[it.k]
		for d, req := range s.p.m.req[it.k] {
			s.net[i] -= s.l.lambda[d] * float64(req)
		}
	}
	s.gain = make([]float64, s.p.m.groups)
	s.byDim = make([][]int, len(s.p.m.names))
	for d := range s.byDim {
		o := make([]int, len(s.items))
		for i := range o {
			o[i] = i
		}
		slices.SortStableFunc(o, func(a, b int) int {
			return cmp.Compare(s.p.ratio(s.items[b].k, d), s.p.ratio(s.items[a].k, d))
		})
		s.byDim[d] = o
	}
}

// bound is an upper bound on what items i… add within the room left: the
// Lagrangian bound at l's multipliers and, while that is above need (what
// the items must add to beat the best pattern), the least of the
// fractional knapsacks on one dimension each.
func (s *search) bound(i int, need float64) float64 {
	b := s.lagrangian(i)
	for d, order := range s.byDim {
		if b <= need {
			break
		}
		b = min(b, s.fractional(i, d, order, b))
	}
	return b
}

// lagrangian is the Lagrangian bound at l's λ of the subproblem from
// item i on within the room left: Σ_d λ_d·left_d, plus each ungrouped
// item's net value (when positive) times as many as still fit, plus per
// group not yet used its best member's net value among those that still
// fit. Any λ ≥ 0 bounds any subproblem, and the group's at-most-one
// constraint, kept rather than relaxed, bounds its members by their best.
func (s *search) lagrangian(i int) float64 {
	b := 0.0
	for d, x := range s.l.lambda {
		b += x * float64(s.left[d])
	}
	clear(s.gain)
	for j := i; j < len(s.items); j++ {
		v := s.net[j]
		if v <= 0 {
			continue
		}
		n := s.most(s.items[j])
		if n == 0 {
			continue
		}
		if g := s.p.m.group[s.items[j].k]; g >= 0 {
			s.gain[g] = max(s.gain[g], v)
			continue
		}
		b += float64(n) * v
	}
	for _, v := range s.gain {
		b += v
	}
	return b
}

// fractional is the fractional knapsack, on dimension d alone, of items
// i… (each at most its fit, groups ignored) within the room left, by
// order (the items by dual per unit of d); it stops once it reaches cut.
func (s *search) fractional(i, d int, order []int, cut float64) float64 {
	capacity, v := float64(s.left[d]), 0.0
	for _, j := range order {
		if j < i {
			continue
		}
		it := s.items[j]
		n := float64(it.fit)
		if req := float64(s.p.m.req[it.k][d]); req > 0 {
			if capacity <= 0 {
				break
			}
			n = min(n, capacity/req)
			capacity -= n * req
		}
		if v += n * s.p.y[it.k]; v >= cut {
			break
		}
	}
	return v
}

func (s *search) dfs(i int, value float64) {
	if value > s.best {
		s.best = value
		copy(s.pattern, s.counts)
	}
	if i == len(s.items) || s.budget <= 0 || s.bound(i, s.best-value) <= s.best-value {
		return
	}
	s.budget--
	it := s.items[i]
	n := s.most(it)
	g := s.p.m.group[it.k]
	for c := n; c >= 0; c-- {
		s.take(it.k, c)
		if g >= 0 && c > 0 {
			s.used[g] = true
		}
		s.counts[i] = c
		s.dfs(i+1, value+float64(c)*s.p.y[it.k])
		if g >= 0 && c > 0 {
			s.used[g] = false
		}
		s.take(it.k, -c)
		if s.budget <= 0 {
			break
		}
	}
	s.counts[i] = 0
}

// most is how many pods of the item the room left holds.
func (s *search) most(it item) int64 {
	if g := s.p.m.group[it.k]; g >= 0 && s.used[g] {
		return 0
	}
	n := it.fit
	for d, r := range s.p.m.req[it.k] {
		if r > 0 {
			n = min(n, s.left[d]/r)
		}
	}
	return n
}

func (s *search) take(k int32, c int64) {
	for d, r := range s.p.m.req[k] {
		s.left[d] -= c * r
	}
}
