package repair

import (
	"fmt"
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
