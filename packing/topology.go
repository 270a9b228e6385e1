package packing

import "github.com/nodeplan/nodeplan/requirements"

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
		return t.claim.name, true
	}
	req := t.claim.reqs.Get(key)
	if req.Operator() == requirements.In && req.Len() == 1 {
		v, _ := req.Any()
		return v, true
	}
	return "", false
}

// topology checks the pod's active constraints and the inverse
// anti-affinity of placed pods against t. For a claim it also fixes, as
// pins, the domain of every topology key the pod is constrained or counted
// by. The pins alias r.pins.
func (r *run) topology(v view, t target) ([]pin, bool) {
	pins := r.pins[:0]
	defer func() { r.pins = pins[:0] }()
	for _, c := range v.cons {
		key := r.s.counters[c.counter].key
		d, ok := r.domain(t, key, pins)
		switch {
		case ok && !r.satisfied(v, c, d):
			return nil, false
		case !ok && t.claim == nil:
			if c.kind != antiKind {
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
		if !ok && t.claim != nil {
			if d, ok = r.chooseFree(v, m, t.claim, pins); !ok {
				return nil, false
			}
			pins = append(pins, pin{key, d})
		}
		if ok && r.anti[m][d] > 0 {
			return nil, false
		}
	}
	return pins, true
}

// satisfied reports whether placing the pod in domain d keeps constraint c.
func (r *run) satisfied(v view, c constraint, d string) bool {
	counts := r.counts[c.counter]
	switch c.kind {
	case antiKind:
		return counts[d] == 0
	case affinityKind:
		if r.anyCounted(c) {
			return counts[d] > 0
		}
		return c.self
	}
	self := int32(0)
	if c.self {
		self = 1
	}
	key := r.s.counters[c.counter].key
	if key == requirements.LabelHostname {
		return counts[d]+self <= c.maxSkew
	}
	lo, ok := r.minCount(v, c, key, d)
	return ok && counts[d]+self-lo <= c.maxSkew
}

// minCount is the least count over the domains eligible for the pod (0
// when fewer than minDomains), and whether d is one of them.
func (r *run) minCount(v view, c constraint, key, d string) (int32, bool) {
	counts := r.counts[c.counter]
	lo, n, member := int32(1<<31-1), int32(0), false
	strict := v.strict.Get(key)
	for _, e := range r.s.domains[key] {
		if (c.honorAff && !strict.Has(e)) || (c.honorTaint && !r.s.tolerable(v.tols, pin{key, e})) {
			continue
		}
		lo, n, member = min(lo, counts[e]), n+1, member || e == d
	}
	if n < c.minDomains || n == 0 {
		lo = 0
	}
	return lo, member
}

// anyCounted reports whether some pod counted by c's counter is placed
// anywhere. As kube-scheduler (not Karpenter) rules, the first pod of a
// self-affine group may go anywhere only when no matching pod runs at all,
// even in a domain this pod cannot reach.
func (r *run) anyCounted(c constraint) bool {
	for _, n := range r.counts[c.counter] {
		if n > 0 {
			return true
		}
	}
	return false
}

// candidates lists, in order, the domains of key that claim c, the pod and
// some remaining type admit. The result aliases a scratch buffer of r.
func (r *run) candidates(v view, c *claim, key string, pins []pin) []string {
	out := r.cands[:0]
	creq, preq := c.reqs.Get(key), v.reqs.Get(key)
	compat := r.bits[v.sig][c.pi]
	for _, d := range r.s.domains[key] {
		if creq.Has(d) && preq.Has(d) && r.typeAdmits(v, c, compat, pins, pin{key, d}) {
			out = append(out, d)
		}
	}
	r.cands = out
	return out
}

// typeAdmits reports whether some candidate type of c is compatible with the
// pod and admits the pins and extra.
func (r *run) typeAdmits(v view, c *claim, compat interface{ Has(int) bool }, pins []pin, extra pin) bool {
	b, ok := c.pl.pins[extra]
	offers := r.newOfferFilter(v, c, pins, extra)
	for t := c.cand.Next(0); t >= 0; t = c.cand.Next(t + 1) {
		if compat.Has(t) && c.pl.pinned(pins, t) && (!ok || b.Has(t)) && offers.admits(t) {
			return true
		}
	}
	return false
}

// choose picks the domain of an unpinned claim for constraint c: the least
// loaded valid domain for spread, the fullest for affinity, an empty one
// for anti-affinity; ties go to the first in order, or in a restart to a
// random one.
func (r *run) choose(v view, c constraint, cl *claim, pins []pin) (string, bool) {
	counts := r.counts[c.counter]
	best, n := "", 0
	for _, d := range r.candidates(v, cl, r.s.counters[c.counter].key, pins) {
		if !r.satisfied(v, c, d) {
			continue
		}
		switch {
		case n == 0 || (c.kind == spreadKind && counts[d] < counts[best]) || (c.kind == affinityKind && counts[d] > counts[best]):
			best, n = d, 1
		case counts[d] == counts[best]: // every domain anti-affinity allows counts 0
			if n++; r.pick(n) {
				best = d
			}
		}
	}
	return best, n > 0
}

// chooseFree picks the domain for a key the pod is only counted by: the
// first one no placed pod's anti-affinity forbids, or in a restart a
// random one.
func (r *run) chooseFree(v view, m int32, cl *claim, pins []pin) (string, bool) {
	best, n := "", 0
	for _, d := range r.candidates(v, cl, r.s.counters[m].key, pins) {
		if r.anti[m][d] != 0 {
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

// record counts the placed pod in the domains of t.
func (r *run) record(v view, t target, pins []pin) {
	for _, m := range v.info.matches {
		key := r.s.counters[m].key
		if d, ok := r.domain(t, key, pins); ok {
			r.counts[m][d]++
		}
		if key == requirements.LabelHostname && t.claim != nil {
			if t.claim.hostCounts[m]++; t.claim.hostCounts[m] == 1 {
				r.hostTaken[m]++
			}
		}
	}
	for _, c := range v.cons {
		if c.kind == antiKind && !c.soft {
			if d, ok := r.domain(t, r.s.counters[c.counter].key, pins); ok {
				r.anti[c.counter][d]++
			}
		}
	}
}
