package repair

import (
	"errors"
	"fmt"
)

// ErrInvalidInput is wrapped by every error [Decide] and [ParseStatus]
// return for input they reject.
var ErrInvalidInput = errors.New("repair: invalid input")

// InputError is one problem of an [Input]: Where names the object
// ("node \"a\"", "nodes[3]", "policies[1]", "now") and Problem what is wrong.
type InputError struct {
	Where   string
	Problem string
}

func (e *InputError) Error() string { return fmt.Sprintf("repair: %s: %s", e.Where, e.Problem) }

// Unwrap returns [ErrInvalidInput].
func (e *InputError) Unwrap() error { return ErrInvalidInput }

// validate returns every problem of in with policies, joined.
func validate(in Input, policies []Policy) error {
	var errs []error
	bad := func(where, format string, args ...any) {
		errs = append(errs, &InputError{Where: where, Problem: fmt.Sprintf(format, args...)})
	}
	if in.Now.IsZero() {
		bad("now", "zero time")
	}
	for i, p := range policies {
		where := fmt.Sprintf("policies[%d]", i)
		if p.ConditionType == "" {
			bad(where, "empty condition type")
		}
		if !p.ConditionStatus.IsValid() {
			bad(where, "unknown condition status %s", p.ConditionStatus)
		}
		if p.TolerationDuration < 0 {
			bad(where, "negative toleration %s", p.TolerationDuration)
		}
	}
	seen := make(map[string]bool, len(in.Nodes))
	for i, n := range in.Nodes {
		where := fmt.Sprintf("nodes[%d]", i)
		if n.Name == "" {
			bad(where, "empty name")
		} else if seen[n.Name] {
			bad(where, "duplicate name %q", n.Name)
		}
		seen[n.Name] = true
		for j, c := range n.Conditions {
			validateCondition(c, fmt.Sprintf("%s.conditions[%d]", where, j), bad)
		}
	}
	return errors.Join(errs...)
}

func validateCondition(c Condition, where string, bad func(string, string, ...any)) {
	if c.Type == "" {
		bad(where, "empty type")
	}
	if !c.Status.IsValid() {
		bad(where, "unknown status %s", c.Status)
	}
	if c.LastTransitionTime.IsZero() {
		bad(where, "zero last transition time")
	}
}
