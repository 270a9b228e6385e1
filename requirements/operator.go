package requirements

import (
	"fmt"

	"github.com/nodeplan/nodeplan/internal/enum"
)

// Operator is the relation a [Requirement] states between a label key and its
// values. The zero Operator is In.
type Operator uint8

const (
	// In requires the label to exist with one of the values.
	In Operator = iota
	// NotIn requires the label to be absent or to have none of the values.
	NotIn
	// Exists requires the label to exist, with any value.
	Exists
	// DoesNotExist requires the label to be absent.
	DoesNotExist
	// Gt requires an integer value strictly greater than the one given.
	Gt
	// Lt requires an integer value strictly less than the one given.
	Lt
	// Gte requires an integer value greater than or equal to the one given.
	Gte
	// Lte requires an integer value less than or equal to the one given.
	Lte
)

var operatorNames = [...]string{"In", "NotIn", "Exists", "DoesNotExist", "Gt", "Lt", "Gte", "Lte"}

// String returns the Kubernetes spelling of o, such as "NotIn".
func (o Operator) String() string { return enum.String(o, "Operator", operatorNames[:]) }

// ParseOperator returns the Operator spelled s, as Kubernetes spells it.
func ParseOperator(s string) (Operator, error) {
	for i, name := range operatorNames {
		if name == s {
			return Operator(i), nil
		}
	}
	return 0, fmt.Errorf("%w: unknown operator %q", ErrInvalid, s)
}

// bounded reports whether o takes a single integer operand.
func (o Operator) bounded() bool { return o >= Gt && o <= Lte }
