package consolidation

import (
	"cmp"
	"slices"

	"github.com/nodeplan/nodeplan/instancetypes"
	"github.com/nodeplan/nodeplan/internal/sat"
	"github.com/nodeplan/nodeplan/internal/vouch"
	"github.com/nodeplan/nodeplan/packing"
	"github.com/nodeplan/nodeplan/resources"
)

// room is a necessary condition for a move, checked before simulating it
// where simulations would be many: a node that took displaced pods, which
// single-node consolidation re-evaluates after every command, each set
// the repack tries, and a move simulated again with Karpenter's packing
// rule (oneClaim). The candidates' pods must fit, in CPU, memory and
// ephemeral storage summed, in the usable free room of the other nodes
// (initialized, not being deleted, not settling, and with room for at
// least the smallest of those pods: a node without it takes none) and in
// the new nodes: for single-node, one instance type that some NodePool
// could launch (an offering its requirements allow, of a type of its
// catalog) for less than the node costs; for the repack, any number, at
// no less than the cheapest price per core, per byte of memory and of
// storage any pool launches at, which must stay below what the
// candidates cost. Every move the simulation would accept meets it, as
// the room it counts is an overestimate (pending pods, pods of deleting
// nodes, daemonset overhead and every placement rule only take room
// away), so a move that fails it fails the simulation too. The packer
// tops up the nodes it moves pods onto, so after a few commands most
// nodes that took pods fail it, and the re-evaluation Karpenter does
// after every command costs a pass over the nodes instead of a
// simulation. O(nodes + pods) per version of the state to measure (the
// nodes whose pods changed), O(nodes) per check.
type room struct {
	// free is, per node of the what-if, its free room; ok says whether
	// it may take displaced pods at all. Measured per version of the
	// state (measureRoom).
	free []resources.List
	ok   []bool
	// read is, per node, the pods slice its free room was last measured
	// from and that room: a node with the same slice has the same pods
	// (the what-if gives a node whose pods change a new slice).
	read []measured
	// valid says free and ok are of the state's version version.
	valid   bool
	version int
	// gone is usable's scratch: which nodes are the candidates; a fork
	// of the state has its own.
	gone []bool
	// prices and largest are the types the pools can launch, by their
	// cheapest offering a pool allows, and the per-resource maximum
	// allocatable of each prefix.
	prices  []instancetypes.Price
	largest []resources.List
	// unit is, per resource (CPU, memory, ephemeral storage), the least
	// price per unit any pool launches at; 0 when no type offers it.
	unit [3]float64
}

// newRoom indexes what s's pools can launch by price.
func newRoom(s *state) *room {
	type entry struct {
		price instancetypes.Price
		alloc resources.List
	}
	var entries []entry
	for i := range s.c.NodePools {
		pool := &s.c.NodePools[i]
		cat := s.base.PoolCatalog(pool)
		if cat == nil {
			continue
		}
		for _, t := range cat.Types() {
			if o, ok := t.Cheapest(pool.Requirements); ok {
				entries = append(entries, entry{o.Price, core(t.Allocatable)})
			}
		}
	}
	slices.SortStableFunc(entries, func(a, b entry) int { return cmp.Compare(a.price, b.price) })
	r := &room{}
	var run resources.List
	for _, e := range entries {
		run = run.Max(e.alloc)
		r.prices, r.largest = append(r.prices, e.price), append(r.largest, run)
		for k, a := range amounts(e.alloc) {
			if u := float64(e.price) / float64(a); a > 0 && (r.unit[k] == 0 || u < r.unit[k]) {
				r.unit[k] = u
			}
		}
	}
	return r
}

// core is l's CPU, memory and ephemeral storage, the resources room sums.
func core(l resources.List) resources.List {
	return resources.List{CPU: l.CPU, Memory: l.Memory, EphemeralStorage: l.EphemeralStorage}
}

func amounts(l resources.List) [3]int64 { return [3]int64{l.CPU, l.Memory, l.EphemeralStorage} }

// measured is a node's free room (see freeOn) and the pods slice it was
// measured from.
type measured struct {
	pods []packing.Pod
	free resources.List
}

// measure records the free room of s's nodes as they stand, reading again
// only the nodes whose pods changed since the last measure.
func (r *room) measure(s *state) {
	nodes := s.w.Nodes()
	r.free, r.ok = r.free[:0], r.ok[:0]
	for i := range nodes {
		n := &nodes[i]
		if i == len(r.read) { // a node launched since
			r.read = append(r.read, measured{pods: n.Pods, free: freeOn(n)})
		} else if !vouch.SameSlice(r.read[i].pods, n.Pods) {
			r.read[i] = measured{pods: n.Pods, free: freeOn(n)}
		}
		r.free = append(r.free, r.read[i].free)
		r.ok = append(r.ok, n.Initialized && !n.MarkedForDeletion && !s.c.settling(n, s.pools[n.NodePool]))
	}
}

