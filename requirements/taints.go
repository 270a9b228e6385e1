package requirements

import (
	"fmt"
	"github.com/nodeplan/nodeplan/internal/enum"
	"strings"
)

// Effect is what a taint does to pods that do not tolerate it. In a
// [Toleration] the zero Effect, AnyEffect, matches every effect.
type Effect uint8

const (
	// AnyEffect, in a toleration, matches taints of every effect. A taint
	// must not have it.
	AnyEffect Effect = iota
	// NoSchedule keeps new pods off the node.
	NoSchedule
	// PreferNoSchedule asks the scheduler to avoid the node. Like Karpenter,
	// the solver treats it as NoSchedule until preferences are relaxed.
	PreferNoSchedule
	// NoExecute keeps new pods off and evicts running ones.
	NoExecute
)

var effectNames = [...]string{"", "NoSchedule", "PreferNoSchedule", "NoExecute"}

// String returns the Kubernetes spelling, "" for AnyEffect.
func (e Effect) String() string { return enum.String(e, "Effect", effectNames[:]) }

// ParseEffect returns the Effect spelled s; "" is AnyEffect.
func ParseEffect(s string) (Effect, error) {
	for i, name := range effectNames {
		if name == s {
			return Effect(i), nil
		}
	}
	return 0, fmt.Errorf("%w: unknown taint effect %q", ErrInvalid, s)
}

// Taint is a node taint. The zero Taint is invalid (it has no key and no
// effect); see [Taint.Validate].
type Taint struct {
	Key, Value string
	Effect     Effect
}

// Validate reports whether t has a valid key, value and a concrete effect.
// Its error wraps a [*FieldError] naming "key", "value" or "effect".
func (t Taint) Validate() error {
	if err := t.validate(); err != nil {
		return fmt.Errorf("taint %s: %w", t, err)
	}
	return nil
}

func (t Taint) validate() error {
	if err := ValidateKey(t.Key); err != nil {
		return atField("key", err)
	}
	if err := ValidateValue(t.Value); err != nil {
		return atField("value", err)
	}
	if t.Effect == AnyEffect || t.Effect > NoExecute {
		return atField("effect", fmt.Errorf("%w: must be NoSchedule, PreferNoSchedule or NoExecute", ErrInvalid))
	}
	return nil
}

// String formats t as key=value:Effect.
func (t Taint) String() string {
	var b strings.Builder
	b.WriteString(t.Key)
	if t.Value != "" {
		b.WriteByte('=')
		b.WriteString(t.Value)
	}
	b.WriteByte(':')
	b.WriteString(t.Effect.String())
	return b.String()
}

// TolerationOperator says how a toleration matches a taint's value. The
// zero value is TolerateEqual.
type TolerationOperator uint8

const (
	// TolerateEqual tolerates taints whose value equals the toleration's.
	TolerateEqual TolerationOperator = iota
	// TolerateExists tolerates taints of any value.
	TolerateExists
)

// String returns "Equal" or "Exists".
func (o TolerationOperator) String() string {
	switch o {
	case TolerateEqual:
		return "Equal"
	case TolerateExists:
		return "Exists"
	}
	return fmt.Sprintf("TolerationOperator(%d)", uint8(o))
}

// Toleration lets a pod onto nodes with matching taints. The zero
// Toleration tolerates every taint with an empty value, whatever its key, as
// Kubernetes' matching does (its API rejects an empty key with Equal); an
// empty Key with Operator TolerateExists tolerates everything.
type Toleration struct {
	Key      string
	Operator TolerationOperator
	Value    string
	Effect   Effect // AnyEffect matches every effect
}

// Validate reports whether t is a toleration the Kubernetes API accepts:
// a key, when set, is a label key ([ValidateKey]); an empty key needs
// TolerateExists (it then tolerates every key); TolerateEqual needs a label
// value ([ValidateValue]) and TolerateExists an empty one; the operator and
// effect are known ones (AnyEffect included). The zero Toleration is invalid,
// as the API rejects an empty key with operator Equal. The error wraps a
// [*FieldError] naming "key", "operator", "value" or "effect".
func (t Toleration) Validate() error {
	if err := t.validate(); err != nil {
		return fmt.Errorf("toleration %w", err)
	}
	return nil
}

func (t Toleration) validate() error {
	switch {
	case t.Key != "":
		if err := ValidateKey(t.Key); err != nil {
			return atField("key", err)
		}
	case t.Operator != TolerateExists:
		return atField("operator", fmt.Errorf("%w: must be Exists when the key is empty", ErrInvalid))
	}
	switch t.Operator {
	case TolerateEqual:
		if err := ValidateValue(t.Value); err != nil {
			return atField("value", err)
		}
	case TolerateExists:
		if t.Value != "" {
			return atField("value", fmt.Errorf("%w: %q must be empty with operator Exists", ErrInvalid, t.Value))
		}
	default:
		return atField("operator", fmt.Errorf("%w: %s is not Equal or Exists", ErrInvalid, t.Operator))
	}
	if t.Effect > NoExecute {
		return atField("effect", fmt.Errorf("%w: %s is not NoSchedule, PreferNoSchedule, NoExecute or empty", ErrInvalid, t.Effect))
	}
	return nil
}

// Tolerates reports whether t matches taint by Kubernetes' rules: the
// effect, when set, must equal the taint's; the key, when set, must equal
// the taint's; and TolerateEqual compares values while TolerateExists does not
// (an unknown operator tolerates nothing).
func (t Toleration) Tolerates(taint Taint) bool {
	switch {
	case t.Effect != AnyEffect && t.Effect != taint.Effect:
		return false
	case t.Key != "" && t.Key != taint.Key:
		return false
	}
	return t.Operator == TolerateExists || (t.Operator == TolerateEqual && t.Value == taint.Value)
}

// Tolerates returns nil when every taint is tolerated by some toleration,
// else an [*UntoleratedError] naming the first taint that is not. It does
// not allocate when all are tolerated.
func Tolerates(tolerations []Toleration, taints []Taint) error {
	for _, taint := range taints {
		if !anyTolerates(tolerations, taint) {
			return &UntoleratedError{Taint: taint}
		}
	}
	return nil
}

func anyTolerates(tolerations []Toleration, taint Taint) bool {
	for _, t := range tolerations {
		if t.Tolerates(taint) {
			return true
		}
	}
	return false
}

// UntoleratedError names a taint that no toleration matched.
type UntoleratedError struct{ Taint Taint }

func (e *UntoleratedError) Error() string {
	return fmt.Sprintf("did not tolerate taint %s", e.Taint)
}
