package packing

import (
	"cmp"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/nodeplan/nodeplan/instancetypes"
	"github.com/nodeplan/nodeplan/internal/bitset"
	"github.com/nodeplan/nodeplan/requirements"
	"github.com/nodeplan/nodeplan/resources"
)

// claim is a NodeClaim being built. Its fields, and the run's list of
// claims (run.claims and Plain's order, run.byPods), are written only by
// the functions in this file, but for twin (twins.go and commit, which
// clears it), slack (slack.go), name (run.hostname) and the first pods
// slice (commit, from the run's slab); the rest of the solver reads them.
type claim struct {
	id   int
	name string
	pl   *pool
	pi   int
	reqs requirements.Set
	// zone is reqs's zone when it allows exactly one, read out by setReqs
	// whenever reqs changes: a pod's zone constraints read it for every
	// claim they try (run.domain).
	zone zoneValue
	// pairs are the pool's offerPairs reqs allows (pool.allowedBy), when
	// pairsOK: an offer filter starts from them. setReqs clears pairsOK,
	// and the first active filter reads them again (claimPairs): most
	// claims of a problem without zone or capacity-type constraints never
	// need them.
	pairs   uint64
	pairsOK bool
	sigs    []int32
	cand    bitset.Set
	// cheap is c's cheapest type, the one the pass counts it at; untyped
	// until c holds a pod (see typed). After settle it is still the greedy
	// pass's type, not the one c launches with: render reads that from the
	// settlement.
	cheap    int
	used     resources.List
	maxAlloc resources.List
	maxCount int // candidates when maxAlloc was computed
	pos      int // index in run.byPods
	// cut counts, per core dimension, the pool's smallest types trim has
	// removed; pinned lists the pins folded into reqs.
	cut    [dims]int
	pinned []pin
	pods   []int
	ports  []HostPort
	// hostCounts counts, per hostname-keyed counter, the pods on c it
	// counts; nil until the first.
	hostCounts map[int32]int32
	// resv is the capacity reservation c's committed type launches on.
	resv      reservation
	hasResv   bool
	resvUnits int
	gone      bool       // merged into another claim (see merge)
	twin      twinTry    // tryRoom's and minValues's answers kept for a run of twins (twins.go)
	slack     slackEntry // where c is in the run's slack index (slack.go)
	mv        mergeView  // set and kept by merge
}

// The sentinels of a claim's fields.
const (
	// untyped is the cheap of a claim without pods: it has no type yet.
	untyped = -1
	// unadopted is the id of a claim tried but not adopted (see
	// claim.adopt): it sorts before every adopted claim's id.
	unadopted = -1
)

// typed reports whether c has a type: whether it holds a pod. Every claim
// of run.claims does; only a tried empty claim does not.
func (c *claim) typed() bool { return c.cheap != untyped }

// price is the price of c's cheapest type, 0 when it has none.
func (c *claim) price() instancetypes.Price {
	if !c.typed() {
		return 0
	}
	return c.pl.price[c.cheap]
}

// emptyClaim is a claim of pool pl (index pi) with no pods, untyped and
// unadopted: the pool's requirements, and every type of the pool a
// candidate, in the pool's own set until commit narrows it.
func emptyClaim(pl *pool, pi int) claim {
	return claim{id: unadopted, pl: pl, pi: pi, reqs: pl.reqs, zone: pl.zone, pairs: pl.pairs, pairsOK: true, cand: pl.all, cheap: untyped, maxAlloc: pl.maxAlloc}
}

// zoneValue is a requirement set's one zone, if it allows exactly one.
type zoneValue struct {
	value string
	one   bool
}

func zoneOf(reqs requirements.Set) zoneValue {
	v, one := oneValue(reqs.Get(requirements.LabelZone))
	return zoneValue{v, one}
}

// oneValue is the value req allows when it allows exactly one (In of one
// value).
func oneValue(req requirements.Requirement) (string, bool) {
	if req.Operator() == requirements.In && req.Len() == 1 {
		return req.Any()
	}
	return "", false
}

