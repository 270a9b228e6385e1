package repair

import (
	"errors"
	"fmt"
)

// ErrInvalidInput is wrapped by every error [Decide], [ParseStatus] and
// [ParsePolicy] return, and by [Plan]'s for a Result that does not fit its
// Cluster.
var ErrInvalidInput = errors.New("repair: invalid input")

// InputError is one problem of an [Input]: Where names the object
// ("node \"a\"", "nodes[3]", "policies[1]", "now", "replace[0]",
// "policy \"Ready=x:1m\"") and Problem what is wrong.
type InputError struct {
	Where   string
	Problem string
}

func (e *InputError) Error() string { return fmt.Sprintf("repair: %s: %s", e.Where, e.Problem) }

// Unwrap returns [ErrInvalidInput].
func (e *InputError) Unwrap() error { return ErrInvalidInput }

// validate returns every problem of in with policies, joined. It formats
// only what it reports.
func validate(in Input, policies []Policy) error {
	var errs []error
	bad := func(where, format string, args ...any) {
		errs = append(errs, &InputError{Where: where, Problem: fmt.Sprintf(format, args...)})
	}
	if in.Now.IsZero() {
		bad("now", "zero time")
	}
	for i, p := range policies {
		if p.ConditionType == "" {
			bad(fmt.Sprintf("policies[%d]", i), "empty condition type")
		}
		if !p.ConditionStatus.IsValid() {
			bad(fmt.Sprintf("policies[%d]", i), "unknown condition status %s", p.ConditionStatus)
		}
		if p.TolerationDuration < 0 {
			bad(fmt.Sprintf("policies[%d]", i), "negative toleration %s", p.TolerationDuration)
		}
	}
	seen := make(map[string]bool, len(in.Nodes))
	for i, n := range in.Nodes {
		if n.Name == "" {
			bad(fmt.Sprintf("nodes[%d]", i), "empty name")
		} else if seen[n.Name] {
			bad(fmt.Sprintf("nodes[%d]", i), "duplicate name %q", n.Name)
		}
		seen[n.Name] = true
		for j, c := range n.Conditions {
			if problem := conditionProblem(c); problem != "" {
				bad(fmt.Sprintf("nodes[%d].conditions[%d]", i, j), "%s", problem)
			}
		}
	}
	return errors.Join(errs...)
}

// conditionProblem returns what is wrong with c, or "".
func conditionProblem(c Condition) string {
	switch {
	case c.Type == "":
		return "empty type"
	case !c.Status.IsValid():
		return "unknown status " + c.Status.String()
	case c.LastTransitionTime.IsZero():
		return "zero last transition time"
	}
	return ""
}
