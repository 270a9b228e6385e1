package repair

import (
	"fmt"

	"github.com/nodeplan/nodeplan/internal/enum"
)

// Status is the status of a node condition. The zero Status is not valid:
// [Decide] rejects it, as a condition always has one of the three.
type Status uint8

const (
	// ConditionTrue is Kubernetes' "True".
	ConditionTrue Status = iota + 1
	// ConditionFalse is Kubernetes' "False".
	ConditionFalse
	// ConditionUnknown is Kubernetes' "Unknown".
	ConditionUnknown
)

// String returns "True", "False" or "Unknown", or "Status(n)" for an
// invalid Status.
func (s Status) String() string {
	if s == 0 {
		return "Status(0)"
	}
	return enum.String(s, "Status", statusNames[:])
}

var statusNames = [...]string{ConditionTrue: "True", ConditionFalse: "False", ConditionUnknown: "Unknown"}

// IsValid reports whether s is one of the three statuses.
func (s Status) IsValid() bool { return s >= ConditionTrue && s <= ConditionUnknown }

// ParseStatus returns the Status spelled s ("True", "False" or "Unknown",
// case-sensitive as in Kubernetes), or an error wrapping [ErrInvalidInput].
func ParseStatus(s string) (Status, error) {
	for st := ConditionTrue; st <= ConditionUnknown; st++ {
		if st.String() == s {
			return st, nil
		}
	}
	return 0, fmt.Errorf("%w: unknown condition status %q", ErrInvalidInput, s)
}

// Reason says why [Decide] left a node alone. The zero Reason is not one
// Decide returns.
type Reason uint8

const (
	// Unmanaged: the node has no NodeClaim, so Karpenter does not repair it
	// (it still counts towards the cap of its pool and the cluster's).
	Unmanaged Reason = iota + 1
	// Healthy: no condition of the node matches a policy.
	Healthy
	// Tolerating: a condition matches a policy, but its toleration has
	// not ended yet; Explanation.Deadline says when it does.
	Tolerating
	// PoolUnhealthy: more than 20 % of the node's NodePool is unhealthy.
	PoolUnhealthy
	// ClusterUnhealthy: the node has no NodePool and more than 20 % of all
	// nodes are unhealthy.
	ClusterUnhealthy
	// Deleting: the node's NodeClaim is already being deleted.
	Deleting
)

var reasonNames = [...]string{
	Unmanaged:        "Unmanaged",
	Healthy:          "Healthy",
	Tolerating:       "Tolerating",
	PoolUnhealthy:    "PoolUnhealthy",
	ClusterUnhealthy: "ClusterUnhealthy",
	Deleting:         "Deleting",
}

// String returns the constant's name, or "Reason(n)" for an invalid Reason.
func (r Reason) String() string {
	if r == 0 {
		return "Reason(0)"
	}
	return enum.String(r, "Reason", reasonNames[:])
}
