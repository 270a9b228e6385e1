package static

import "github.com/nodeplan/nodeplan/internal/enum"

// RemovalKind is why scale-down picked a NodeClaim, in Karpenter's order.
type RemovalKind uint8

const (
	// Unresolved: the NodeClaim has no instance yet (no providerID).
	Unresolved RemovalKind = iota
	// Empty: its node has no pods, or only daemonset pods none of which
	// has an active do-not-disrupt.
	Empty
	// Occupied: its node runs other pods.
	Occupied
)

var removalNames = [...]string{"Unresolved", "Empty", "Occupied"}

// String returns the kind's name, e.g. "Empty".
func (k RemovalKind) String() string { return enum.String(k, "RemovalKind", removalNames[:]) }

// Why classifies a [Note].
type Why uint8

const (
	// Steady: the pool has as many NodeClaims as replicas.
	Steady Why = iota
	// NotReady: the pool is not Ready, so it scales up nothing.
	NotReady
	// PoolDeleting: the pool is being deleted.
	PoolDeleting
	// LimitReached: limits.nodes leaves no room (or less than asked) for
	// new NodeClaims; deleting ones count against it.
	LimitReached
	// Overscaled: drifted nodes wait until scale-down is done.
	Overscaled
	// BudgetExhausted: the Drifted disruption budget allows no more.
	BudgetExhausted
	// Blocked: a drifted node may not be disrupted now (do-not-disrupt, a
	// PodDisruptionBudget, not initialized).
	Blocked
	// UnknownLaunch: no catalog offering is compatible with the pool, so
	// new NodeClaims are not priced.
	UnknownLaunch
)

var whyNames = [...]string{"Steady", "NotReady", "PoolDeleting", "LimitReached",
	"Overscaled", "BudgetExhausted", "Blocked", "UnknownLaunch"}

// String returns the name, e.g. "LimitReached".
func (w Why) String() string { return enum.String(w, "Why", whyNames[:]) }
