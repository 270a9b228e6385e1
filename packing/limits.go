package packing

import (
	"math"
	"slices"

	"github.com/nodeplan/nodeplan/resources"
)

// usage is a run's NodePool use, per pool: the capacity its nodes and
// claims commit in each of the pool's limited resources (pool.limits, in
// that order), every claim counted at its current cheapest type, and how
// many nodes and claims it has. Only the methods in this file change it;
// the zero usage is unusable (see newUsage).
type usage struct {
	committed [][]int64 // per pool: capacity committed in each limited resource
	nodes     []int64   // per pool: existing nodes and claims
}

// newUsage is the use of pools before any node is counted.
func newUsage(pools []*pool) usage {
	u := usage{committed: make([][]int64, len(pools)), nodes: make([]int64, len(pools))}
	for pi, pl := range pools {
		u.committed[pi] = make([]int64, len(pl.limits))
	}
	return u
}

// countNode counts an existing node of s against its pool's limits, with
// its capacity (see nodeCapacity).
func (u *usage) countNode(s *static, n *Node) {
	for pi, pl := range s.pools {
		if pl.np.Name == n.NodePool {
			u.addNode(pi, pl, s.nodeCapacity(n, pl))
		}
	}
}

// addNode counts a node of pool pl (index pi) with this capacity.
func (u *usage) addNode(pi int, pl *pool, capacity resources.List) {
	for i, lim := range pl.limits {
		// Clamped above every limit, so that the sums of a few
		// capacities the solver adds to it never overflow.
		u.committed[pi][i] = min(u.committed[pi][i]+capacity.Get(lim.Name), MaxLimit+1)
	}
	u.nodes[pi]++
}

// clone returns a copy of u that shares no counter with it.
func (u *usage) clone() usage {
	c := usage{committed: make([][]int64, len(u.committed)), nodes: slices.Clone(u.nodes)}
	for pi, used := range u.committed {
		c.committed[pi] = slices.Clone(used)
	}
	return c
}

// nodeCapacity is what a node counts against its pool's limits: the
// capacity of its instance type when the pool's catalog knows it, else its
// allocatable.
func (s *static) nodeCapacity(n *Node, pl *pool) resources.List {
	if t, ok := s.prob.PoolCatalog(pl.np).Get(n.InstanceType); ok {
		return t.Capacity
	}
	return n.Allocatable
}

// open counts a new claim of pool pi as a node; its capacity is charged
// when it takes a type (see charge).
func (u *usage) open(pi int) { u.nodes[pi]++ }

// charge moves a claim of pool pl (index pi) from type from, the type it
// is counted at (untyped for a claim without pods), to type to. It takes the
// types, not the claim, so that it does not matter whether the claim has
// changed type yet: the caller passes what claim.grow returns, or, in
// settle, the type the claim is counted at.
func (u *usage) charge(pi int, pl *pool, from, to int) {
	used := u.committed[pi]
	for i := range used {
		if from != untyped {
			used[i] -= pl.capLim[from][i]
		}
		used[i] += pl.capLim[to][i]
	}
}

// join counts one claim of pool pl (index pi) at type to in place of two,
// counted at types a and b, with one node fewer: the use once merge has
// joined one claim into the other (the types claim.absorb returns). Both
// claims have pods, so both types are set.
func (u *usage) join(pi int, pl *pool, a, b, to int) {
	u.charge(pi, pl, a, to)
	u.close(pi, pl, b)
}

// close counts one claim of pool pl (index pi), counted at type t, no
// more: merge joined it into another, or refill placed its pods elsewhere.
func (u *usage) close(pi int, pl *pool, t int) {
	for i, capT := range pl.capLim[t] {
		u.committed[pi][i] -= capT
	}
	u.nodes[pi]--
}

// nodesLeft is how many more nodes the "nodes" limit of pool pl (index pi)
// allows: none when it is unavailable.
func (u *usage) nodesLeft(pi int, pl *pool) int64 {
	np := pl.np
	lim, ok := np.Limits[LimitNodes]
	switch {
	case np.Unavailable != "":
		return 0
	case !ok:
		return math.MaxInt64
	}
	return lim - u.nodes[pi]
}

// within reports whether c may be of type t under its pool's limits,
// counting every other claim at its current cheapest type.
func (u *usage) within(c *claim, t int) bool {
	pl := c.pl
	if len(pl.limits) == 0 {
		return true
	}
	used, capT := u.committed[c.pi], pl.capLim[t]
	for i, lim := range pl.limits {
		v := used[i] + capT[i]
		if c.typed() {
			v -= pl.capLim[c.cheap][i]
		}
		if v > lim.Value {
			return false
		}
	}
	return true
}

// slack reports whether every type of c's pool is within the pool's
// limits for c, so that no type needs checking one by one.
func (u *usage) slack(c *claim) bool {
	pl := c.pl
	for i, lim := range pl.limits {
		v := u.committed[c.pi][i] + pl.maxCapLim[i]
		if c.typed() {
			v -= pl.capLim[c.cheap][i]
		}
		if v > lim.Value {
			return false
		}
	}
	return true
}

// slackAfter reports whether a's pool's limits stay slack once a, at type
// t, replaces a and b. Both are typed: merge takes only the run's claims,
// each of which holds a pod.
func (u *usage) slackAfter(a, b *claim, t int) bool {
	pl := a.pl
	for i, lim := range pl.limits {
		v := u.committed[a.pi][i] - pl.capLim[a.cheap][i] - pl.capLim[b.cheap][i] + pl.capLim[t][i] + pl.maxCapLim[i]
		if v > lim.Value {
			return false
		}
	}
	return true
}

// anyWithin reports whether some type compat lists, of pool pl (index
// pi), holds need within the pool's limits as a new claim.
func (u *usage) anyWithin(pl *pool, pi int, compat interface{ Next(int) int }, need resources.List) bool {
	c := emptyClaim(pl, pi)
	for t := compat.Next(0); t >= 0; t = compat.Next(t + 1) {
		if need.Fits(pl.alloc[t]) && u.within(&c, t) {
			return true
		}
	}
	return false
}

// compileLimits lists the pool's limits but "nodes", by name, and each
// type's capacity in them.
func (pl *pool) compileLimits() {
	for _, name := range resources.SortedNames(pl.np.Limits) {
		if name != LimitNodes {
			pl.limits = append(pl.limits, resources.Amount{Name: name, Value: pl.np.Limits[name]})
		}
	}
	pl.capLim = make([][]int64, len(pl.types))
	for t, it := range pl.types {
		for _, lim := range pl.limits {
			pl.capLim[t] = append(pl.capLim[t], it.Capacity.Get(lim.Name))
		}
	}
	pl.maxCapLim = make([]int64, len(pl.limits))
	for _, caps := range pl.capLim {
		for i, v := range caps {
			pl.maxCapLim[i] = max(pl.maxCapLim[i], v)
		}
	}
}
