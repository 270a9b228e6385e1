package buffer

import "github.com/nodeplan/nodeplan/internal/enum"

// Reason is the reason of a buffer's ReadyForProvisioning condition, as
// Karpenter's capacity buffer controller sets it. The zero Reason is
// Resolved.
type Reason uint8

const (
	// Resolved: the template was found; the buffer is ready (True).
	Resolved Reason = iota
	// ResolutionFailed: neither ref is set, or the scalable ref names an
	// unsupported API group or kind (False).
	ResolutionFailed
	// PodTemplateNotFound: the PodTemplate does not exist (False).
	PodTemplateNotFound
	// ScalableRefNotFound: the workload does not exist (False).
	ScalableRefNotFound
)

var reasonNames = [...]string{"Resolved", "ResolutionFailed", "PodTemplateNotFound", "ScalableRefNotFound"}

// String returns the condition reason as Karpenter spells it.
func (r Reason) String() string { return enum.String(r, "Reason", reasonNames[:]) }

// Provisioning is the reason of a buffer's Provisioning condition, which
// Karpenter's provisioner sets after each scheduling pass. The zero value
// is Unchanged.
type Provisioning uint8

const (
	// Unchanged: the pass had none of the buffer's pods; Karpenter leaves
	// the condition as it was.
	Unchanged Provisioning = iota
	// NotReadyForProvisioning: the buffer is not ready (False).
	NotReadyForProvisioning
	// BufferEmpty: the buffer asks for 0 replicas (False).
	BufferEmpty
	// RequiresNewCapacity: some pod needs a new NodeClaim or fits nowhere
	// (False).
	RequiresNewCapacity
	// FitsExistingCapacity: every pod is held on existing nodes (True).
	FitsExistingCapacity
)

var provisioningNames = [...]string{"Unchanged", "NotReadyForProvisioning", "BufferEmpty",
	"RequiresNewCapacity", "FitsExistingCapacity"}

// String returns the condition reason as Karpenter spells it.
func (p Provisioning) String() string {
	return enum.String(p, "Provisioning", provisioningNames[:])
}
