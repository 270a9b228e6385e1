package packing

import (
	"cmp"
	"slices"

	"github.com/nodeplan/nodeplan/resources"
)

// refill, after a cost-aware pass of Best has merged its claims, removes
// claims whose pods all fit the room other claims have left on their
// current type: the plan then costs the removed claim less, and no other
// claim changes type. The pass grows a claim only while growing costs no
// more than a new claim, and merge joins such claims into larger nodes
// afterwards, whose leftover room no later pod revisits: on
// Karpenter-style "basic scale-out" (2,500 pods of 0.9 cores and 3.1 GiB,
// 2,500 of 3.5 cores and 28 GiB, AWS catalog) the large pods' nodes can
// hold a third of the small pods, which had nodes of their own.
//
// Only free pods move: no topology constraint of their own, counted by no
// other pod's, not bound by hostname rules, and without host ports,
// volumes or an invalid-volume reason; so no count, pin or
// hostname rule any other placement relied on changes. A claim is removed
// only when every pod of it is free and fits a claim whose requirements
// already admit the pod's (same signature: nothing narrows) at that
// claim's current cheapest type, all counted together; claims of pools
// with reservations, minValues or limits that could bind are left alone,
// as merge leaves them. Claims are tried cheapest first, each once, and
// the moved pods are placed again after every other pod (Plan.Order).
func (r *run) refill() {
	cands := r.refillable()
	if len(cands) == 0 {
		return
	}
	r.reindexSlack()
	plan := make([]*claim, 0, 64)
	removed := false
	for _, b := range cands {
		if r.s.halted() {
			break
		}
		plan = r.homesFor(b, plan[:0])
		if plan == nil {
			continue
		}
		r.dissolve(b, plan)
		removed = true
	}
	if removed {
		r.dedupOrder()
		r.compact()
	}
}

// refillable lists the claims refill may remove, cheapest first (by the
// price the pass counts them at), ties by position. A claim keeps its type
// and only gains free pods while refill runs, so the list stays true.
func (r *run) refillable() []*claim {
	var out []*claim
	for _, c := range r.claims {
		if !c.gone && len(c.pods) > 0 && !c.pl.hasMinValues() && r.mergeable(c) && r.allFree(c) {
			out = append(out, c)
		}
	}
	slices.SortStableFunc(out, func(a, b *claim) int { return cmp.Compare(a.price(), b.price()) })
	return out
}

// allFree reports whether every pod of c is free (see refill).
func (r *run) allFree(c *claim) bool {
	for _, i := range c.pods {
		if !r.s.pods[i].free() {
			return false
		}
	}
	return true
}

// homesFor returns, for each pod of b in order, another claim that holds
// it at its current cheapest type with the pods before it, appended to
// homes; nil when some pod has none.
func (r *run) homesFor(b *claim, homes []*claim) []*claim {
	extra := map[*claim]resources.List{}
	for _, i := range b.pods {
		v := r.view(i)
		home := r.roomFor(v, b, extra)
		if home == nil {
			return nil
		}
		extra[home] = extra[home].Add(v.info.req)
		homes = append(homes, home)
	}
	return homes
}

// roomFor finds the claim with the least CPU room, other than b, that
// holds v on its current cheapest type beside the pods extra already
// plans for it, and admits v's requirements as they are.
func (r *run) roomFor(v view, b *claim, extra map[*claim]resources.List) *claim {
	var found *claim
	visits := scanVisits
	r.slack.ascendFrom(v.info.req.CPU, v.info.req.Memory, &visits, func(c *claim) bool {
		if c == b || c.gone || !slices.Contains(c.sigs, v.sig) || c.pl.hasMinValues() || c.hasResv || c.pl.reserved ||
			!c.used.Add(extra[c]).Add(v.info.req).Fits(c.pl.alloc[c.cheap]) {
			return true
		}
		if m := &r.moves.try; r.tryClaimIf(v, c, m, onItsType(c)) {
			found = c
			return false
		}
		return true
	})
	return found
}

// dissolve removes b from the run and places its pods on homes, in order.
// homesFor checked each placement with those before it, so each holds; a
// pod whose home no longer takes it is placed as the pass places a pod.
func (r *run) dissolve(b *claim, homes []*claim) {
	pods := b.pods
	r.slack.remove(b)
	r.use.close(b.pi, b.pl, b.cheap)
	b.gone, b.pods, b.ports = true, nil, nil
	for k, i := range pods {
		r.where[i] = placement{}
		v := r.view(i)
		r.forgetMinCounts()
		if m := &r.moves.try; r.tryClaimIf(v, homes[k], m, onItsType(homes[k])) {
			r.commit(v, homes[k], *m)
			continue
		}
		r.attempt(i) // placed as the pass would, or unschedulable with its reason
	}
}

// dedupOrder keeps, for each pod placed more than once, its last place in
// the order of placement.
func (r *run) dedupOrder() {
	seen := make([]bool, len(r.s.pods))
	k := len(r.order)
	for j := len(r.order) - 1; j >= 0; j-- { // k ≥ j: each kept pod moves right
		if i := r.order[j]; !seen[i] {
			seen[i] = true
			k--
			r.order[k] = i
		}
	}
	r.order = append(r.order[:0], r.order[k:]...)
}