// setReqs makes reqs c's requirements.
func (c *claim) setReqs(reqs requirements.Set) {
	c.reqs, c.zone, c.pairsOK = reqs, zoneOf(reqs), false
}

// claimPairs is c.pairs, read out first if need be.
func (c *claim) claimPairs() uint64 {
	if !c.pairsOK {
		c.pairs, c.pairsOK = c.pl.allowedBy(c.reqs), true
	}
	return c.pairs
}

// reset makes c, a claim of run.fresh, an empty claim of pool pl (index
// pi) again (see emptyClaim), to be tried without allocating.
func (c *claim) reset(pl *pool, pi int) { *c = emptyClaim(pl, pi) }

// probeClaim is the claim of a slackIndex's scan pivot: unadopted, it
// sorts before every claim of the same slack (see lessSlack). It has no
// pool: nothing reads it but its id.
func probeClaim() claim { return claim{id: unadopted} }

// adopt makes into a copy of the tried empty claim c as the run's claim
// id, not yet named (see run.hostname). Its candidate set is still the
// pool's, shared: commit replaces it before narrowing.
func (c *claim) adopt(into *claim, id int) {
	*into = *c
	into.id, into.name = id, ""
	into.maxCount = into.pl.all.Len()
}

// rename gives c its index among the run's claims; its name follows (see
// run.hostname).
func (c *claim) rename(id int) { c.id, c.name = id, "" }

// nameOf is the name of the claim of pool pl at index id of a run, its
// node's hostname: its pool's name and its position, from 1, past the
// numbers that existing nodes' names or hostnames take (pool.claimNumber).
func nameOf(pl *pool, id int) string { return pl.np.Name + "-" + strconv.Itoa(pl.claimNumber(id)) }

// claimNumber is the number in the name of the claim at index id: id+1,
// or, where an existing node is named (or has the hostname) of the pool's
// name and a number (pool.taken), the (id+1)-th number no node takes. A
// claim's hostname is a new node's: were it a node's too, the pods
// counted on that node would count on the claim, and a pod that must
// (or must not) share a node with them would be placed on one that does
// not (or kept off one that could take it).
func (pl *pool) claimNumber(id int) int {
	if len(pl.taken) == 0 {
		return id + 1
	}
	// The least n with id+1 numbers up to n that no node takes: the free
	// numbers up to n grow with n, and it lies within len(taken) past id+1.
	return id + 1 + sort.Search(len(pl.taken)+1, func(k int) bool {
		n := id + 1 + k
		return n-sort.SearchInts(pl.taken, n+1) >= id+1
	})
}

// takeNames records in each pool's taken the numbers of the names "pool-N"
// that nodes have as their name or hostname (labels, per node).
func takeNames(pools []*pool, nodes []Node, labels []map[string]string) {
	for _, pl := range pools {
		prefix := pl.np.Name + "-"
		for i := range nodes {
			for _, h := range [2]string{nodes[i].Name, labels[i][requirements.LabelHostname]} {
				if n, ok := claimNumberOf(h, prefix); ok {
					pl.taken = append(pl.taken, n)
				}
			}
		}
		slices.Sort(pl.taken)
		pl.taken = slices.Compact(pl.taken)
	}
}

// claimNumberOf is N when name is prefix followed by N, a positive number
// as strconv.Itoa writes it (no sign, no leading zero).
func claimNumberOf(name, prefix string) (int, bool) {
	rest, ok := strings.CutPrefix(name, prefix)
	if !ok || rest == "" || rest[0] < '1' || rest[0] > '9' || len(rest) > 18 {
		return 0, false // no sign, no leading zero
	}
	n, err := strconv.Atoi(rest)
	return n, err == nil
}

// setPos records c's index in run.byPods.
func (c *claim) setPos(i int) { c.pos = i }

