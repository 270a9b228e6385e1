package packing

import (
	"cmp"
	"slices"

	"github.com/nodeplan/nodeplan/instancetypes"
	"github.com/nodeplan/nodeplan/internal/bitset"
	"github.com/nodeplan/nodeplan/requirements"
	"github.com/nodeplan/nodeplan/resources"
)

// The bounds of merge's work: partners per claim, rounds, and the yield
// below which it stops.
const (
	mergePartners = 8  // later claims, in price order, each claim tries to absorb per round
	mergeRounds   = 16 // rounds at most; each can halve the mergeable claims
	// mergeTail: merging stops after a round that joined fewer than one
	// claim in mergeTail of those it considered.
	mergeTail = 256
)

// merge, after a pass of Best, joins two claims of one pool into one
// node when that node costs no more than the two (with
// Options.NodeOverhead for the node it saves): cheaper, or as cheap with
// one node fewer. A greedy pass cannot see it: it places one pod at a
// time, and growing a full claim by one pod often costs more than a new
// claim, though two such claims fit a type of the same family at the same
// price, or a cheaper one once the per-node overhead is shared.
//
// A merge moves no pod to another zone or other topology domain, so every
// count the pass relied on holds: claims pinned to different values of a
// key do not merge, and the pods of a claim with no pin on a key are not
// counted by it. Only the hostname changes, so claims holding a pod whose
// constraints, or another pod's, look at hostnames do not merge at all.
// Nor do claims of pools with reserved offerings (their units are held in
// pass order), or claims whose pool's limits could bind: there a claim's
// settled offering depends on the others', and the prices compared here
// would not be the ones settle picks (see mergeable).
//
// merge works in rounds, until a round joins none or only a few, or the
// solve is halted (see static.halted). Claims are visited cheapest first;
// each absorbs the first of the next few that it can. It keeps the claims'
// order and, when it joined any, renumbers and renames them (see
// run.compact). Renaming keeps every hostname constraint: names stay
// distinct, and no pod whose constraints look at hostnames changed node.
func (r *run) merge() {
	for range mergeRounds {
		if r.s.halted() {
			break
		}
		if considered, joined := r.mergeRound(); joined == 0 || joined*mergeTail < considered {
			break
		}
	}
	r.compact()
}

// mergeRound runs one round and returns how many claims it considered and
// how many it joined into others.
func (r *run) mergeRound() (considered, joined int) {
	var cands []*claim
	for _, c := range r.claims {
		if !c.gone && r.mergeable(c) && r.mergeView(c) {
			cands = append(cands, c)
		}
	}
	slices.SortStableFunc(cands, func(a, b *claim) int {
		return cmp.Or(cmp.Compare(a.pi, b.pi), cmp.Compare(a.mv.price, b.mv.price))
	})
	for i, a := range cands {
		if a.gone {
			continue
		}
		for _, b := range cands[i+1 : min(len(cands), i+1+mergePartners)] {
			if !b.gone && b.pi == a.pi && r.tryMerge(a, b) {
				joined++
				break
			}
		}
	}
	return len(cands), joined
}

// mergeable reports whether c may take part in a merge at all.
func (r *run) mergeable(c *claim) bool {
	if c.pl.reserved || c.hasResv || !r.use.slack(c) {
		return false
	}
	for _, p := range c.pods {
		if r.s.pods[p].hostBound {
			return false
		}
	}
	return true
}

// mergeView is what merging needs of a claim's requirements, computed once
// per requirement set: their signature (the compatible types; equal
// signatures are equal requirements) and the pool's types priced under
// them. The zero mergeView is none yet.
type mergeView struct {
	set    bool
	sig    int32
	list   []option
	ladder ladder
	price  instancetypes.Price // the claim's, as settle would pick it
	priced bool                // some candidate has a price
}

// mergeView fills c.mv unless it is current, and reports whether c has a
// price at all.
func (r *run) mergeView(c *claim) bool {
	if !c.mv.set {
		mv := r.newMergeView(c.pl, c.pi, c.reqs)
		mv.price, mv.priced = firstPrice(mv.list, instancetypes.MaxPrice, c.cand.Has)
		c.setMergeView(mv)
	}
	return c.mv.priced
}

func (r *run) newMergeView(pl *pool, pi int, reqs requirements.Set) mergeView {
	list := r.pricedBy(pl, pi, reqs, nil)
	return mergeView{set: true, sig: r.signature(reqs), list: list, ladder: r.ladderOf(pl, list)}
}

// ladder is, for a price list of a pool, the most cpu and the most memory
// allocatable of the types of its first i+1 options, for each i: an
// option before start(need) is of a type short of need in one of the two,
// so a walk for the first type that holds need may begin there.
type ladder struct{ cpu, mem []int64 }

