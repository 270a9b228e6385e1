package overlay

import (
	"fmt"

	"github.com/nodeplan/nodeplan/internal/enum"
)

// Status is what became of an overlay.
type Status uint8

const (
	// Applied: the overlay passed and changed at least one instance type
	// (Karpenter: ValidationSucceeded=True).
	Applied Status = iota
	// SelectsNothing: the overlay passed but selected no offering of any
	// NodePool's instance types. Karpenter reports it as ValidationSucceeded
	// like Applied; the status is nodeplan's own, to catch a typo.
	SelectsNothing
	// Invalid: Karpenter's run-time validation refused the overlay
	// (ValidationSucceeded=False, reason RuntimeValidation); it changes
	// nothing.
	Invalid
	// Conflict: an overlay of the same weight applied before it touches an
	// offering's price or a capacity resource it also sets
	// (ValidationSucceeded=False, reason Conflict); it changes nothing, on
	// no NodePool.
	Conflict
)

var statusNames = [...]string{"Applied", "SelectsNothing", "Invalid", "Conflict"}

// String returns the status's name, such as "Conflict".
func (s Status) String() string { return enum.String(s, "Status", statusNames[:]) }

// Outcome is what became of one overlay. The zero Outcome is an Applied
// overlay without a name.
type Outcome struct {
	Overlay string
	Status  Status
	// Reason says why an overlay is Invalid (Karpenter's status message).
	Reason string
	// With names, for a Conflict, the overlay of the same weight it
	// conflicts with: the last one applied to the offering or capacity
	// first found in conflict (Karpenter's message names none).
	With string
	// Types counts the (NodePool, instance type) pairs an Applied overlay
	// changed.
	Types int
}

// String describes o in one line for people, such as
// `NodeOverlay "a": conflict with NodeOverlay "b" (same weight 10); not applied`.
func (o Outcome) String() string {
	switch o.Status {
	case Applied:
		return fmt.Sprintf("NodeOverlay %q: applied to %d instance types across NodePools", o.Overlay, o.Types)
	case SelectsNothing:
		return fmt.Sprintf("NodeOverlay %q: selects no offering of any NodePool's instance types", o.Overlay)
	case Invalid:
		return fmt.Sprintf("NodeOverlay %q: invalid, not applied: %s", o.Overlay, o.Reason)
	default:
		return fmt.Sprintf("NodeOverlay %q: conflict with NodeOverlay %q of the same weight; not applied", o.Overlay, o.With)
	}
}

// Report is the outcome of every overlay, in the order Apply processed
// them: weight descending, then name descending.
type Report []Outcome

// Warnings returns one line ([Outcome.String]) per overlay that is not
// Applied, in report order; nil when all are.
func (r Report) Warnings() []string {
	var out []string
	for _, o := range r {
		if o.Status != Applied {
			out = append(out, o.String())
		}
	}
	return out
}
