package drift

import (
	"fmt"
	"time"

	"github.com/nodeplan/nodeplan/disruption"
	"github.com/nodeplan/nodeplan/instancetypes"
	"github.com/nodeplan/nodeplan/packing"
)

// InstanceTypeGrace is how long after creation a node is spared the
// instance-type-gone rule, as Karpenter waits an hour before it asks the
// cloud provider for the node's type.
const InstanceTypeGrace = time.Hour

// DefaultExpireAfter is the lifetime of a node whose NodePool leaves
// expireAfter zero, Karpenter's default of 720h.
const DefaultExpireAfter = 720 * time.Hour

// NodeClaimState is a node as drift sees it: the node with its pods, and
// what was recorded when it was launched. The zero NodeClaimState is a
// launched node with nothing recorded, which no hash or NodeClass rule can
// find drifted.
type NodeClaimState struct {
	Node packing.Node
	// CreationTime is the NodeClaim's creation; zero means Node.CreationTime.
	CreationTime time.Time
	// NodePoolHash and NodePoolHashVersion are the karpenter.sh/nodepool-hash
	// annotations recorded at launch; either empty disables hash drift.
	NodePoolHash, NodePoolHashVersion string
	// Image, Subnet and SecurityGroups are what the instance was launched
	// with; an empty one is not checked.
	Image, Subnet  string
	SecurityGroups []string
	// NodeClassHash and NodeClassHashVersion are the NodeClass hash
	// annotations recorded at launch; either empty disables the check.
	NodeClassHash, NodeClassHashVersion string
	// DriftedSince is when the node was first found drifted (the Drifted
	// condition's transition time); zero means now. Commands take the oldest
	// drift first.
	DriftedSince time.Time
	// Unlaunched marks a NodeClaim whose instance does not exist yet; no
	// rule applies to it, as Karpenter clears drift on unlaunched claims.
	Unlaunched bool
	// PodGracePeriods are the pods' terminationGracePeriodSeconds keyed by
	// "namespace/name"; absent pods get Kubernetes' 30s. A pod that an
	// earlier command moves keeps the grace period its first node's state
	// records. Negative ones are invalid ([Input.Validate]).
	PodGracePeriods map[string]time.Duration
}

func (s *NodeClaimState) created() time.Time {
	if s.CreationTime.IsZero() {
		return s.Node.CreationTime
	}
	return s.CreationTime
}

// NodeClassRef names the NodeClass a NodePool launches with.
type NodeClassRef struct{ Group, Kind, Name string }

// Template is a NodePool with the template fields packing.NodePool does not
// carry: the template's annotations and its nodeClassRef. The zero Template
// is a NodePool without a name, which no node belongs to.
type Template struct {
	NodePool     packing.NodePool
	Annotations  map[string]string
	NodeClassRef NodeClassRef
}

// Expiration chooses how expired nodes go. The zero Expiration is Karpenter
// v1's: an expired node is deleted at once, whatever the budgets.
type Expiration struct {
	// GracePeriod, when positive, makes expiration graceful: for this long
	// after expiry the node is replaced under the disruption budgets (reason
	// Expired) like a drifted one; after it, forcefully. A negative one is
	// invalid ([Input.Validate]): Evaluate and Commands return the error.
	GracePeriod time.Duration
}

// Input is the snapshot Evaluate reads. The zero Input has no nodes and
// gives no findings.
type Input struct {
	Nodes     []NodeClaimState
	NodePools []Template
	// NodeClasses are keyed by name, as Template.NodeClassRef.Name names
	// them.
	NodeClasses map[string]NodeClass
	// Catalog is the provider's instance types, offerings included even when
	// unavailable; nil disables the instance-type-gone rule.
	Catalog    *instancetypes.Catalog
	Expiration Expiration
	// Now is the moment the snapshot stands for: [Evaluate], [Commands],
	// [VerifyCommands] and [Interruption] judge at it, and read no clock.
	// The zero Now is the zero time.
	Now time.Time
}

// Reason is the machine-readable kind of a [Finding]. The zero Reason is
// invalid.
type Reason uint8

const (
	// NodePoolDrifted: the NodePool template hash differs from the node's.
	NodePoolDrifted Reason = iota + 1
	// RequirementsDrifted: the node's labels no longer satisfy the
	// NodePool's requirements.
	RequirementsDrifted
	// InstanceTypeGone: the node's type is no longer offered, or has no
	// offering in its zone and capacity type.
	InstanceTypeGone
	// ImageDrifted: the node's image is not one the NodeClass resolves.
	ImageDrifted
	// SubnetDrifted: the node's subnet is not one the NodeClass resolves.
	SubnetDrifted
	// SecurityGroupsDrifted: the node's security groups differ from those
	// the NodeClass resolves.
	SecurityGroupsDrifted
	// NodeClassDrifted: the NodeClass hash differs from the node's.
	NodeClassDrifted
	// Expired: the node outlived its NodePool's expireAfter.
	Expired
	// Interrupted: the cloud is reclaiming or has stopped the instance.
	Interrupted
)

var reasonNames = [...]string{"", "NodePoolDrifted", "RequirementsDrifted", "InstanceTypeGone",
	"ImageDrifted", "SubnetDrifted", "SecurityGroupsDrifted", "NodeClassDrifted", "Expired", "Interrupted"}

// String returns the reason's name, such as "NodePoolDrifted".
func (r Reason) String() string {
	if r > 0 && int(r) < len(reasonNames) {
		return reasonNames[r]
	}
	return fmt.Sprintf("Reason(%d)", uint8(r))
}

// Drift reports whether r is a drift reason (budgeted as disruption.Drifted).
func (r Reason) Drift() bool { return r >= NodePoolDrifted && r <= NodeClassDrifted }

// Budget returns the disruption budget reason r is charged to: Drifted or
// Expired (Interrupted is never budgeted and reports Drifted).
func (r Reason) Budget() disruption.Reason {
	if r == Expired {
		return disruption.Expired
	}
	return disruption.Drifted
}

// Finding says that one rule holds for one node.
type Finding struct {
	Node     string
	NodePool string
	Reason   Reason
	// Message is a sentence for people.
	Message string
	// Since is when the condition began: the expiry instant for Expired,
	// NodeClaimState.DriftedSince (or now) for drift, the notice time for
	// Interrupted.
	Since time.Time
	// Forceful findings are acted on whatever the budgets, do-not-disrupt
	// and PodDisruptionBudgets say: expiration (unless graceful) and
	// interruption.
	Forceful bool
	// Deadline, for graceful expiration, is when it turns forceful.
	Deadline time.Time
}
