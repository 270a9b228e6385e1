package packing

import (
	"slices"

	"github.com/nodeplan/nodeplan/instancetypes"
	"github.com/nodeplan/nodeplan/internal/bitset"
	"github.com/nodeplan/nodeplan/requirements"
	"github.com/nodeplan/nodeplan/resources"
)

// place puts the pod of v on an existing node, then on a claim opened in
// this solve, then on a new claim from the first pool that takes it.
func (r *run) place(v view) bool {
	r.forgetMinCounts() // a new pod, or a new view of it
	r.twinBegin(v)
	req := &v.info.req
	for ni := r.free.next(0, req.CPU, req.Memory); ni >= 0; ni = r.free.next(ni+1, req.CPU, req.Memory) {
		if r.fitsNode(v, r.nodes[ni]) {
			r.commitNode(v, ni)
			return true
		}
	}
	if !r.cost {
		r.orderClaims()
	}
	if r.everyClaimTaken(v) {
		return r.openClaim(v)
	}
	if r.cost {
		return r.placeByCost(v)
	}
	for _, c := range r.byPods {
		if m := &r.moves.try; r.tryClaim(v, c, m) {
			r.commit(v, c, *m)
			return true
		}
	}
	return r.openClaim(v)
}

// move is a feasible placement on a claim: the claim's new cheapest type
// and the topology pins it takes, in a buffer of its own (see moves).
type move struct {
	cheap int
	delta instancetypes.Price
	pins  []pin
}

// moves are the buffers of the moves place weighs at once, each filled by
// tryClaim and reused from pod to pod, so that weighing allocates nothing:
// the move being tried, the best upgrade so far (cheapestUpgrade swaps the
// two) and a new claim's (newClaim). A move stays valid until its buffer
// is filled again, which only the next tryClaim into it does.
type moves struct{ try, best, fresh move }

// placeByCost takes the placement that raises the plan's price least: a
// claim whose current type has room costs nothing; otherwise the cheapest
// upgrade of a few roomy claims is weighed against opening a new claim.
func (r *run) placeByCost(v view) bool {
	if c, m, ok := r.freeFit(v); ok {
		r.commit(v, c, m)
		return true
	}
	best, bm, found := r.cheapestUpgrade(v)
	if fresh, nm, ok := r.newClaim(v); ok && (!found || nm.delta+r.s.opts.nodeOverhead() < bm.delta) {
		nc := r.materialize(fresh)
		r.adopt(nc)
		r.commit(v, nc, nm)
		return true
	}
	if found {
		r.commit(v, best, bm)
		return true
	}
	return false
}

const (
	scanFree    = 1024 // claims examined for room without upgrade
	scanUpgrade = 16   // claims priced for an upgrade
	scanVisits  = 4096 // claims visited at most per scan, cheap rejects included, so time stays n log n
)

// freeFit finds the claim with the least CPU room that holds the pod on its
// current cheapest type.
func (r *run) freeFit(v view) (*claim, move, bool) {
	var (
		found *claim
		fm    move
		n     int
	)
	visits := scanVisits
	r.slack.ascendFrom(v.info.req.CPU, v.info.req.Memory, &visits, func(c *claim) bool {
		if !r.hostOK(v, c) || !c.used.Add(v.info.req).Fits(c.pl.alloc[c.cheap]) {
			return true // cheap to skip: not counted against the scan
		}
		n++
		if m := &r.moves.try; r.tryTwin(v, c, &c.twin, m, onItsType(c)) {
			found, fm = c, *m
			return false
		}
		return n < scanFree
	})
	return found, fm, found != nil
}

// cheapestUpgrade prices the pod on the claims with the most room.
func (r *run) cheapestUpgrade(v view) (*claim, move, bool) {
	var (
		best      *claim
		try, kept = &r.moves.try, &r.moves.best
		n         int
		seen      int
	)
	r.slack.descend(func(c *claim) bool {
		if seen++; seen > scanVisits {
			return false
		}
		if !r.hostOK(v, c) {
			return true
		}
		if r.tryTwin(v, c, &c.twin, try, func(_ int, delta instancetypes.Price) bool { return best == nil || delta < kept.delta }) {
			best = c
			*try, *kept = *kept, *try // kept takes the move and its buffer
		}
		n++
		return n < scanUpgrade
	})
	if best == nil {
		return nil, move{}, false
	}
	return best, *kept, true
}

// openClaim opens a claim from the first pool that takes the pod.
func (r *run) openClaim(v view) bool {
	fresh, m, ok := r.newClaim(v)
	if ok {
		c := r.materialize(fresh)
		r.adopt(c)
		r.commit(v, c, m)
	}
	return ok
}

