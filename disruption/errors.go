package disruption

import (
	"errors"
	"fmt"
)

// ErrUnknownReason is wrapped by errors for a reason name that is not one
// of Empty, Underutilized, Drifted and Expired.
var ErrUnknownReason = errors.New("unknown disruption reason")

// BudgetError says which budget of which NodePool is invalid and why.
// Field is "Nodes", "Schedule", "Duration" or "Reasons".
type BudgetError struct {
	NodePool string
	Index    int
	Field    string
	Value    string
	Err      error
}

func (e *BudgetError) Error() string {
	return fmt.Sprintf("nodepool %q: disruption budget %d: %s %q: %v", e.NodePool, e.Index, e.Field, e.Value, e.Err)
}

// Unwrap returns the cause, so errors.Is finds [ErrUnknownReason].
func (e *BudgetError) Unwrap() error { return e.Err }
