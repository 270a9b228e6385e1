package buffer

import (
	"errors"
	"fmt"
)

// ErrNoRef is wrapped by the error of a buffer with neither
// spec.podTemplateRef nor spec.scalableRef.
var ErrNoRef = errors.New("neither podTemplateRef nor scalableRef is set")

// ErrUnsupportedRef is wrapped by the error of a scalableRef whose API
// group is not apps or whose kind is not Deployment, StatefulSet or
// ReplicaSet.
var ErrUnsupportedRef = errors.New("unsupported scalableRef")

// ErrNotFound is wrapped by the error of a ref whose object does not
// exist.
var ErrNotFound = errors.New("not found")

// RefError is why a buffer's ref does not resolve: it names the buffer
// and the field and wraps ErrNoRef, ErrUnsupportedRef or ErrNotFound.
type RefError struct {
	Buffer string // namespace/name
	Field  string // spec.podTemplateRef, spec.scalableRef.kind, ...
	Detail string
	Err    error
}

// Error returns "capacitybuffer <ns/name> <field>: <detail>: <err>".
func (e *RefError) Error() string {
	return fmt.Sprintf("capacitybuffer %s %s: %s: %v", e.Buffer, e.Field, e.Detail, e.Err)
}

// Unwrap returns the sentinel.
func (e *RefError) Unwrap() error { return e.Err }
