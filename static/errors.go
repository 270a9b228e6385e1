package static

import (
	"errors"
	"fmt"
)

// ErrInvalid is wrapped by every *InputError.
var ErrInvalid = errors.New("invalid static input")

// InputError names the object and field of bad input to [Decide].
type InputError struct {
	// Kind is "NodePool" or "NodeClaim".
	Kind, Name, Field string
	Err               error
}

func (e *InputError) Error() string {
	return fmt.Sprintf("%s %q: %s: %v", e.Kind, e.Name, e.Field, e.Err)
}

// Unwrap returns the cause and [ErrInvalid].
func (e *InputError) Unwrap() []error { return []error{e.Err, ErrInvalid} }
