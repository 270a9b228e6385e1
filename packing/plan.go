package packing

import (
	"slices"
	"time"

	"github.com/nodeplan/nodeplan/internal/enum"

	"github.com/nodeplan/nodeplan/instancetypes"
	"github.com/nodeplan/nodeplan/requirements"
	"github.com/nodeplan/nodeplan/resources"
)

// Plan is the result of [Solve]: where every input pod goes. Pods are
// referred to by their index in [Problem.Pods].
type Plan struct {
	// Bindings are the pods placed on existing or in-flight nodes.
	Bindings []Binding
	// NodeClaims are the nodes to launch, in the order they were opened.
	NodeClaims []NodeClaim
	// Unschedulable are the pods that fit nowhere, with the reason.
	Unschedulable []Unschedulable
	// Order lists every placed pod in the order the solver placed it; a
	// host that binds pods in this order sees every topology constraint
	// hold at each step.
	Order []int
	// Price is the summed hourly price of the NodeClaims' offerings.
	Price instancetypes.Price
	// Headroom is where the buffer pods ([Pod.Buffer]) went, by pod
	// index: they are in no other field of the Plan.
	Headroom []Headroom

	// Preferences are, under [BudgetPreferences] only, the pending pods'
	// preferred terms, grouped by owner and term, with whether the plan
	// honours each and what honouring it adds to Price; nil under the
	// other policies, which measure nothing.
	Preferences []PreferenceCost
}

// Binding places a pod on an existing node.
type Binding struct {
	Pod  int
	Node string
}

// NodeClaim is a node to launch, as Karpenter's NodeClaim: the NodePool, the
// merged requirements, the instance types that would all hold its pods
// (cheapest first, so the host may fall back), and the offering chosen.
type NodeClaim struct {
	// Name is the NodePool's name and a number, "default-3": the node's
	// hostname for the plan's hostname topology. It is never an existing
	// node's name or kubernetes.io/hostname (the numbers such nodes take
	// are skipped), nor another claim's.
	Name         string
	NodePool     string
	Requirements requirements.Set
	// InstanceTypes are the candidate type names, cheapest first, at most
	// Options.MaxInstanceTypes (600). Claims of one Plan with the same
	// candidates may share this slice: read it, or copy it to change it
	// (an append copies).
	InstanceTypes []string
	// InstanceType and Offering are the chosen, cheapest candidate.
	InstanceType string
	Offering     instancetypes.Offering
	Pods         []int
	// Requests are the pods' requests plus the daemonset overhead on the
	// chosen type.
	Requests resources.List
	Labels   []requirements.Label
	Taints   []requirements.Taint
}

// Unschedulable is a pod no node or NodePool can take.
type Unschedulable struct {
	Pod    int
	Reason Reason
}

// ReasonKind classifies why a pod was not placed.
type ReasonKind uint8

const (
	// NoNodePool: no NodePool exists.
	NoNodePool ReasonKind = iota
	// Untolerated: the NodePool has a taint the pod does not tolerate.
	Untolerated
	// Incompatible: the pod's node selector or affinity conflicts with the
	// NodePool's requirements or labels.
	Incompatible
	// NoInstanceType: no instance type is compatible with the pod and the
	// NodePool together.
	NoInstanceType
	// Insufficient: no compatible instance type has enough of a resource.
	Insufficient
	// LimitExceeded: the NodePool's limits leave no room.
	LimitExceeded
	// Topology: a topology spread or pod (anti-)affinity constraint cannot
	// be met.
	Topology
	// HostPortConflict: the pod's host ports are taken wherever it fits.
	HostPortConflict
	// MinValues: the NodePool's minValues cannot be kept.
	MinValues
	// Unavailable: the NodePool that would take the pod launches no node
	// ([NodePool].Unavailable says why).
	Unavailable
	// AttachLimit: an existing node would take the pod but for its CSI
	// attach limits ([Node.VolumeLimits]), and no new node can.
	AttachLimit
	// InvalidVolume: Karpenter provisions nothing for the pod because of a
	// claim it mounts ([Volume].Invalid says why).
	InvalidVolume
)