// grow records that c holds need on its cheapest type cheap, with the
// candidates cand and the trim cuts cut that go with it (see narrowed),
// and returns the type c had before, for usage.charge.
func (c *claim) grow(need resources.List, cheap int, cand bitset.Set, cut [dims]int) (from int) {
	from = c.cheap
	c.used, c.cheap, c.cand, c.cut = need, cheap, cand, cut
	return from
}

// add puts pod i, binding ports, on c.
func (c *claim) add(i int, ports []HostPort) {
	c.ports = append(c.ports, ports...)
	c.pods = append(c.pods, i)
}

// constrain folds a pod's node requirements reqs, of signature sig, into
// c's, once per signature.
func (c *claim) constrain(sig int32, reqs requirements.Set) {
	if !slices.Contains(c.sigs, sig) {
		c.setReqs(c.reqs.Intersect(reqs))
		c.sigs = append(c.sigs, sig)
	}
}

// fix folds pin p, which c has not taken yet, into c's requirements.
func (c *claim) fix(p pin) {
	c.setReqs(c.reqs.Intersect(labelSet(p.key, p.value)))
	c.pinned = append(c.pinned, p)
}

// coreRoom is the first, cheap part of c.used.Add(req).Fits(c.maxAlloc):
// false when the cpu or the memory alone is short.
func (c *claim) coreRoom(req *resources.List) bool {
	return c.used.CPU+req.CPU <= c.maxAlloc.CPU && c.used.Memory+req.Memory <= c.maxAlloc.Memory
}

// countHost counts one more pod on c that hostname-keyed counter m
// counts, and reports whether it is the first.
func (c *claim) countHost(m int32) bool {
	if c.hostCounts == nil {
		c.hostCounts = map[int32]int32{}
	}
	c.hostCounts[m]++
	return c.hostCounts[m] == 1
}

// release drops c's reservation hold and returns the reservation, if c
// held one.
func (c *claim) release() (reservation, bool) {
	if !c.hasResv {
		return reservation{}, false
	}
	c.hasResv = false
	return c.resv, true
}

// hold records that c's committed type launches on reservation key, which
// has units units.
func (c *claim) hold(key reservation, units int) {
	c.resv, c.hasResv, c.resvUnits = key, true, units
}

// refreshMaxAlloc recomputes the claim's bound on its types' allocatable
// once its candidates have halved since the last time; in between the old,
// larger bound stays a valid (if looser) quick reject.
func (c *claim) refreshMaxAlloc() {
	n := c.cand.Len()
	if c.maxCount != 0 && n > c.maxCount/2 {
		return
	}
	// Only the core dimensions are tightened; the pool's extended maxima
	// stay a valid bound and keep this allocation-free.
	m := c.pl.maxAlloc
	c.maxCount = n
	m.CPU, m.Memory, m.EphemeralStorage, m.Pods = 0, 0, 0, 0
	for t := c.cand.Next(0); t >= 0; t = c.cand.Next(t + 1) {
		a := &c.pl.alloc[t]
		m.CPU, m.Memory = max(m.CPU, a.CPU), max(m.Memory, a.Memory)
		m.EphemeralStorage, m.Pods = max(m.EphemeralStorage, a.EphemeralStorage), max(m.Pods, a.Pods)
	}
	c.maxAlloc = m
}

// setMergeView keeps mv as c's merge view (see run.mergeView).
func (c *claim) setMergeView(mv mergeView) { c.mv = mv }

// merged is what a claim becomes when it absorbs another: the merged
// requirements, candidates, trim cuts and requests, and its merge view.
type merged struct {
	reqs requirements.Set
	cand bitset.Set
	cut  [dims]int
	need resources.List
	view mergeView
}

