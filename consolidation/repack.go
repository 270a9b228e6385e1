package consolidation

import (
	"github.com/nodeplan/nodeplan/disruption"
	"github.com/nodeplan/nodeplan/instancetypes"
)

// repack is nodeplan's m→n search, run when Options.Repack is set, after
// Karpenter's methods: where Karpenter binary-searches the prefixes of the
// candidates (savings-ratio order) and accepts at most one replacement, it
// tries every prefix, each with any number of replacements, and keeps the
// one that saves most. Validity is not monotone in the prefix length, so
// the linear scan finds moves the binary search skips. Each prefix is one
// simulation; MaxIterations caps them. The best is emitted as one command.
// It is deterministic.
func (s *state) repack() ([]Command, error) {
	if !s.o.Repack {
		return nil, nil
	}
	budget, err := s.budgets(disruption.Underutilized)
	if err != nil {
		return nil, err
	}
	cands := s.withinBudget(s.underutilized(), budget, disruption.Underutilized)
	var set []candidate
	var best instancetypes.Price
	seq := s.seq
	for i := range min(len(cands), s.o.maxIterations()) {
		cmd, why := s.compute(cands[:i+1], Repack, true)
		s.seq = seq
		if why == nil && cmd.Savings > best {
			set, best = cands[:i+1], cmd.Savings
		}
	}
	if set == nil {
		return nil, nil
	}
	final, _ := s.compute(set, Repack, true) // names the claims for good
	s.apply(final)
	return []Command{final}, nil
}
