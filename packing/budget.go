package packing

import (
	"cmp"
	"context"
	"math"
	"slices"

	"github.com/nodeplan/nodeplan/instancetypes"
)

// maxPreferenceSolves bounds the solves with which one BudgetPreferences
// Solve decides which terms to honour, and again those with which it
// measures the report: 128 in all. Each is a full Solve of the problem
// with some preferred terms relaxed up front; no set of terms is solved
// twice.
const maxPreferenceSolves = 64

// budgetSearch is one BudgetPreferences solve: the problem's preferred
// terms and the plans solved so far, by the set of terms they honour.
type budgetSearch struct {
	ctx     context.Context
	prob    *Problem
	opts    Options
	vouched vouched
	hooks   hooks
	terms   []PreferenceTerm
	pods    []int // per term, how many pending pods have it
	plans   map[string]Plan
	// solves counts the solves made, at most limit.
	solves, limit int
}

// honoured is a set of terms, by index into budgetSearch.terms.
type honoured []bool

func (h honoured) key() string {
	b := make([]byte, len(h))
	for i, on := range h {
		b[i] = '0'
		if on {
			b[i] = '1'
		}
	}
	return string(b)
}

// with returns a copy of h with term t honoured or not.
func (h honoured) with(t int, on bool) honoured {
	c := slices.Clone(h)
	c[t] = on
	return c
}

func (h honoured) all(on bool) honoured {
	c := make(honoured, len(h))
	for i := range c {
		c[i] = on
	}
	return c
}

// solveBudget is Solve under BudgetPreferences for the valid problem p:
// it solves ignoring every preferred term (the reference price C0) and
// honouring every one (Respect); while the plan costs more than
// (1 + PreferenceBudget) × C0 or leaves more pods out than the reference,
// it relaxes the honoured term whose relaxation lowers the price most
// (more pods placed first, then the larger saving, then the term order)
// and solves again; once it fits, it honours again each relaxed term,
// last relaxed first, with which the plan still fits. Every solve is
// Solve with the same options, so the
// result is deterministic. At most maxPreferenceSolves solves decide:
// when the next round of measures does not fit, the term dearest at the
// last measure (else the one most pods have) is relaxed without
// measuring, and when no solve is left, every term is relaxed (the
// reference plan, which always fits). The returned plan carries the
// per-term report (see PreferenceCost), measured with at most
// maxPreferenceSolves more.
func solveBudget(ctx context.Context, p *Problem, o Options, vd vouched, hk hooks) (Plan, error) {
	var plan Plan
	err := guard(func() error {
		var err error
		plan, err = searchBudget(ctx, p, o, vd, hk)
		return err
	})
	if err != nil {
		return Plan{}, err
	}
	return plan, nil
}

// searchBudget is solveBudget without its guard against panics.
func searchBudget(ctx context.Context, p *Problem, o Options, vd vouched, hk hooks) (Plan, error) {
	terms, pods := preferenceTerms(p)
	b := &budgetSearch{ctx: ctx, prob: p, opts: o, vouched: vd, hooks: hk, terms: terms, pods: pods, plans: map[string]Plan{},
		limit: maxPreferenceSolves}
	none := make(honoured, len(terms))
	ref, err := b.solve(none)
	if err != nil || len(terms) == 0 {
		return ref, err
	}
	limit := budgetLimit(ref.Price, o.PreferenceBudget)
	fits := func(pl Plan) bool { return len(pl.Unschedulable) <= len(ref.Unschedulable) && pl.Price <= limit }
	h, relaxed, err := b.decide(none.all(true), fits)
	if err == nil {
		h, err = b.restore(h, relaxed, fits)
	}
	if err != nil {
		return Plan{}, err
	}
	plan := b.plans[h.key()]
	b.limit = b.solves + maxPreferenceSolves
	if plan.Preferences, err = b.report(h); err != nil {
		return Plan{}, err
	}
	return plan, nil
}

// budgetLimit is c × (1 + f), rounded down, at most MaxPrice.
func budgetLimit(c instancetypes.Price, f float64) instancetypes.Price {
	extra := math.Floor(float64(c) * f)
	if extra >= float64(instancetypes.MaxPrice-c) {
		return instancetypes.MaxPrice
	}
	return c + instancetypes.Price(extra)
}

// saving is what relaxing a term saves: pods placed, then price.
type saving struct {
	pods  int
	price instancetypes.Price
	known bool
}

func compareSavings(a, b saving) int {
	return cmp.Or(cmp.Compare(a.pods, b.pods), cmp.Compare(a.price, b.price))
}

