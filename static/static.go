package static

import (
	"time"

	"github.com/nodeplan/nodeplan/disruption"
	"github.com/nodeplan/nodeplan/instancetypes"
	"github.com/nodeplan/nodeplan/packing"
)

// Input is what [Decide] reads: the static NodePools, the NodeClaims (of
// any pool; those of pools not in Pools are ignored), the catalog new
// NodeClaims are priced from, the PodDisruptionBudgets and the instant.
// The zero Input decides nothing.
type Input struct {
	Pools  []Pool
	Claims []Claim
	// Catalog prices the pools' new NodeClaims, unless a pool's
	// NodePool.Catalog replaces it; nil leaves their price unknown.
	Catalog *instancetypes.Catalog
	// PDBs block drift replacement of the nodes whose pods they protect.
	PDBs []disruption.PDB
	// Now is the instant of the decision: budget schedules and lifetimes
	// are read at it.
	Now time.Time
}

// Pool is a static NodePool: one whose spec.replicas is set. The zero Pool
// is unnamed and invalid.
type Pool struct {
	// NodePool carries the name, requirements (for the launch offering),
	// limits ("nodes" caps the NodeClaims), disruption budgets, expireAfter
	// and terminationGracePeriod; its Unavailable is not read.
	NodePool packing.NodePool
	// Replicas is spec.replicas, at least 0.
	Replicas int64
	// NotReady, when not empty, says why the NodePool's Ready condition is
	// not True: such a pool scales up nothing (it still scales down and
	// replaces drifted nodes, as Karpenter's other controllers do not
	// check readiness). The zero value is a Ready pool.
	NotReady string
	// Deleting says the NodePool has a deletionTimestamp: it neither
	// scales up nor down.
	Deleting bool
}

// Claim is a NodeClaim and, once launched, its node. The zero Claim is
// unnamed and invalid.
type Claim struct {
	Name     string
	NodePool string
	// Resolved says status.providerID is set: the instance exists.
	Resolved bool
	// Deleting says the NodeClaim or its Node is being deleted (a
	// deletionTimestamp, or Node.MarkedForDeletion).
	Deleting bool
	// PendingDisruption says a disruption command has taken the claim and
	// is launching its replacement (Karpenter's orchestration queue).
	PendingDisruption bool
	// Drifted says the NodeClaim's Drifted condition is True.
	Drifted bool
	// Node is the claim's node: its pods, annotations, Initialized,
	// NotReady and CreationTime (the NodeClaim's, from which the lifetime
	// runs). Its Name and NodePool are not read. The zero Node is a claim
	// with no node yet: not initialized, no pods.
	Node packing.Node
}

// Result is what Decide decided: one Decision per pool, by pool name.
type Result struct {
	Pools []Decision
}

// Decision is what one static pool does now. At most one of Create and
// Remove is non-zero.
type Decision struct {
	NodePool string
	Replicas int64
	// Active, Deleting and PendingDisruption count the pool's NodeClaims as
	// Karpenter's NodePoolState does.
	Active, Deleting, PendingDisruption int
	// Create is how many NodeClaims to create (from the pool's template,
	// with no pods); Launch is what each one is priced at.
	Create int
	// Launch is the pool's cheapest compatible offering, the type and
	// price of every NodeClaim this decision creates (Create and the
	// drift replacements).
	Launch Launch
	// Remove are the NodeClaims to delete, in Karpenter's order.
	Remove []Removal
	// Replace are the StaticDrift commands, one per drifted node.
	Replace []Replacement
	// Notes say why the pool does nothing, or less than asked.
	Notes []Note
}

// Launch is the offering a new NodeClaim of a pool is priced at. The zero
// Launch is an unknown one (no catalog, or no compatible offering).
type Launch struct {
	InstanceType string
	Offering     instancetypes.Offering
}

// Known reports whether l names an offering.
func (l Launch) Known() bool { return l.InstanceType != "" }

// Removal is a NodeClaim that scale-down deletes, and why it was picked.
type Removal struct {
	Claim string
	Kind  RemovalKind
	// Cost is the node's rescheduling cost × lifetime remaining (Occupied
	// nodes only; 0 otherwise).
	Cost float64
	// DoNotDisrupt says an Occupied node has a pod with an active
	// karpenter.sh/do-not-disrupt: it went last among the occupied ones.
	DoNotDisrupt bool
}

// Replacement is a StaticDrift command: launch one NodeClaim of the pool
// (priced at the Decision's Launch), then delete Candidate.
type Replacement struct {
	Candidate string
}

// Note says why a pool (or one of its nodes) is left as it is.
type Note struct {
	Why Why
	// Claim names the NodeClaim the note is about; "" for the pool.
	Claim string
	// Message is a sentence for people.
	Message string
}
