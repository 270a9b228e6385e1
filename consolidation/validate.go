package consolidation

import (
	"errors"
	"fmt"
	"slices"

	"github.com/nodeplan/nodeplan/disruption"
)

// ErrStale is wrapped by the errors Validate returns when a command no
// longer holds on the fresh snapshot.
var ErrStale = errors.New("consolidation command is stale")

// StaleError says why a command no longer holds: the node concerned (""
// for the command as a whole), the class and a sentence.
type StaleError struct {
	Explanation
}

func (e *StaleError) Error() string { return "stale command: " + e.Message }

// Unwrap returns ErrStale.
func (e *StaleError) Unwrap() error { return ErrStale }

// Validate re-checks cmd on a fresh snapshot, as a host does before acting
// (Karpenter waits 15 seconds and validates): every candidate must still be
// a candidate, the budgets must still allow them, an emptiness command's
// nodes must still be empty, and a fresh simulation must reach the same
// decision — for a replace, a replacement whose instance types include all
// of cmd's. Spot-to-spot replacements are accepted (planning enforced the
// feature gate). The error is a [*StaleError] wrapping [ErrStale], or an
// invalid-snapshot error. Validate does not modify its arguments.
func Validate(cmd Command, fresh Cluster) error {
	return ValidateWith(cmd, fresh, Options{SpotToSpot: true})
}

// ValidateWith is Validate with the Options the command was planned with.
func ValidateWith(cmd Command, fresh Cluster, o Options) error {
	s, err := newState(fresh, o)
	if err != nil {
		return err
	}
	cands, err := s.stillCandidates(cmd)
	if err != nil {
		return err
	}
	if err := s.stillInBudget(cmd, cands); err != nil {
		return err
	}
	if cmd.Method == Emptiness {
		return stillEmpty(cands)
	}
	return s.sameDecision(cmd, cands)
}

func stale(node string, w Why, format string, args ...any) error {
	return &StaleError{Explanation{Node: node, Why: w, Message: fmt.Sprintf(format, args...)}}
}

func (s *state) stillCandidates(cmd Command) ([]candidate, error) {
	if len(cmd.Candidates) == 0 {
		return nil, stale("", PodsDoNotFit, "the command has no candidates")
	}
	var out []candidate
	for _, name := range cmd.Candidates {
		i := s.w.Index(name)
		if i < 0 {
			return nil, stale(name, Deleting, "node %s is gone", name)
		}
		c, why := s.candidate(i)
		if why == nil && c.node.PriceUnknown && cmd.Method != Emptiness {
			why = s.unpriced(c.node)
		}
		if why != nil {
			return nil, &StaleError{*why}
		}
		out = append(out, c)
	}
	return out, nil
}

func (s *state) stillInBudget(cmd Command, cands []candidate) error {
	budget, err := s.budgets(cmd.Reason)
	if err != nil {
		return err
	}
	for _, c := range cands {
		if budget[c.pool.Name]--; budget[c.pool.Name] < 0 {
			return stale(c.name, Budget, "NodePool %s no longer allows %d %s disruptions", c.pool.Name, len(cands), cmd.Reason)
		}
	}
	return nil
}

func stillEmpty(cands []candidate) error {
	for _, c := range cands {
		if !c.empty() {
			return stale(c.name, PodsDoNotFit, "node %s is no longer empty (pod %s)", c.name, c.pods[0].Key())
		}
	}
	return nil
}

func (s *state) sameDecision(cmd Command, cands []candidate) error {
	many := len(cmd.Replacements) > 1 || cmd.Method == Repack
	got, why := s.compute(cands, cmd.Method, many)
	switch {
	case why != nil:
		return &StaleError{*why}
	case got.Decision() != cmd.Decision() || len(got.Replacements) != len(cmd.Replacements):
		return stale("", NoCheaperReplacement, "the simulation now gives %s with %d replacements, not %s with %d",
			got.Decision(), len(got.Replacements), cmd.Decision(), len(cmd.Replacements))
	case cmd.Reason == disruption.Underutilized && len(cmd.Replacements) == 1:
		return sameTypes(cmd, got)
	}
	return nil
}

func sameTypes(cmd, got Command) error {
	for _, t := range cmd.Replacements[0].InstanceTypes {
		if !slices.Contains(got.Replacements[0].InstanceTypes, t) {
			return stale("", NoCheaperReplacement, "instance type %s is no longer a cheaper replacement", t)
		}
	}
	return nil
}
