package consolidation

import (
	"cmp"
	"slices"

	"github.com/nodeplan/nodeplan/disruption"
	"github.com/nodeplan/nodeplan/instancetypes"
	"github.com/nodeplan/nodeplan/internal/sat"
	"github.com/nodeplan/nodeplan/packing"
	"github.com/nodeplan/nodeplan/requirements"
)

// spotToSpotTypes is Karpenter's MinInstanceTypesForSpotToSpotConsolidation.
const spotToSpotTypes = 15

// move is a simulated command before it is emitted.
type move struct {
	cands  []candidate
	sim    sim
	claims []packing.NodeClaim
}

// compute simulates deleting cands and returns the command Karpenter's
// computeConsolidation would: a delete when every pod finds an existing
// home, a replace when one cheaper NodeClaim is needed, or why neither.
// many allows several replacements (the repack).
func (s *state) compute(cands []candidate, method Method, many bool) (Command, *Explanation) {
	m, why := s.tryMove(s.o.Solver, cands, method == Repack)
	if why != nil {
		return Command{}, why
	}
	if len(m.claims) > 1 && !many {
		one, ok := s.oneClaim(cands)
		if !ok {
			return Command{}, s.why(cands, NoCheaperReplacement, "replacing needs %d new nodes", len(m.claims))
		}
		m = one
	}
	if len(m.claims) > 1 || len(m.claims) == 0 {
		return s.finish(m, method, m.claims)
	}
	claim, why := s.cheaper(m, method)
	if why != nil {
		return Command{}, why
	}
	return s.finish(m, method, []packing.NodeClaim{claim})
}

// oneClaim simulates cands again with Karpenter's packing rule
// (packing.Plain) when the solver, minimising price, spread the displaced
// pods over several new nodes: Karpenter's scheduler fills one NodeClaim
// while a type holds its pods, so where its rule needs at most one new
// node, one may do. It returns that move when it needs at most one; it
// does not simulate when room shows no cheaper node could do.
func (s *state) oneClaim(cands []candidate) (move, bool) {
	o := s.o.Solver
	if o.Strategy == packing.Plain || !s.roomForOne(cands) {
		return move{}, false
	}
	// Karpenter's scheduler: first fit, largest first also when a limit
	// binds, preferences respected.
	o.Strategy, o.LimitPolicy, o.Preferences = packing.Plain, packing.LimitLargestFirst, packing.RespectPreferences
	m, why := s.tryMove(o, cands, false)
	return m, why == nil && len(m.claims) <= 1
}

// tryMove simulates cands with solver options o (see simulateWith for
// steer) and checks that every displaced pod has a home.
func (s *state) tryMove(o packing.Options, cands []candidate, steer bool) (move, *Explanation) {
	m, err := s.simulateWith(o, cands, steer)
	if err != nil {
		return move{}, s.why(cands, PodsDoNotFit, "simulation failed: %v", err)
	}
	if msg := m.homeless(s.initialized); msg != "" {
		return move{}, s.why(cands, PodsDoNotFit, "%s", msg)
	}
	return move{cands: cands, sim: m, claims: m.claims()}, nil
}

func (s *state) why(cands []candidate, w Why, format string, args ...any) *Explanation {
	return explain(cands[0].name, w, format, args...)
}

// price writes p, an hourly price, in the currency of the catalog of the
// first candidate's NodePool, for an explanation.
func (s *state) price(cands []candidate, p instancetypes.Price) string {
	return p.Format(s.base.PoolCatalog(cands[0].pool).Currency())
}

// finish prices the command, applies the score rules and names the claims
// "consolidation-<k>", k counting on over the plan and skipping the names
// of nodes (disruption.ReplacementName).
func (s *state) finish(m move, method Method, claims []packing.NodeClaim) (Command, *Explanation) {
	total := sumPrice(m.cands)
	var launched instancetypes.Price
	for _, nc := range claims {
		launched = sat.Add(launched, nc.Offering.Price)
	}
	if len(claims) > 0 && launched >= s.threshold(total) {
		return Command{}, s.why(m.cands, NoCheaperReplacement, "replacements cost %s, not less than %s",
			s.price(m.cands, launched), s.price(m.cands, total))
	}
	reason := disruption.Underutilized
	if method == Emptiness {
		reason = disruption.Empty
	}
	cmd := Command{Reason: reason, Method: method, Savings: total - launched}
	for _, c := range m.cands {
		cmd.Candidates = append(cmd.Candidates, c.name)
	}
	if why := s.score(m.cands, cmd.Savings); why != nil {
		return Command{}, why
	}
	rename := map[string]string{}
	for _, nc := range claims {
		rename[nc.Name], s.seq = disruption.ReplacementName("consolidation", s.seq+1, s.w.Taken)
		nc.Name = rename[nc.Name]
		cmd.Replacements = append(cmd.Replacements, nc)
	}
	cmd.Homes = m.sim.placements(rename)
	return cmd, nil
}

// threshold is the price a replacement must stay strictly below.
func (s *state) threshold(total instancetypes.Price) instancetypes.Price {
	f := min(max(s.o.MinPriceImprovement, 0), 1)
	if f == 0 {
		return total
	}
	return instancetypes.Price(float64(total) * (1 - f))
}

