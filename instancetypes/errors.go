package instancetypes

import (
	"errors"
	"fmt"
)

// Sentinel errors. Every validation error of this package wraps ErrInvalid
// and one of the more specific sentinels, so callers can branch with
// errors.Is on either.
var (
	ErrInvalid             = errors.New("invalid instance type catalog")
	ErrDuplicateName       = errors.New("duplicate instance type name")
	ErrInvalidName         = errors.New("invalid instance type name")
	ErrInvalidCapacity     = errors.New("invalid capacity")
	ErrInvalidOverhead     = errors.New("invalid overhead")
	ErrInvalidPrice        = errors.New("invalid price")
	ErrNoOfferings         = errors.New("no offerings")
	ErrInvalidCapacityType = errors.New("invalid capacity type")
	ErrInvalidOffering     = errors.New("invalid offering")
	ErrInvalidSpec         = errors.New("invalid instance type spec")
	ErrInvalidOptions      = errors.New("invalid options")
)

// FieldError says which field of which instance type is wrong. Type is empty
// for errors about the catalog as a whole (its options or its document).
// Error formats the message lazily; Unwrap gives [ErrInvalid] and the
// specific sentinel.
type FieldError struct {
	Type  string // instance type name, "" for catalog-wide errors
	Field string // field path, such as "capacity.cpu" or "offerings[2].price"
	Kind  error  // the specific sentinel, such as ErrInvalidCapacity
	Msg   string // what is wrong with the value
}

func (e *FieldError) Error() string {
	if e.Type == "" && e.Field != "name" {
		return fmt.Sprintf("instancetypes: %s: %v: %s", e.Field, e.Kind, e.Msg)
	}
	return fmt.Sprintf("instancetypes: instance type %q: %s: %v: %s", e.Type, e.Field, e.Kind, e.Msg)
}

// Unwrap returns ErrInvalid and the specific sentinel.
func (e *FieldError) Unwrap() []error { return []error{ErrInvalid, e.Kind} }

// fieldErr builds a *FieldError with a formatted message.
func fieldErr(typ, field string, kind error, format string, args ...any) error {
	return &FieldError{Type: typ, Field: field, Kind: kind, Msg: fmt.Sprintf(format, args...)}
}
