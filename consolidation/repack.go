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
	moves := s.o.maxIterations()
	set, best := s.bestPrefix(cands, (moves+1)/2)
	set, _ = s.grow(set, best, cands, moves/2)
	if set == nil {
		return nil, nil
	}
	final, _ := s.compute(set, Repack, true) // names the claims for good
	s.apply(final)
	return []Command{final}, nil
}

// fits reports whether room allows deleting set with any replacements: a
// set it rules out saves nothing without a simulation.
func (s *state) fits(set []candidate) bool {
	return s.room.fitsMany(s, set, s.threshold(sumPrice(set)))
}

// savings is what a repack move saves: 0 when it is not allowed.
func savings(r speculation) instancetypes.Price {
	if r.why != nil {
		return 0
	}
	return r.cmd.Savings
}

// bestPrefix returns the prefix of cands, among the first n, that saves
// most. The prefixes are tried alike whatever each saves, so the next
// that room allows is simulated ahead (speculate.go).
func (s *state) bestPrefix(cands []candidate, n int) ([]candidate, instancetypes.Price) {
	t := s.newTries(Repack, true)
	defer t.drop()
	n = min(len(cands), n)
	fit := make([]int8, n) // 0 unknown, 1 fits, -1 not
	prefixFits := func(i int) bool {
		if fit[i] == 0 {
			fit[i] = -1
			if s.fits(cands[:i+1]) {
				fit[i] = 1
			}
		}
		return fit[i] > 0
	}
	var set []candidate
	var best instancetypes.Price
	for i := range n {
		if !prefixFits(i) {
			continue
		}
		for j := i + 1; j < n && s.speculates(); j++ {
			if prefixFits(j) {
				t.goAhead(j, cands[:j+1])
				break
			}
		}
		if saved := savings(t.result(i, cands[:i+1])); saved > best {
			set, best = cands[:i+1:i+1], saved
		}
	}
	return set, best
}

// grow adds to set, in order, each candidate not in it whose addition
// saves more than set does, trying at most n. As most additions save no
// more, the next candidate added to the same set is simulated ahead
// (speculate.go), and dropped when set grows.
func (s *state) grow(set []candidate, best instancetypes.Price, cands []candidate, n int) ([]candidate, instancetypes.Price) {
	t := s.newTries(Repack, true)
	defer t.drop()
	rest := cands[len(set):]
	ahead := s.speculates()
	known, knownFits := -1, false // room's verdict on set plus rest[known], found looking ahead
	for k, c := range rest {
		if n--; n < 0 || set == nil {
			break
		}
		trial := append(slices.Clip(set), c)
		fits := knownFits
		if known != k {
			fits = s.fits(trial)
		}
		known = -1
		if next := k + 1; ahead && next < len(rest) && n > 0 {
			nextTrial := append(slices.Clip(set), rest[next])
			if known, knownFits = next, s.fits(nextTrial); knownFits {
				t.goAhead(next, nextTrial)
			}
		}
		if !fits {
			continue // saves nothing
		}
		if saved := savings(t.result(k, trial)); saved > best {
			set, best, known = trial, saved, -1 // the verdict ahead was on the old set
			t.drop()                            // and so were the moves ahead
		}
	}
	return set, best
}
