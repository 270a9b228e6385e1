package packing

import (
	"cmp"
	"slices"

	"github.com/nodeplan/nodeplan/instancetypes"
	"github.com/nodeplan/nodeplan/internal/bitset"
	"github.com/nodeplan/nodeplan/requirements"
	"github.com/nodeplan/nodeplan/resources"
)

// Merging, after a pass of Best, joins two claims of one pool into one node
// when that node costs no more than the two (with Options.NodeOverhead for
// the node it saves): cheaper, or as cheap with one node fewer. A greedy pass cannot see it: it places one pod at a time, and
// growing a full claim by one pod often costs more than a new claim, though
// two such claims fit a type of the same family at the same price, or a
// cheaper one once the per-node overhead is shared.
//
// A merge moves no pod to another zone or other topology domain, so that
// every count the pass relied on holds: claims pinned to different values
// of a key do not merge, and a claim whose pods have no pin on a key are
// not counted by it. Only hostname changes, so claims holding a pod whose
// constraints, or another pod's, look at hostnames do not merge at all.
// Nor do claims of pools with reserved offerings (their units are held in
// pass order), or claims whose pool's limits could bind: there a claim's
// settled offering depends on the others', and the prices compared here
// would not be the ones settle picks.

const (
	mergePartners = 8  // later claims, in price order, each claim tries to absorb per round
	mergeRounds   = 16 // rounds at most; each can halve the mergeable claims
)

// merge joins claims in rounds until a round joins none. Claims are
// visited cheapest first; each absorbs the first of the next few that it
// can. It keeps the claims' order and renumbers them.
func (r *run) merge() {
	for range mergeRounds {
		if !r.mergeRound() {
			break
		}
	}
	r.claims = slices.DeleteFunc(r.claims, func(c *claim) bool { return c.gone })
	for i, c := range r.claims {
		c.id = i
		for _, p := range c.pods {
			r.where[p] = -i - 2
		}
	}
}

// mergeRound runs one round and reports whether it joined any claims.
func (r *run) mergeRound() bool {
	type entry struct {
		c     *claim
		price instancetypes.Price
	}
	var cands []entry
	for _, c := range r.claims {
		if !c.gone && r.mergeable(c) {
			if price, ok := r.claimPrice(c.pl, c.pi, c.reqs, c.cand); ok {
				cands = append(cands, entry{c, price})
			}
		}
	}
	slices.SortStableFunc(cands, func(a, b entry) int {
		return cmp.Or(cmp.Compare(a.c.pi, b.c.pi), cmp.Compare(a.price, b.price))
	})
	joined := false
	for i, a := range cands {
		if a.c.gone {
			continue
		}
		for _, b := range cands[i+1 : min(len(cands), i+1+mergePartners)] {
			if !b.c.gone && b.c.pi == a.c.pi && r.tryMerge(a.c, b.c, a.price+b.price+r.s.opts.nodeOverhead()) {
				joined = true
				break
			}
		}
	}
	return joined
}

// mergeable reports whether c may take part in a merge at all.
func (r *run) mergeable(c *claim) bool {
	if c.pl.reserved || c.hasResv || !r.limitsSlack(c) {
		return false
	}
	for _, p := range c.pods {
		if r.s.pods[p].hostBound {
			return false
		}
	}
	return true
}

// tryMerge joins b into a when one node holds both for at most price, the
// two claims' prices plus the node overhead the merge saves, and reports
// whether it did.
func (r *run) tryMerge(a, b *claim, price instancetypes.Price) bool {
	pl := a.pl
	need := a.used.Add(b.used)
	if !need.Fits(pl.maxAlloc) || portsConflict(a.ports, b.ports) || pl.compatible(a.reqs, b.reqs) != nil {
		return false
	}
	reqs := a.reqs.Intersect(b.reqs)
	if requirements.Contradicts(reqs, a.reqs, b.reqs) {
		return false
	}
	cand, cut := r.mergedCandidates(a, b, need, reqs)
	merged, ok := r.claimPrice(pl, a.pi, reqs, cand)
	if !ok || merged > price || !r.slackAfter(a, b, cand.Next(0)) {
		return false
	}
	if pl.minValues && !satisfiesMinValues(pl, reqs, cand) {
		return false
	}
	r.absorb(a, b, reqs, cand, need)
	a.cut = cut
	return true
}

// mergedCandidates are the types one claim holding a's and b's pods could
// be: candidates of both, compatible with the merged requirements (with an
// offering under them), and large enough for need. The cuts start from
// the larger of the two claims' (see trim).
func (r *run) mergedCandidates(a, b *claim, need resources.List, reqs requirements.Set) (bitset.Set, [dims]int) {
	cand := a.cand.Clone()
	cand.And(b.cand)
	cand.And(r.bits[r.signature(reqs)][a.pi])
	var cut [dims]int
	for d := range dims {
		cut[d] = max(a.cut[d], b.cut[d])
	}
	a.pl.trim(cand, &cut, need)
	if hasExtended(need) {
		for t := cand.Next(0); t >= 0; t = cand.Next(t + 1) {
			if !need.Fits(a.pl.alloc[t]) {
				cand.Remove(t)
			}
		}
	}
	return cand, cut
}

// claimPrice is what settle would price a claim of pool pl with these
// requirements and candidates at when its pool's limits are slack: the
// cheapest offering of a candidate under its zone and capacity type; false
// when no candidate has one.
func (r *run) claimPrice(pl *pool, pi int, reqs requirements.Set, cand bitset.Set) (instancetypes.Price, bool) {
	for _, o := range r.pricedBy(pl, pi, reqs, nil) {
		if cand.Has(o.t) {
			return o.off.Price, true
		}
	}
	return 0, false
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

// absorb moves b's pods into a, which takes the merged requirements and
// candidates; b is marked gone, for merge to drop.
func (r *run) absorb(a, b *claim, reqs requirements.Set, cand bitset.Set, need resources.List) {
	t := cand.Next(0)
	used := r.usedLim[a.pi]
	for i := range used {
		used[i] += a.pl.capLim[t][i] - a.pl.capLim[a.cheap][i] - a.pl.capLim[b.cheap][i]
	}
	r.count[a.pi]--
	a.reqs, a.cand, a.cheap, a.used = reqs, cand, t, need
	a.pods = append(a.pods, b.pods...)
	a.ports = append(a.ports, b.ports...)
	for _, sig := range b.sigs {
		if !slices.Contains(a.sigs, sig) {
			a.sigs = append(a.sigs, sig)
		}
	}
	for _, p := range b.pinned {
		if !slices.Contains(a.pinned, p) {
			a.pinned = append(a.pinned, p)
		}
	}
	b.gone = true
}