// absorb moves b's pods into c, which becomes j, its committed type the
// first of j's candidates; b is marked gone, for merge to drop. It returns
// the types c and b had, for usage.join.
func (c *claim) absorb(b *claim, j merged) (fromC, fromB int) {
	c.twin = twinTry{} // c changes: an answer kept for it is stale
	fromC, fromB = c.cheap, b.cheap
	c.setReqs(j.reqs)
	c.cand, c.cheap, c.used = j.cand, j.cand.Next(0), j.need
	c.cut, c.mv = j.cut, j.view
	c.pods = append(c.pods, b.pods...)
	c.ports = append(c.ports, b.ports...)
	for _, sig := range b.sigs {
		if !slices.Contains(c.sigs, sig) {
			c.sigs = append(c.sigs, sig)
		}
	}
	for _, p := range b.pinned {
		if !slices.Contains(c.pinned, p) {
			c.pinned = append(c.pinned, p)
		}
	}
	b.gone = true
	return fromC, fromB
}

// adopt makes c, a claim materialize returned, one of the run's open
// claims, counted as a node of its pool.
func (r *run) adopt(c *claim) {
	r.claims = append(r.claims, c)
	if !r.cost { // only Plain takes claims in Karpenter's order
		c.setPos(len(r.byPods))
		r.byPods = append(r.byPods, c)
	}
	r.use.open(c.pi)
}

// exactOrderClaims is how many open claims Plain keeps in exactly
// Karpenter's order; past it, the order is kept incrementally.
const exactOrderClaims = 256

// orderClaims puts Plain's claims fewest pods first. Karpenter sorts its
// in-flight claims so before every try, with sort.Slice: the same unstable
// sort (sortByPods), called at the same points, leaves claims with equal
// counts in Karpenter's order. A restart shuffles them first, so that claims with
// equal counts come in a random order. That costs a pass over the claims
// per pod, so past exactOrderClaims bubble moves each claim that gains a
// pod past those with fewer (or as many, older) instead, and new claims
// join at the end: nearly the same order, without the per-pod pass.
func (r *run) orderClaims() {
	if len(r.byPods) > exactOrderClaims {
		return
	}
	r.shuffleClaims()
	sortByPods(r.byPods)
	for i, c := range r.byPods {
		c.setPos(i)
		if r.tie != nil && i > 0 && len(r.byPods[i-1].pods) == len(c.pods) {
			r.tied()
		}
	}
}

// sortByPods sorts claims fewest pods first, unstably, exactly as Karpenter's
// sort.Slice does: slices.SortFunc runs the same pattern-defeating
// quicksort (both are generated from one template), without sort.Slice's
// allocation (TestSortByPodsAsSortSlice).
func sortByPods(claims []*claim) {
	slices.SortFunc(claims, func(a, b *claim) int { return cmp.Compare(len(a.pods), len(b.pods)) })
}

// bubble moves c, which gained a pod, past the claims with fewer pods or as
// many and older, keeping byPods ordered by count, then age.
func (r *run) bubble(c *claim) {
	i := c.pos
	for i+1 < len(r.byPods) && fewer(r.byPods[i+1], c) {
		r.byPods[i], r.byPods[i+1] = r.byPods[i+1], c
		r.byPods[i].setPos(i)
		i++
	}
	c.setPos(i)
}

// fewer reports whether a comes before b in Plain's order: fewer pods, or
// as many and older.
func fewer(a, b *claim) bool {
	return len(a.pods) < len(b.pods) || (len(a.pods) == len(b.pods) && a.id < b.id)
}

// shuffleClaims shuffles Plain's claims in a restart.
func (r *run) shuffleClaims() {
	if r.tie != nil {
		r.tie.Shuffle(len(r.byPods), func(a, b int) { r.byPods[a], r.byPods[b] = r.byPods[b], r.byPods[a] })
	}
}

// compact drops the claims merged away (see claim.absorb) and, when there
// were any, renumbers and renames the rest in order, so that names stay
// "<pool>-1" onwards without gaps, and moves their pods with them.
func (r *run) compact() {
	n := len(r.claims)
	r.claims = slices.DeleteFunc(r.claims, func(c *claim) bool { return c.gone })
	if len(r.claims) == n {
		return
	}
	for i, c := range r.claims {
		c.rename(i)
		for _, p := range c.pods {
			r.moved(p, placement{onClaim, int32(i)})
		}
	}
}
