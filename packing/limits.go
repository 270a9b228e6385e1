package packing

import (
	"math"

	"github.com/nodeplan/nodeplan/resources"
)

// nodesLeft is how many more nodes the pool's "nodes" limit allows: none
// when it is unavailable.
func (r *run) nodesLeft(pi int) int64 {
	np := r.s.pools[pi].np
	lim, ok := np.Limits[LimitNodes]
	switch {
	case np.Unavailable != "":
		return 0
	case !ok:
		return math.MaxInt64
	}
	return lim - r.count[pi]
}

// withinLimits reports whether c may be of type t under its pool's limits,
// counting every other claim at its current cheapest type.
func (r *run) withinLimits(c *claim, t int) bool {
	pl := c.pl
	if len(pl.limits) == 0 {
		return true
	}
	used, capT := r.usedLim[c.pi], pl.capLim[t]
	for i, lim := range pl.limits {
		u := used[i] + capT[i]
		if c.cheap >= 0 {
			u -= pl.capLim[c.cheap][i]
		}
		if u > lim.Value {
			return false
		}
	}
	return true
}

func (r *run) chargeLimits(c *claim, cheap int) {
	used := r.usedLim[c.pi]
	for i := range used {
		if c.cheap >= 0 {
			used[i] -= c.pl.capLim[c.cheap][i]
		}
		used[i] += c.pl.capLim[cheap][i]
	}
}

// limitsSlack reports whether every type of c's pool is within the pool's
// limits for c, so that no type needs checking one by one.
func (r *run) limitsSlack(c *claim) bool {
	pl := c.pl
	for i, lim := range pl.limits {
		u := r.usedLim[c.pi][i] + pl.maxCapLim[i]
		if c.cheap >= 0 {
			u -= pl.capLim[c.cheap][i]
		}
		if u > lim.Value {
			return false
		}
	}
	return true
}

// slackAfter reports whether a's pool's limits stay slack once a, at type
// t, replaces a and b.
func (r *run) slackAfter(a, b *claim, t int) bool {
	pl := a.pl
	for i, lim := range pl.limits {
		u := r.usedLim[a.pi][i] - pl.capLim[a.cheap][i] - pl.capLim[b.cheap][i] + pl.capLim[t][i] + pl.maxCapLim[i]
		if u > lim.Value {
			return false
		}
	}
	return true
}

// nodeCapacity is what a node counts against its pool's limits: the
// capacity of its instance type when the pool's catalog knows it, else its
// allocatable.
func (r *run) nodeCapacity(n *Node, pl *pool) resources.List {
	if t, ok := r.s.prob.PoolCatalog(pl.np).Get(n.InstanceType); ok {
		return t.Capacity
	}
	return n.Allocatable
}

// compileLimits lists the pool's limits but "nodes", by name, and each
// type's capacity in them.
func (pl *pool) compileLimits() {
	for _, name := range sortedNames(pl.np.Limits) {
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

func (r *run) anyWithinLimits(pl *pool, pi int, compat interface{ Next(int) int }, need resources.List) bool {
	c := &claim{pl: pl, pi: pi, cheap: -1}
	for t := compat.Next(0); t >= 0; t = compat.Next(t + 1) {
		if need.Fits(pl.alloc[t]) && r.withinLimits(c, t) {
			return true
		}
	}
	return false
}
