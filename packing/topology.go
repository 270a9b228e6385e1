package packing

import (
	"slices"

	"github.com/nodeplan/nodeplan/internal/bitset"
	"github.com/nodeplan/nodeplan/requirements"
	"github.com/nodeplan/nodeplan/resources"
)

// counts are a run's topology counts, written only by the methods in this
// file (and made by newCounts).
type counts struct {
	// dcounts and others count, per counter, the pods it counts in each
	// domain, each domain in one of them (see tally): dcounts the known
	// domains of a key other than the hostname, by their index in
	// static.domains; others, a map made on first use, the rest. total
	// is their sum per counter, kept so that "does any pod count" is O(1).
	dcounts [][]int32
	others  []map[string]int32
	total   []int32
	anti    []map[string]int32 // per counter: domain -> pods whose required anti-affinity uses it
	// hostTaken counts, per counter, the claims holding a pod it counts.
	hostTaken []int32
	// gen changes whenever a memoized minCount may change: at every
	// placement attempt and every recorded pod. minMemo holds, per
	// counter, the last minCount computed.
	gen     uint64
	minMemo []minEntry
	// work counts the domains and types the topology checks visit, so
	// that a test can bound their cost without a clock.
	work int
}

// newCounts are the counts of a run before any pod is counted.
func newCounts(s *static) counts {
	n := len(s.counters)
	c := counts{others: make([]map[string]int32, n), hostTaken: make([]int32, n), minMemo: make([]minEntry, n),
		total: make([]int32, n), dcounts: make([][]int32, n),
		anti: make([]map[string]int32, n)} // each made on first use (markAnti)
	for i, k := range s.counters {
		if k.key != requirements.LabelHostname {
			c.dcounts[i] = make([]int32, len(s.domains[k.key]))
		}
	}
	return c
}

// target is where a pod may go: an existing node or a claim.
type target struct {
	node  *nodeT
	claim *claim
}

// domain returns the target's value for a topology key, pins first; a
// claim whose requirement still allows several values has none yet.
func (r *run) domain(t target, key string, pins []pin) (string, bool) {
	for _, p := range pins {
		if p.key == key {
			return p.value, true
		}
	}
	if t.node != nil {
		v, ok := t.node.labels[key]
		return v, ok
	}
	if key == requirements.LabelHostname {
		return r.hostname(t.claim), true
	}
	if key == requirements.LabelZone {
		return t.claim.zone.value, t.claim.zone.one
	}
	return oneValue(t.claim.reqs.Get(key))
}

// carries reports whether c can take a value of key: its requirements
// (its pool's, with its pods') name the key, or its pool may leave the key
// undefined (a well-known label, one of its types' labels, the hostname),
// which the launch settles. A claim never takes a custom label its pool
// does not define, whatever values existing nodes have, as Karpenter's
// claims never do: a pod spread or drawn to a domain of such a key cannot
// go on it, and a pod only counted by one is in no domain there.
func (c *claim) carries(key string) bool { return c.reqs.Has(key) || c.pl.allowUndefined(key) }

// topology checks the pod's active constraints and the inverse
// anti-affinity of placed pods against t. For a claim it also fixes, as
// pins, the domain of every topology key the pod is constrained or counted
// by. The pins are in r.scratch.pins, a scratch buffer the next call reuses: a
// caller copies what it keeps (see tryClaim).
func (r *run) topology(v view, t target) ([]pin, bool) {
	pins := r.scratch.pins[:0]
	defer func() { r.scratch.pins = pins[:0] }()
	for _, c := range v.cons {
		key := r.s.counters[c.counter].key
		d, ok := r.domain(t, key, pins)
		switch {
		case ok && !r.satisfied(v, c, d):
			return nil, false
		case !ok && (t.claim == nil || !t.claim.carries(key)):
			if c.kind != antiKind { // a node without the key is in no domain
				return nil, false
			}
		case !ok:
			if d, ok = r.choose(v, c, t.claim, pins); !ok {
				return nil, false
			}
			pins = append(pins, pin{key, d})
		}
	}
	return r.countedPins(v, t, pins)
}

// countedPins fixes the domains of the keys the pod is counted by, avoiding
// domains where a placed pod's required anti-affinity forbids it.
func (r *run) countedPins(v view, t target, pins []pin) ([]pin, bool) {
	for _, m := range v.info.matches {
		key := r.s.counters[m].key
		d, ok := r.domain(t, key, pins)
		if !ok && t.claim != nil && t.claim.carries(key) {
			if d, ok = r.chooseFree(v, m, t.claim, pins); !ok {
				return nil, false
			}
			pins = append(pins, pin{key, d})
		}
		if ok && r.counts.anti[m][d] > 0 {
			return nil, false
		}
	}
	return pins, true
}

// satisfied reports whether placing the pod in domain d keeps constraint c.
func (r *run) satisfied(v view, c constraint, d string) bool {
	key := r.s.counters[c.counter].key
	if c.kind != spreadKind || key == requirements.LabelHostname {
		return r.holds(c, r.domainCount(c.counter, d))
	}
	i, known := slices.BinarySearch(r.s.domains[key], d)
	return known && r.spreadHolds(v, c, key, i)
}

