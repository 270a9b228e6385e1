package disruption

import "fmt"

// Reason is why a node is disrupted. The names are Karpenter's budget
// reasons. The zero Reason is Empty.
type Reason uint8

const (
	// Empty: the node runs no pods other than daemonsets.
	Empty Reason = iota
	// Underutilized: the node's pods fit elsewhere, or on a cheaper node.
	Underutilized
	// Drifted: the node no longer matches its NodePool or NodeClass.
	Drifted
	// Expired: the node outlived its NodePool's expireAfter.
	Expired
)

var reasonNames = [...]string{"Empty", "Underutilized", "Drifted", "Expired"}

// String returns the Karpenter spelling, e.g. "Underutilized".
func (r Reason) String() string {
	if int(r) < len(reasonNames) {
		return reasonNames[r]
	}
	return fmt.Sprintf("Reason(%d)", uint8(r))
}

// ParseReason returns the Reason spelled s, exactly as [Reason.String]
// prints it. The error wraps [ErrUnknownReason].
func ParseReason(s string) (Reason, error) {
	for i, name := range reasonNames {
		if name == s {
			return Reason(i), nil
		}
	}
	return 0, fmt.Errorf("disruption reason %q: %w", s, ErrUnknownReason)
}
