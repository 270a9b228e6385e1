package overlay

import (
	"errors"
	"fmt"
)

// Sentinel errors. Every error of [Validate] and [Apply] about an overlay
// is a *FieldError wrapping ErrInvalid or ErrDuplicate.
var (
	// ErrInvalid marks an overlay the NodeOverlay CRD's schema rejects.
	ErrInvalid = errors.New("invalid node overlay")
	// ErrDuplicate marks a second overlay of the same name.
	ErrDuplicate = errors.New("duplicate node overlay")
)

// FieldError names the overlay and the field (as the API spells it, such
// as "spec.requirements[0].values") that is wrong. Error formats lazily.
type FieldError struct {
	Overlay, Field string
	Err            error
}

func (e *FieldError) Error() string {
	return fmt.Sprintf("NodeOverlay %q: %s: %v", e.Overlay, e.Field, e.Err)
}

// Unwrap returns the cause, which wraps ErrInvalid or ErrDuplicate.
func (e *FieldError) Unwrap() error { return e.Err }

// invalid is a *FieldError wrapping ErrInvalid with a formatted message.
func invalid(name, field, format string, args ...any) error {
	return &FieldError{Overlay: name, Field: field, Err: fmt.Errorf("%w: %s", ErrInvalid, fmt.Sprintf(format, args...))}
}