// freeOn is n's allocatable less its pods' requests, none below zero.
func freeOn(n *packing.Node) resources.List {
	used := resources.List{}
	for i := range n.Pods {
		used = used.Add(core(n.Pods[i].Requests))
	}
	f := core(n.Allocatable).Sub(used)
	return resources.List{CPU: max(f.CPU, 0), Memory: max(f.Memory, 0), EphemeralStorage: max(f.EphemeralStorage, 0)}
}

// demand returns the summed requests of the candidates' pods and their
// per-resource minimum (what any one of them needs at least).
func demand(cands []candidate) (need, least resources.List) {
	first := true
	for _, c := range cands {
		for i := range c.pods {
			q := core(c.pods[i].Requests)
			need = need.Add(q)
			if first {
				least, first = q, false
			}
			least = resources.List{CPU: min(least.CPU, q.CPU), Memory: min(least.Memory, q.Memory),
				EphemeralStorage: min(least.EphemeralStorage, q.EphemeralStorage)}
		}
	}
	return need, least
}

// usable sums the free room of the nodes that may take pods, but the
// candidates, where the least pod fits.
func (r *room) usable(cands []candidate, least resources.List) resources.List {
	r.gone = slices.Grow(r.gone[:0], len(r.free))[:len(r.free)] // all false: reset below
	for _, c := range cands {
		if c.at < len(r.gone) { // else launched since the measure, which has no room of it
			r.gone[c.at] = true
		}
	}
	// free and least hold CPU, memory and ephemeral storage only (core):
	// Fits and Add on those three, spelt out.
	var have resources.List
	for i := range r.free {
		f := &r.free[i]
		if r.ok[i] && !r.gone[i] && least.CPU <= f.CPU && least.Memory <= f.Memory && least.EphemeralStorage <= f.EphemeralStorage {
			have.CPU, have.Memory = sat.Add(have.CPU, f.CPU), sat.Add(have.Memory, f.Memory)
			have.EphemeralStorage = sat.Add(have.EphemeralStorage, f.EphemeralStorage)
		}
	}
	for _, c := range cands {
		if c.at < len(r.gone) {
			r.gone[c.at] = false
		}
	}
	return have
}

// fitsOne reports whether the candidates' pods may fit the room of the
// other nodes plus one new node cheaper than limit.
func (r *room) fitsOne(s *state, cands []candidate, limit instancetypes.Price) bool {
	need, least := demand(cands)
	have := r.usable(cands, least)
	if k, _ := slices.BinarySearch(r.prices, limit); k > 0 {
		have = have.Add(r.largest[k-1])
	}
	return need.Fits(have)
}

// fitsMany reports whether the candidates' pods may fit the room of the
// other nodes plus new nodes costing less than limit in all.
func (r *room) fitsMany(s *state, cands []candidate, limit instancetypes.Price) bool {
	need, least := demand(cands)
	over := amounts(need.Sub(r.usable(cands, least)))
	for k, a := range over {
		// A margin keeps float rounding from ruling out a move at the limit.
		if a > 0 && r.unit[k] > 0 && float64(a)*r.unit[k] > float64(limit)*(1+1e-9)+1 {
			return false
		}
	}
	return true
}

// noRoom explains why c, a node that took displaced pods, cannot be
// deleted or replaced, when room shows it without a simulation; nil when
// c took no pods or room cannot tell.
func (s *state) noRoom(c candidate) *Explanation {
	if s.retry.pods[c.name] == 0 {
		return nil
	}
	s.measureRoom()
	if s.room.fitsOne(s, []candidate{c}, s.threshold(c.price)) {
		return nil
	}
	return explain(c.name, NoCheaperReplacement,
		"node %s's pods need more than the other nodes have free plus the largest instance type cheaper than %s",
		c.name, s.price([]candidate{c}, c.price))
}

// measureRoom makes room and measures it once per version of the state
// (what measure reads changes only with the version), so that a state's
// forks (speculate.go), which share what it measured, never measure.
func (s *state) measureRoom() {
	if s.room == nil {
		s.room = newRoom(s)
	}
	if v := s.version(); !s.room.valid || s.room.version != v {
		s.room.measure(s)
		s.room.valid, s.room.version = true, v
	}
}

// roomForOne reports whether the candidates' pods may fit the other nodes
// and one new node cheaper than them, room measured at this version.
func (s *state) roomForOne(cands []candidate) bool {
	s.measureRoom()
	return s.room.fitsOne(s, cands, s.threshold(sumPrice(cands)))
}