// holds reports whether a domain where n placed pods count for c keeps c,
// for an anti-affinity or affinity term or a spread on hostnames.
func (r *run) holds(c constraint, n int32) bool {
	switch c.kind {
	case antiKind:
		return n == 0
	case affinityKind:
		if r.counts.total[c.counter] > 0 {
			return n > 0
		}
		// As kube-scheduler (not Karpenter) rules, the first pod of a
		// self-affine group may go anywhere only when no matching pod
		// runs at all, even in a domain this pod cannot reach.
		return c.self
	}
	return n+selfCount(c.self) <= c.maxSkew
}

// spreadHolds reports whether the spread c, on a key other than hostname,
// holds with the pod in the known domain i of key (r.s.domains[key][i]).
// It costs O(1) but, once per counter and placement, O(domains) (see
// minCount).
func (r *run) spreadHolds(v view, c constraint, key string, i int) bool {
	return r.minCount(v, c, key).holds(c, r.counts.dcounts[c.counter][i], i)
}

// holds reports whether the spread c, for which m was computed, holds with
// the pod in domain i, where n pods count.
func (m *minEntry) holds(c constraint, n int32, i int) bool {
	return m.eligible.Has(i) && n+selfCount(c.self)-m.lo <= c.maxSkew
}

// minCount returns the domains of key eligible for the pod under c (those
// its required node affinity allows, under nodeAffinityPolicy Honor, and
// its tolerations, under nodeTaintsPolicy Honor) and the least count over
// them (0 when fewer than minDomains). Neither depends on the domain
// tried, so they are computed once per counter while the counts and the
// pod stay the same (see minEntry): a spread over many domains, such as
// instance types, then costs one pass over them per placement, not one per
// domain tried.
func (r *run) minCount(v view, c constraint, key string) *minEntry {
	m := &r.counts.minMemo[c.counter]
	if m.gen == r.counts.gen && m.honorAff == c.honorAff && m.honorTaint == c.honorTaint && m.minDomains == c.minDomains {
		return m
	}
	counts, domains := r.counts.dcounts[c.counter], r.s.domains[key]
	lo, n := int32(1<<31-1), int32(0)
	own := v.info.ownAlt(int(v.alt))
	strict, honorAff := own.Get(key), c.honorAff && own.Has(key)
	elig := m.eligible
	if words := (len(domains) + 63) / 64; cap(elig) < words {
		elig = bitset.New(len(domains))
	} else {
		elig = elig[:words]
		elig.Clear()
	}
	for i, e := range domains {
		r.counts.work++
		if (honorAff && !strict.Has(e)) || (c.honorTaint && !r.s.tolerable(v.tols, pin{key, e})) {
			continue
		}
		elig.Add(i)
		lo, n = min(lo, counts[i]), n+1
	}
	if n < c.minDomains || n == 0 {
		lo = 0
	}
	*m = minEntry{gen: r.counts.gen, honorAff: c.honorAff, honorTaint: c.honorTaint, minDomains: c.minDomains, lo: lo, eligible: elig}
	return m
}

// minEntry is a memoized minCount of one counter, valid while r.counts.gen is
// gen and for a constraint with the same policies and minDomains.
type minEntry struct {
	gen                  uint64
	honorAff, honorTaint bool
	minDomains           int32
	lo                   int32
	eligible             bitset.Set // by index in static.domains
}

// candidates lists, in order, the indexes in r.s.domains[key] of the
// domains that claim c, the pod and some remaining type admit: a type of
// c compatible with the pod that admits pins and the domain, holds the
// claim's pods with this one within the pool's limits, and has an offering
// the claim, the pod, pins and the domain allow. Each domain's test stops
// at the first such type: it scans c's types for zone and capacity type
// (whose pins narrow the offerings), else the domain's own types, so the
// work is O(domains + types) for a key whose domains split the types
// (instance type) and, as a claim's types already hold its pods, about
// O(domains) for zones. The result aliases a scratch buffer of r.
func (r *run) candidates(v view, c *claim, key string, pins []pin) []int {
	out := r.scratch.cands[:0]
	// An unconstrained key allows every value: its test is skipped.
	creq, preq := c.reqs.Get(key), v.reqs.Get(key)
	cAll, pAll := !c.reqs.Has(key), !v.reqs.Has(key)
	h := holder{r: r, c: c, cand: r.pinnedCand(v, c, pins), need: c.used.Add(v.info.req)}
	offerKey := key == requirements.LabelZone || key == requirements.LabelCapacityType
	if !offerKey {
		h.offers = r.newOfferFilter(v, c, pins)
	}
	bits := c.pl.pinList[key]
	// For a key whose domains do not narrow the types, one test serves
	// every domain: whether it ran, and its result.
	var tested, anyHolds bool
	for i, d := range r.s.domains[key] {
		r.counts.work++
		if !(cAll || creq.Has(d)) || !(pAll || preq.Has(d)) {
			continue
		}
		var ok bool
		switch {
		case offerKey:
			h.offers = r.newOfferFilter(v, c, pins, pin{key, d})
			ok = h.any(h.cand, nil)
		case bits == nil:
			if !tested {
				tested, anyHolds = true, h.any(h.cand, nil)
			}
			ok = anyHolds
		default:
			ok = h.any(bits[i], h.cand)
		}
		if ok {
			out = append(out, i)
		}
	}
	r.scratch.cands = out
	return out
}