// newClaim finds the first pool in order whose empty claim takes the pod
// and returns that claim, run.fresh's, which stays as it is until the next
// newClaim: materialize it to adopt it.
func (r *run) newClaim(v view) (*claim, move, bool) {
	for pi, pl := range r.s.pools {
		if r.use.nodesLeft(pi, pl) <= 0 {
			continue
		}
		// An empty claim is tried without allocating; its hostname domain
		// is new, so its name does not matter until it is adopted.
		c := &r.fresh[pi]
		c.reset(pl, pi)
		if m := &r.moves.fresh; r.tryFresh(v, c, pi, m) {
			return c, *m, true
		}
	}
	return nil, move{}, false
}

// materialize turns a tried empty claim into one of the run's own (see
// claim.adopt), in a slot of the run's slab.
func (r *run) materialize(fresh *claim) *claim {
	c := r.slab.claim()
	fresh.adopt(c, len(r.claims))
	return c
}

// hostname is c's name, its node's hostname: named when first asked (a
// claim no hostname rule reads keeps no name; render computes it without
// keeping it); "" for an empty claim being tried, whose hostname is new.
func (r *run) hostname(c *claim) string {
	if c.name == "" && c.id != unadopted {
		c.name = r.memo.claimName(c.pl, c.pi, c.id)
	}
	return c.name
}

// tryClaim reports whether the pod can join claim c and, when it can,
// fills into with the move, its pins copied into into's own buffer (see
// moves); else into is left as it was. It does not change c.
func (r *run) tryClaim(v view, c *claim, into *move) bool {
	// The cheap rejects first, inline: a first-fit scan tries many claims.
	return r.hostOK(v, c) && c.coreRoom(&v.info.req) && r.tryClaimIf(v, c, into, nil)
}

// worth reports whether a move that makes cheap the claim's cheapest type,
// raising the plan's price by delta, is one the caller would take. Its caller
// takes a claim only when tryClaim's answer is yes and worth says so: a
// claim the move is not worth to is not asked about minValues, the one
// costly check.
type worth func(cheap int, delta instancetypes.Price) bool

// onItsType is worth for a move that keeps c's cheapest type: the pod
// fits the room c has on it.
func onItsType(c *claim) worth {
	return func(cheap int, _ instancetypes.Price) bool { return cheap == c.cheap }
}

// tryClaimIf is tryClaim && w(the move) (w nil: always worth it).
func (r *run) tryClaimIf(v view, c *claim, into *move, w worth) bool {
	m, ok := r.tryRoom(v, c)
	if !ok {
		return false
	}
	minValues, eager := c.pl.hasMinValues(), r.s.hooks.eagerMinValues
	if minValues && eager && !r.keepsMinValues(v, c, m.pins) {
		return false
	}
	if (w != nil && !w(m.cheap, m.delta)) || (minValues && !eager && !r.keepsMinValues(v, c, m.pins)) {
		return false
	}
	*into = move{cheap: m.cheap, delta: m.delta, pins: append(into.pins[:0], m.pins...)}
	return true
}

// tryRoom is tryClaim but for minValues: the move, its pins in the
// topology's scratch slice (valid until the run's next topology call).
func (r *run) tryRoom(v view, c *claim) (move, bool) {
	if !r.hostOK(v, c) || !c.coreRoom(&v.info.req) {
		return move{}, false
	}
	need := c.used.Add(v.info.req)
	if !need.Fits(c.maxAlloc) || requirements.Tolerates(v.tols, c.pl.taints) != nil {
		return move{}, false
	}
	if portsConflict(v.info.pod.HostPorts, c.ports) || !r.reqsCompatible(v, c) {
		return move{}, false
	}
	pins, ok := r.topology(v, target{claim: c})
	if !ok || !r.keepsOwnZone(v, c, pins) {
		return move{}, false
	}
	cheap, ok := r.firstFit(v, c, need, pins)
	if !ok {
		return move{}, false
	}
	return move{cheap: cheap, delta: c.pl.price[cheap] - c.price(), pins: pins}, true
}

// everyClaimTaken reports whether hostOK fails on every open claim: one of
// the pod's hostname constraints forbids any matching pod on its node, and
// every claim has one. Then only a new claim can take the pod, and a scan
// of the claims would be wasted.
func (r *run) everyClaimTaken(v view) bool {
	for _, k := range v.hostCons {
		if k.allowed() == 0 && int(r.counts.hostTaken[k.counter]) == len(r.claims) {
			return true
		}
	}
	return false
}

