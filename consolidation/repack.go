package consolidation

import (
	"slices"

	"github.com/nodeplan/nodeplan/disruption"
	"github.com/nodeplan/nodeplan/instancetypes"
)

// repack is nodeplan's m→n search, run when Options.Repack is set, after
// Karpenter's methods. Where Karpenter binary-searches the prefixes of the
// candidates (savings-ratio order) and accepts at most one replacement, it
// first tries every prefix, each with any number of replacements (validity
// is not monotone in the prefix length, so the scan finds moves the binary
// search skips), and then grows the best set by each remaining candidate
// whose addition saves more (so a candidate that blocks a prefix is
// skipped, not a wall). Each try is one simulation; MaxIterations caps
// them, half for each phase. The best is emitted as one command. It is
// deterministic.
func (s *state) repack() ([]Command, error) {
	if !s.o.Repack {
		return nil, nil
	}
	budget, err := s.budgets(disruption.Underutilized)
	if err != nil {
		return nil, err
	}
	cands := s.withinBudget(s.underutilized(), budget, disruption.Underutilized)
	s.measureRoom()
	tries := s.o.maxIterations()
	set, best := s.bestPrefix(cands, (tries+1)/2)
	set, _ = s.grow(set, best, cands, tries/2)
	if set == nil {
		return nil, nil
	}
	final, _ := s.compute(set, Repack, true) // names the claims for good
	s.apply(final)
	return []Command{final}, nil
}

// try simulates deleting set with any replacements and returns the
// savings, 0 when the move is not allowed (without simulating when room
// shows it); the state is left as it was.
func (s *state) try(set []candidate) instancetypes.Price {
	if !s.room.fitsMany(s, set, s.threshold(sumPrice(set))) {
		return 0 // room shows the simulation would fail
	}
	seq := s.seq
	cmd, why := s.compute(set, Repack, true)
	s.seq = seq
	if why != nil {
		return 0
	}
	return cmd.Savings
}

// bestPrefix returns the prefix of cands, among the first n, that saves most.
func (s *state) bestPrefix(cands []candidate, n int) ([]candidate, instancetypes.Price) {
	var set []candidate
	var best instancetypes.Price
	for i := range min(len(cands), n) {
		if saved := s.try(cands[:i+1]); saved > best {
			set, best = cands[:i+1:i+1], saved
		}
	}
	return set, best
}

// grow adds to set, in order, each candidate not in it whose addition
// saves more than set does, trying at most n.
func (s *state) grow(set []candidate, best instancetypes.Price, cands []candidate, n int) ([]candidate, instancetypes.Price) {
	for _, c := range cands[len(set):] {
		if n--; n < 0 || set == nil {
			break
		}
		trial := append(slices.Clip(set), c)
		if saved := s.try(trial); saved > best {
			set, best = trial, saved
		}
	}
	return set, best
}