// holder tests whether a type of claim c holds the pod: see candidates.
type holder struct {
	r      *run
	c      *claim
	cand   bitset.Set // c's types compatible with the pod and the pins
	need   resources.List
	offers offerFilter
}

// any reports whether some type of scan (and of within, when not nil)
// holds the pod. It stops at the first.
func (h *holder) any(scan, within bitset.Set) bool {
	for t := scan.Next(0); t >= 0; t = scan.Next(t + 1) {
		h.r.counts.work++
		if (within == nil || within.Has(t)) && h.need.Fits(h.c.pl.alloc[t]) && h.r.use.within(h.c, t) && h.offers.admits(t) {
			return true
		}
	}
	return false
}

// choose picks the domain of an unpinned claim for constraint c: the least
// loaded valid domain for spread, the fullest for affinity, an empty one
// for anti-affinity; ties go to the first in order, or in a restart to a
// random one. O(domains) with slice lookups (see candidates).
func (r *run) choose(v view, c constraint, cl *claim, pins []pin) (string, bool) {
	key := r.s.counters[c.counter].key
	counts := r.counts.dcounts[c.counter]
	var spread *minEntry
	if c.kind == spreadKind {
		spread = r.minCount(v, c, key)
	}
	best, n := 0, 0
	for _, i := range r.candidates(v, cl, key, pins) {
		if (spread != nil && !spread.holds(c, counts[i], i)) || (spread == nil && !r.holds(c, counts[i])) {
			continue
		}
		switch {
		case n == 0 || (c.kind == spreadKind && counts[i] < counts[best]) || (c.kind == affinityKind && counts[i] > counts[best]):
			best, n = i, 1
		case counts[i] == counts[best]: // every domain anti-affinity allows counts 0
			if n++; r.pick(n) {
				best = i
			}
		}
	}
	if n == 0 {
		return "", false
	}
	return r.s.domains[key][best], true
}

// chooseFree picks the domain for a key the pod is only counted by: the
// first one no placed pod's anti-affinity forbids, or in a restart a
// random one.
func (r *run) chooseFree(v view, m int32, cl *claim, pins []pin) (string, bool) {
	key := r.s.counters[m].key
	best, n := "", 0
	for _, i := range r.candidates(v, cl, key, pins) {
		d := r.s.domains[key][i]
		if r.counts.anti[m][d] != 0 {
			continue
		}
		if n++; n == 1 || r.pick(n) {
			best = d
		}
		if r.tie == nil {
			break
		}
	}
	return best, n > 0
}

// forgetMinCounts drops every memoized minCount (see minEntry), as a new
// pod, or a new view of one, is to be placed.
func (r *run) forgetMinCounts() { r.counts.gen++ }

// record counts the placed pod in the domains of t.
func (r *run) record(v view, t target, pins []pin) {
	r.counts.gen++
	for _, m := range v.info.matches {
		key := r.s.counters[m].key
		if d, ok := r.domain(t, key, pins); ok {
			r.tally(m, d)
		}
		if key == requirements.LabelHostname && t.claim != nil {
			if t.claim.countHost(m) {
				r.counts.hostTaken[m]++
			}
		}
	}
	for _, c := range v.cons {
		if c.kind == antiKind && !c.soft {
			if d, ok := r.domain(t, r.s.counters[c.counter].key, pins); ok {
				r.markAnti(c.counter, d)
			}
		}
	}
}

// markAnti counts one more pod in domain d whose required anti-affinity
// uses counter m; the counter's map is made on first use (reads of a nil
// map find 0).
func (r *run) markAnti(m int32, d string) {
	if r.counts.anti[m] == nil {
		r.counts.anti[m] = map[string]int32{}
	}
	r.counts.anti[m][d]++
}

// tally counts one more pod of counter m in domain d.
func (r *run) tally(m int32, d string) {
	r.counts.total[m]++
	if i, ok := r.domainIndex(m, d); ok {
		r.counts.dcounts[m][i]++
		return
	}
	if r.counts.others[m] == nil {
		r.counts.others[m] = map[string]int32{}
	}
	r.counts.others[m][d]++
}

// domainCount returns the pods counter m counts in domain d.
func (r *run) domainCount(m int32, d string) int32 {
	if i, ok := r.domainIndex(m, d); ok {
		return r.counts.dcounts[m][i]
	}
	return r.counts.others[m][d]
}

// domainIndex returns the index of d among the known domains of counter
// m's key, and false for a domain of the hostname (whose counts are all
// in run.others) or one static.domains does not know. O(log domains).
func (r *run) domainIndex(m int32, d string) (int, bool) {
	key := r.s.counters[m].key
	if key == requirements.LabelHostname {
		return 0, false
	}
	return slices.BinarySearch(r.s.domains[key], d)
}