// allowed is how many matching pods a node may hold before the pod for a
// hostname constraint: none for anti-affinity, maxSkew less the pod itself
// for spread.
func (k constraint) allowed() int32 {
	if k.kind == antiKind {
		return 0
	}
	return k.maxSkew - selfCount(k.self)
}

// hostOK is the early, cheap check of the pod's required hostname
// anti-affinity and hostname spread against c; topology repeats it.
func (r *run) hostOK(v view, c *claim) bool {
	for _, k := range v.hostCons {
		if c.hostCounts[k.counter] > k.allowed() {
			return false
		}
	}
	return true
}

func selfCount(b bool) int32 {
	if b {
		return 1
	}
	return 0
}

func (r *run) reqsCompatible(v view, c *claim) bool {
	return slices.Contains(c.sigs, v.sig) || c.pl.compatible(c.reqs, v.reqs) == nil
}

// firstFit returns the cheapest candidate type of c compatible with the pod
// and the pins that holds need within the pool's limits; false when none
// does.
func (r *run) firstFit(v view, c *claim, need resources.List, pins []pin) (int, bool) {
	cand := r.pinnedCand(v, c, pins)
	offers := r.newOfferFilter(v, c, pins)
	for t := cand.Next(0); t >= 0; t = cand.Next(t + 1) {
		if need.Fits(c.pl.alloc[t]) && r.use.within(c, t) && offers.admits(t) {
			return t, true
		}
	}
	return 0, false
}

// pinnedCand is the set of c's candidate types compatible with the pod
// that admit pins, in a scratch set of r: O(types / 64) per pin.
func (r *run) pinnedCand(v view, c *claim, pins []pin) bitset.Set {
	a := append(r.scratch.fit[:0], c.cand...)
	a.And(r.memo.bits[v.sig][c.pi])
	for _, p := range pins {
		if b, ok := c.pl.pins[p]; ok {
			a.And(b)
		}
	}
	r.scratch.fit = a
	return a
}

// keepsMinValues reports whether the candidates left after the pod joins
// c with pins still offer every requirement's minValues distinct values
// (true when c's pool has no minValues).
// The candidates go to a scratch set, and the pod's requirements are
// intersected into c's only when they bear on a minValues.
func (r *run) keepsMinValues(v view, c *claim, pins []pin) bool {
	if !c.pl.hasMinValues() {
		return true
	}
	buf := r.scratch.minCand
	if len(buf) != len(c.cand) {
		buf = make(bitset.Set, len(c.cand))
		r.scratch.minCand = buf
	}
	buf.CopyFrom(c.cand)
	cand, _ := r.narrowInto(buf, v, c, c.used.Add(v.info.req), pins)
	reqs := c.reqs
	if bearsOnMinValues(c.reqs, v.reqs) {
		reqs = reqs.Intersect(v.reqs)
	}
	return satisfiesMinValues(c.pl, reqs, cand)
}

// bearsOnMinValues reports whether intersecting pod into claim could
// change what satisfiesMinValues reads: pod constrains a key that has
// minValues in claim, or has minValues itself.
func bearsOnMinValues(claim, pod requirements.Set) bool {
	for r := range pod.All() {
		if r.MinValues() > 0 || claim.Get(r.Key()).MinValues() > 0 {
			return true
		}
	}
	return false
}

// commit adds the pod to c with the move tryClaim found. It must not call
// tryClaim: m's pins live in one of the moves buffers, which the next
// tryClaim into it overwrites (see moves).
func (r *run) commit(v view, c *claim, m move) {
	need := c.used.Add(v.info.req)
	cand, cut := r.narrowOwn(v, c, need, m.pins)
	c.twin = twinTry{} // c changes: an answer kept for it is stale
	r.slack.remove(c)
	from := c.grow(need, m.cheap, cand, cut)
	r.use.charge(c.pi, c.pl, from, m.cheap)
	r.narrowReqs(v, c, m.pins)
	r.reserve(c)
	c.refreshMaxAlloc()
	if c.pods == nil {
		c.pods = r.slab.ints(claimPods)
	}
	c.add(v.i, v.info.pod.HostPorts)
	r.record(v, target{claim: c}, nil)
	r.placed(v.i, placement{onClaim, int32(c.id)})
	r.slack.insert(c)
	if len(r.byPods) > exactOrderClaims {
		r.bubble(c)
	}
}

// narrowReqs folds the pod's requirements and the pins it brings into c's.
func (r *run) narrowReqs(v view, c *claim, pins []pin) {
	c.constrain(v.sig, v.reqs)
	for _, p := range r.freshPins(c, pins) {
		c.fix(p)
	}
}
