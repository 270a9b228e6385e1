package consolidation

import (
	"slices"

	"github.com/nodeplan/nodeplan/instancetypes"
	"github.com/nodeplan/nodeplan/packing"
)

// balancedK is Karpenter's BalancedK: a Balanced move passes when its
// savings share is at least 1/k of its disruption share.
const balancedK = 2

// score applies the Balanced policy of the candidates' pools and
// Options.MinScore. Per pool, the score is (savings attributed to the pool
// ÷ the pool's price) ÷ (the candidates' disruption ÷ the pool's
// disruption), savings split by the candidates' price, as Karpenter.
func (s *state) score(cands []candidate, savings instancetypes.Price) *Explanation {
	total := sumPrice(cands)
	for _, pool := range poolsOf(cands) {
		need := s.o.MinScore
		if s.pools[pool].Disruption.Policy == packing.Balanced {
			need = max(need, 1.0/balancedK)
		}
		if need <= 0 {
			continue
		}
		if got := s.poolScore(pool, cands, savings, total); got < need {
			return s.why(cands, ScoreTooLow, "NodePool %s: savings ÷ disruption scores %.3f, below %.3f", pool, got, need)
		}
	}
	return nil
}

func (s *state) poolScore(pool string, cands []candidate, savings, total instancetypes.Price) float64 {
	var price, disrupt float64
	for _, c := range cands {
		if c.pool.Name == pool {
			price += c.price.Dollars()
			disrupt += c.cost
		}
	}
	poolPrice, poolDisrupt := s.poolTotals(pool)
	if poolPrice <= 0 || poolDisrupt <= 0 || savings <= 0 {
		return 0
	}
	share := savings.Dollars()
	if total > 0 {
		share *= price / total.Dollars()
	}
	return (share / poolPrice) / (disrupt / poolDisrupt)
}

func (s *state) poolTotals(pool string) (price, disrupt float64) {
	for _, n := range s.w.Nodes() {
		if n.NodePool == pool && !n.MarkedForDeletion {
			price += n.Price.Dollars()
			disrupt += rescheduleCost(reschedulable(n.Pods))
		}
	}
	return price, disrupt
}

func poolsOf(cands []candidate) []string {
	var names []string
	for _, c := range cands {
		names = append(names, c.pool.Name)
	}
	slices.Sort(names)
	return slices.Compact(names)
}