var reasonNames = [...]string{"NoNodePool", "Untolerated", "Incompatible", "NoInstanceType",
	"Insufficient", "LimitExceeded", "Topology", "HostPortConflict", "MinValues", "Unavailable",
	"AttachLimit", "InvalidVolume"}

// String returns the kind's name.
func (k ReasonKind) String() string { return enum.String(k, "ReasonKind", reasonNames[:]) }

// Reason says why a pod was not placed, for the NodePool that came
// closest: which constraint, and for resources what the largest candidate
// lacked. Message is a sentence a person can act on.
type Reason struct {
	Kind     ReasonKind
	NodePool string
	// Resource, Requested and Largest are set for Insufficient: the
	// resource short, the pod's request (with daemonset overhead) and the
	// most any compatible instance type offers.
	Resource  resources.Name
	Requested int64
	Largest   int64
	// Closest names the instance type that came closest, when there is one.
	Closest string
	Message string
}

// Error returns the Message, so a Reason can travel as an error.
func (r Reason) Error() string { return r.Message }

// InFlight is the node nc becomes once launched, before it registers: not
// initialized, labelled as the claim, with allocatable from the claim's
// instance type in catalog (zero when catalog is nil or lacks it), holding
// pods and created at created. Disruption simulations and checks use it.
func (nc NodeClaim) InFlight(catalog *instancetypes.Catalog, pods []Pod, created time.Time) Node {
	n := Node{Name: nc.Name, NodePool: nc.NodePool, InstanceType: nc.InstanceType, Zone: nc.Offering.Zone,
		CapacityType: nc.Offering.CapacityType, Taints: nc.Taints, Price: nc.Offering.Price, CreationTime: created,
		Labels: map[string]string{requirements.LabelInstanceType: nc.InstanceType}, Pods: pods}
	for _, l := range nc.Labels {
		n.Labels[l.Key] = l.Value
	}
	if catalog != nil {
		if t, ok := catalog.Get(nc.InstanceType); ok {
			n.Allocatable = t.Allocatable
		}
	}
	return n
}

// PoolCatalog returns the catalog np launches from: its own Catalog when
// set, else p's; p's for a nil np. O(1).
func (p Problem) PoolCatalog(np *NodePool) *instancetypes.Catalog {
	if np == nil {
		return p.Catalog
	}
	return np.CatalogOr(p.Catalog)
}

// CatalogOr returns the catalog np launches from, given the catalog its
// problem or host shares among pools: np's own Catalog when set, else
// shared (which may be nil). Every package that resolves a pool's catalog uses
// it, so that the rule is in one place. O(1).
func (np *NodePool) CatalogOr(shared *instancetypes.Catalog) *instancetypes.Catalog {
	if np.Catalog != nil {
		return np.Catalog
	}
	return shared
}

// CatalogOf is the catalog the named NodePool launches from (see
// [Problem.PoolCatalog]): the first pool of that name's; p's for an
// unknown pool. The complexity is O(pools); to look up many, index the
// pools by name once and call PoolCatalog.
func (p Problem) CatalogOf(pool string) *instancetypes.Catalog {
	var np *NodePool
	if i := slices.IndexFunc(p.NodePools, func(np NodePool) bool { return np.Name == pool }); i >= 0 {
		np = &p.NodePools[i]
	}
	return p.PoolCatalog(np)
}

// Launched is InFlight for a claim of a plan for p: the type is looked up in
// the catalog of the claim's NodePool (or p's), and the node holds the pods
// of p the claim lists (indices out of range are left out).
func (p Problem) Launched(nc NodeClaim, created time.Time) Node {
	cat := p.CatalogOf(nc.NodePool)
	pods := make([]Pod, 0, len(nc.Pods))
	for _, k := range nc.Pods {
		if k >= 0 && k < len(p.Pods) {
			pods = append(pods, p.Pods[k])
		}
	}
	return nc.InFlight(cat, pods, created)
}