func sumPrice(cands []candidate) instancetypes.Price {
	var p instancetypes.Price
	for _, c := range cands {
		p = sat.Add(p, c.price)
	}
	return p
}

// option is a replacement instance type at its price under the claim's
// requirements.
type option struct {
	t     *instancetypes.InstanceType
	off   instancetypes.Offering
	worst instancetypes.Price
}

// cheaper narrows the one replacement to the types whose worst launch
// price is below the candidates', with Karpenter's spot rules.
func (s *state) cheaper(m move, method Method) (packing.NodeClaim, *Explanation) {
	claim, cands := m.claims[0], m.cands
	reqs := claim.Requirements
	spot := requirements.MustNew(requirements.LabelCapacityType, requirements.In, instancetypes.Spot.String())
	ct := reqs.Get(requirements.LabelCapacityType)
	s2s := allSpot(cands) && ct.Has(instancetypes.Spot.String())
	if s2s && !s.o.SpotToSpot {
		return claim, s.why(cands, SpotToSpot, "replacing spot with spot needs SpotToSpot consolidation enabled")
	}
	if s2s {
		reqs = reqs.Add(spot)
	}
	opts := s.options(claim, reqs, s.threshold(sumPrice(cands)))
	if method == MultiNode {
		opts = withoutSameType(opts, cands)
	}
	if len(opts) == 0 {
		return claim, s.why(cands, NoCheaperReplacement, "no instance type for the replacement is cheaper than %s", s.price(cands, sumPrice(cands)))
	}
	if s2s && len(cands) == 1 {
		if len(opts) < spotToSpotTypes {
			return claim, s.why(cands, SpotToSpot, "spot-to-spot needs %d cheaper instance types, found %d", spotToSpotTypes, len(opts))
		}
		opts = opts[:spotToSpotTypes]
	}
	if !s2s && ct.Has(instancetypes.Spot.String()) && ct.Has(instancetypes.OnDemand.String()) {
		// The price filter used the spot price; launch spot so it holds.
		reqs = reqs.Add(spot)
		opts = s.options(claim, reqs, s.threshold(sumPrice(cands)))
		if len(opts) == 0 {
			return claim, s.why(cands, NoCheaperReplacement, "no spot offering for the replacement")
		}
	}
	if pool := s.pools[claim.NodePool]; pool != nil && !packing.MinValuesMet(pool.Requirements, optionTypes(opts)) {
		return claim, s.why(cands, NoCheaperReplacement, "the cheaper instance types do not keep NodePool %s's minValues", claim.NodePool)
	}
	return narrowed(claim, reqs, opts), nil
}

func optionTypes(opts []option) []*instancetypes.InstanceType {
	out := make([]*instancetypes.InstanceType, len(opts))
	for i, o := range opts {
		out[i] = o.t
	}
	return out
}

func allSpot(cands []candidate) bool {
	for _, c := range cands {
		if c.node.CapacityType != instancetypes.Spot {
			return false
		}
	}
	return true
}

// options prices the claim's types under reqs, keeps those whose worst
// launch price is below limit, cheapest first.
func (s *state) options(claim packing.NodeClaim, reqs requirements.Set, limit instancetypes.Price) []option {
	cat := s.base.PoolCatalog(s.pools[claim.NodePool])
	var opts []option
	for _, name := range claim.InstanceTypes {
		t, ok := cat.Get(name)
		if !ok {
			continue
		}
		worst, ok1 := t.WorstLaunchPrice(reqs)
		off, ok2 := t.Cheapest(reqs)
		if ok1 && ok2 && worst < limit {
			opts = append(opts, option{t: t, off: off, worst: worst})
		}
	}
	slices.SortStableFunc(opts, func(a, b option) int {
		return cmp.Or(cmp.Compare(a.off.Price, b.off.Price), cmp.Compare(a.t.Name, b.t.Name))
	})
	return opts
}

// withoutSameType is Karpenter's filterOutSameInstanceType: when the
// replacement could be a type a candidate already is, only types cheaper
// than that candidate's price remain.
func withoutSameType(opts []option, cands []candidate) []option {
	limit := instancetypes.MaxPrice
	for _, o := range opts {
		for _, c := range cands {
			if c.node.InstanceType == o.t.Name {
				limit = min(limit, c.price)
			}
		}
	}
	return slices.DeleteFunc(opts, func(o option) bool { return o.worst >= limit })
}

// narrowed is claim with its types cut to opts and the cheapest chosen.
func narrowed(claim packing.NodeClaim, reqs requirements.Set, opts []option) packing.NodeClaim {
	claim.Requirements = reqs
	claim.InstanceTypes = make([]string, len(opts))
	for i, o := range opts {
		claim.InstanceTypes[i] = o.t.Name
	}
	claim.InstanceType, claim.Offering = opts[0].t.Name, opts[0].off
	claim.Labels = relabel(claim.Labels, opts[0])
	return claim
}

func relabel(labels []requirements.Label, o option) []requirements.Label {
	out := slices.Clone(labels)
	for i, l := range out {
		switch l.Key {
		case requirements.LabelInstanceType:
			out[i].Value = o.t.Name
		case requirements.LabelZone:
			out[i].Value = o.off.Zone
		case requirements.LabelCapacityType:
			out[i].Value = o.off.CapacityType.String()
		}
	}
	return out
}
