package resources

import (
	"errors"
	"fmt"
)

var (
	// ErrInvalidQuantity is matched (errors.Is) by every error about a
	// malformed or out-of-range quantity string.
	ErrInvalidQuantity = errors.New("invalid quantity")
	// ErrQuantityRange reports a quantity above math.MaxInt64 whole units,
	// with more than 19 significant digits, or (for cpu) above
	// math.MaxInt64 millicores. It wraps ErrInvalidQuantity.
	ErrQuantityRange = fmt.Errorf("%w: out of range", ErrInvalidQuantity)
	// ErrNegative reports a negative quantity where a request or capacity is
	// expected.
	ErrNegative = errors.New("negative quantity")
	// ErrNotInteger reports a fractional value for pods or an extended
	// resource, which Kubernetes requires to be whole numbers.
	ErrNotInteger = errors.New("quantity must be a whole number")
	// ErrEmptyName reports a resource with an empty name.
	ErrEmptyName = errors.New("empty resource name")
)

// QuantityError describes a quantity that could not be parsed or used: the
// resource it was given for (empty for [ParseQuantity]), the input string,
// and the reason, one of the Err* sentinels of this package.
type QuantityError struct {
	Name  Name
	Input string
	Err   error
}

// Error formats the error; it is computed on each call.
func (e *QuantityError) Error() string {
	if e.Name == "" {
		return fmt.Sprintf("resources: parsing quantity %q: %v", e.Input, e.Err)
	}
	return fmt.Sprintf("resources: parsing %s=%q: %v", e.Name, e.Input, e.Err)
}

// Unwrap returns the reason, so that errors.Is(err, ErrNegative) and the like
// work.
func (e *QuantityError) Unwrap() error {
	return e.Err
}