// decide relaxes terms of h, dearest first, until the plan fits, and
// returns the terms left honoured and those it relaxed, in order.
func (b *budgetSearch) decide(h honoured, fits func(Plan) bool) (honoured, []int, error) {
	cur, err := b.solve(h)
	savings := make([]saving, len(h))
	var relaxed []int
	for err == nil && !fits(cur) {
		live := b.live(h)
		switch {
		case b.solves >= b.limit:
			return h.all(false), nil, nil // the reference plan, solved first
		case b.solves+b.unsolved(h, live) <= b.limit:
			err = b.measure(h, cur, live, savings)
		}
		if err == nil {
			t := dearest(live, savings, b.pods)
			relaxed = append(relaxed, t)
			h = h.with(t, false)
			cur, err = b.solve(h)
		}
	}
	return h, relaxed, err
}

// restore honours again, one at a time, the relaxed terms (latest relaxed,
// so cheapest, first) with which the plan still fits, while solves are
// left: a term that cost much beside one relaxed after it may cost little
// without it.
func (b *budgetSearch) restore(h honoured, relaxed []int, fits func(Plan) bool) (honoured, error) {
	for i := len(relaxed) - 1; i >= 0 && b.solves < b.limit; i-- {
		pl, err := b.solve(h.with(relaxed[i], true))
		if err != nil {
			return h, err
		}
		if fits(pl) {
			h = h.with(relaxed[i], true)
		}
	}
	return h, nil
}

// live returns the terms h honours.
func (b *budgetSearch) live(h honoured) []int {
	var out []int
	for t, on := range h {
		if on {
			out = append(out, t)
		}
	}
	return out
}

// unsolved counts the sets h less one live term not solved yet.
func (b *budgetSearch) unsolved(h honoured, live []int) int {
	n := 0
	for _, t := range live {
		if _, ok := b.plans[h.with(t, false).key()]; !ok {
			n++
		}
	}
	return n
}

// measure records in savings what relaxing each live term of h saves on
// cur, the plan of h.
func (b *budgetSearch) measure(h honoured, cur Plan, live []int, savings []saving) error {
	for _, t := range live {
		pl, err := b.solve(h.with(t, false))
		if err != nil {
			return err
		}
		savings[t] = saving{pods: len(cur.Unschedulable) - len(pl.Unschedulable), price: cur.Price - pl.Price, known: true}
	}
	return nil
}

// dearest is the live term whose relaxation saves most by the last
// measure; terms never measured come after those measured, those more
// pods have first; ties go to the earlier term.
func dearest(live []int, savings []saving, pods []int) int {
	best := live[0]
	for _, t := range live[1:] {
		a, b := savings[t], savings[best]
		switch {
		case a.known != b.known:
			if a.known {
				best = t
			}
		case a.known && compareSavings(a, b) > 0, !a.known && pods[t] > pods[best]:
			best = t
		}
	}
	return best
}

// report measures what honouring each term adds to the plan of h, the
// others as h has them.
func (b *budgetSearch) report(h honoured) ([]PreferenceCost, error) {
	out := make([]PreferenceCost, len(b.terms))
	for t := range b.terms {
		out[t] = PreferenceCost{Term: b.terms[t], Pods: b.pods[t], Honoured: h[t]}
		on, okOn, err := b.lookup(h.with(t, true))
		if err != nil {
			return nil, err
		}
		off, okOff, err := b.lookup(h.with(t, false))
		if err != nil {
			return nil, err
		}
		if okOn && okOff {
			out[t].Measured, out[t].Cost = true, on.Price-off.Price
		}
	}
	return out, nil
}

// lookup returns the plan of h, solving it while solves are left; ok is
// false when none is.
func (b *budgetSearch) lookup(h honoured) (pl Plan, ok bool, err error) {
	if pl, ok := b.plans[h.key()]; ok {
		return pl, true, nil
	}
	if b.solves >= b.limit {
		return Plan{}, false, nil
	}
	pl, err = b.solve(h)
	return pl, err == nil, err
}

// solve returns the plan of h, solving it once: honouring every term is
// RespectPreferences, honouring none IgnorePreferences, and anything
// between Respect with the other terms relaxed up front.
func (b *budgetSearch) solve(h honoured) (Plan, error) {
	k := h.key()
	if pl, ok := b.plans[k]; ok {
		return pl, nil
	}
	o := b.opts
	o.Preferences, o.PreferenceBudget = RespectPreferences, 0
	var drop map[PreferenceTerm]bool
	switch live := len(b.live(h)); {
	case live == 0:
		o.Preferences = IgnorePreferences
	case live < len(h):
		drop = map[PreferenceTerm]bool{}
		for t, on := range h {
			if !on {
				drop[b.terms[t]] = true
			}
		}
	}
	b.solves++
	pl, err := solveValid(b.ctx, b.prob, o, b.vouched, b.hooks, drop)
	if err != nil {
		return Plan{}, err
	}
	b.plans[k] = pl
	return pl, nil
}
