package repair

import (
	"fmt"
	"strings"
	"time"
)

// Policy says that a node whose condition ConditionType has status
// ConditionStatus is unhealthy, and is replaced once it has been so for
// TolerationDuration (Karpenter's cloudprovider.RepairPolicy). Policy is
// comparable.
type Policy struct {
	ConditionType      string
	ConditionStatus    Status
	TolerationDuration time.Duration
}

// String returns "Type=Status after duration".
func (p Policy) String() string {
	return fmt.Sprintf("%s=%s after %s", p.ConditionType, p.ConditionStatus, p.TolerationDuration)
}

// AWSPolicies returns the repair policies of Karpenter's AWS provider
// v1.14.1 (pkg/cloudprovider/cloudprovider.go, CloudProvider.RepairPolicies,
// lines 305-346): the kubelet's Ready False or Unknown for 30 minutes, and
// the EKS node monitoring agent's AcceleratedHardwareReady False for 10
// minutes and StorageReady, NetworkingReady, KernelReady and
// ContainerRuntimeReady False for 30 minutes, in that order. Each call
// returns a new slice.
func AWSPolicies() []Policy {
	const half = 30 * time.Minute
	return []Policy{
		{"Ready", ConditionFalse, half},
		{"Ready", ConditionUnknown, half},
		{"AcceleratedHardwareReady", ConditionFalse, 10 * time.Minute},
		{"StorageReady", ConditionFalse, half},
		{"NetworkingReady", ConditionFalse, half},
		{"KernelReady", ConditionFalse, half},
		{"ContainerRuntimeReady", ConditionFalse, half},
	}
}

// ParsePolicy reads a Policy written as [Policy.String] prints its parts,
// "Type=Status:duration" (Ready=False:30m, KernelReady=Unknown:1h30m): a
// condition type (not empty, without '='), a status spelled as Kubernetes
// does (True, False or Unknown) and a non-negative Go duration. Any other
// string is an *InputError naming it, wrapping [ErrInvalidInput].
func ParsePolicy(s string) (Policy, error) {
	bad := func(format string, args ...any) (Policy, error) {
		return Policy{}, &InputError{Where: fmt.Sprintf("policy %q", s), Problem: fmt.Sprintf(format, args...)}
	}
	typ, rest, ok := strings.Cut(s, "=")
	if !ok {
		return bad("want Type=Status:duration, such as Ready=False:30m")
	}
	status, dur, ok := strings.Cut(rest, ":")
	switch {
	case typ == "":
		return bad("empty condition type")
	case !ok:
		return bad("no toleration: want Type=Status:duration, such as Ready=False:30m")
	}
	st, err := ParseStatus(status)
	if err != nil {
		return bad("unknown condition status %q: want True, False or Unknown", status)
	}
	d, err := time.ParseDuration(dur)
	switch {
	case err != nil:
		return bad("toleration %q: not a duration such as 30m or 1h30m", dur)
	case d < 0:
		return bad("negative toleration %s", d)
	}
	return Policy{ConditionType: typ, ConditionStatus: st, TolerationDuration: d}, nil
}