// ladderOf is list's ladder, computed once per list (lists are kept in
// the memo; merge takes no pool with reserved offerings, whose lists are
// not).
func (r *run) ladderOf(pl *pool, list []option) ladder {
	if len(list) == 0 || pl.reserved {
		return ladder{}
	}
	if l, ok := r.memo.ladders[&list[0]]; ok {
		return l
	}
	l := ladder{cpu: make([]int64, len(list)), mem: make([]int64, len(list))}
	var cpu, mem int64
	for i, o := range list {
		a := &pl.alloc[o.t]
		cpu, mem = max(cpu, a.CPU), max(mem, a.Memory)
		l.cpu[i], l.mem[i] = cpu, mem
	}
	r.memo.ladders[&list[0]] = l
	return l
}

// start is the index of the first option whose type may hold need; 0
// for the zero ladder.
func (l ladder) start(need resources.List) int {
	i, _ := slices.BinarySearch(l.cpu, need.CPU)
	j, _ := slices.BinarySearch(l.mem, need.Memory)
	return max(i, j)
}

// firstPrice is what settle would price a claim at whose candidates are
// the types cand admits, list being its pool's types priced under its
// requirements, when its pool's limits are slack: the first (cheapest)
// candidate's offering; false when no candidate costs at most limit (the
// list is cheapest first, so the walk stops at the first dearer one).
func firstPrice(list []option, limit instancetypes.Price, cand func(t int) bool) (instancetypes.Price, bool) {
	for _, o := range list {
		if o.price > limit {
			break
		}
		if cand(o.t) {
			return o.price, true
		}
	}
	return 0, false
}

// tryMerge joins b into a when one node holds both for at most the two
// claims' prices plus the node overhead the merge saves, and reports
// whether it did.
func (r *run) tryMerge(a, b *claim) bool {
	pl := a.pl
	need := a.used.Add(b.used)
	if !need.Fits(pl.maxAlloc) || portsConflict(a.ports, b.ports) {
		return false
	}
	reqs, mv, ok := r.mergedView(a, b)
	if !ok {
		return false
	}
	compat := r.memo.bits[mv.sig][a.pi]
	price, ok := firstPrice(mv.list[mv.ladder.start(need):], a.mv.price+b.mv.price+r.s.opts.nodeOverhead(), func(t int) bool {
		return a.cand.Has(t) && b.cand.Has(t) && compat.Has(t) && need.Fits(pl.alloc[t])
	})
	if !ok {
		return false
	}
	cand, cut := r.mergeScratch(a.cand), maxCuts(a.cut, b.cut)
	cand.And(b.cand)
	cand.And(compat)
	pl.trim(cand, &cut, need)
	fitExtended(pl, cand, need)
	if !r.use.slackAfter(a, b, cand.Next(0)) || (pl.hasMinValues() && !satisfiesMinValues(pl, reqs, cand)) {
		return false
	}
	mv.price, mv.priced = price, true
	cand = r.slab.bits(cand) // the merged claim keeps it
	fromA, fromB := a.absorb(b, merged{reqs: reqs, cand: cand, cut: cut, need: need, view: mv})
	r.use.join(a.pi, pl, fromA, fromB, a.cheap)
	return true
}

// mergeScratch is a copy of cand in a scratch set of r, valid until the
// next call: a merge's trial candidates, kept only when it succeeds.
func (r *run) mergeScratch(cand bitset.Set) bitset.Set {
	buf := r.scratch.merge
	if len(buf) != len(cand) {
		buf = make(bitset.Set, len(cand))
		r.scratch.merge = buf
	}
	buf.CopyFrom(cand)
	return buf
}

// mergedView is the requirements and merge view of one claim holding a's
// and b's pods; false when they contradict.
func (r *run) mergedView(a, b *claim) (requirements.Set, mergeView, bool) {
	if a.mv.sig == b.mv.sig {
		return a.reqs, a.mv, true
	}
	if pinsConflict(a.pinned, b.pinned) || a.pl.compatible(a.reqs, b.reqs) != nil {
		return requirements.Set{}, mergeView{}, false
	}
	reqs := a.reqs.Intersect(b.reqs)
	if requirements.Contradicts(reqs, a.reqs, b.reqs) {
		return requirements.Set{}, mergeView{}, false
	}
	return reqs, r.newMergeView(a.pl, a.pi, reqs), true
}

// pinsConflict reports whether a and b pin one key to different values,
// which their requirements then contradict: a cheap early reject.
func pinsConflict(a, b []pin) bool {
	for _, p := range a {
		for _, q := range b {
			if p.key == q.key && p.value != q.value {
				return true
			}
		}
	}
	return false
}

func maxCuts(a, b [dims]int) [dims]int {
	for d := range dims {
		a[d] = max(a[d], b[d])
	}
	return a
}

// fitExtended removes from cand the types short of need's extended
// resources (trim has seen to the core ones).
func fitExtended(pl *pool, cand bitset.Set, need resources.List) {
	if !hasExtended(need) {
		return
	}
	for t := cand.Next(0); t >= 0; t = cand.Next(t + 1) {
		if !need.Fits(pl.alloc[t]) {
			cand.Remove(t)
		}
	}
}
