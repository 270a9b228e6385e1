package drift

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/nodeplan/nodeplan/disruption"
	"github.com/nodeplan/nodeplan/instancetypes"
	"github.com/nodeplan/nodeplan/internal/enum"
	"github.com/nodeplan/nodeplan/packing"
)

// UnavailableTTL is how long an interrupted spot offering stays unavailable,
// the AWS provider's unavailable-offerings cache TTL.
const UnavailableTTL = 3 * time.Minute

// SpotWarning is the time between a spot interruption notice and the
// instance's reclamation.
const SpotWarning = 2 * time.Minute

// NoticeKind is the kind of a cloud notice about an instance. The zero
// NoticeKind is SpotInterruption.
type NoticeKind uint8

const (
	// SpotInterruption: the spot instance is reclaimed SpotWarning after
	// the notice; its offering is marked unavailable and the node drained.
	SpotInterruption NoticeKind = iota
	// RebalanceRecommendation: the spot instance is at higher risk; no
	// action, as in the AWS provider.
	RebalanceRecommendation
	// ScheduledChange: maintenance (an AWS Health event) will stop the
	// instance at Notice.Start; the node is drained.
	ScheduledChange
	// StateChange: the instance changed state; "stopping", "stopped",
	// "shutting-down" and "terminated" drain the node, others do nothing.
	StateChange
)

// String returns the kind's name.
var noticeNames = [...]string{"SpotInterruption", "RebalanceRecommendation", "ScheduledChange", "StateChange"}

func (k NoticeKind) String() string { return enum.String(k, "NoticeKind", noticeNames[:]) }

// Notice is one message about one node's instance. The zero Time means now.
type Notice struct {
	Kind  NoticeKind
	Node  string
	Time  time.Time
	State string    // StateChange: the new instance state
	Start time.Time // ScheduledChange: when the maintenance starts; zero means now
}

// MarkedOffering is an offering to treat as unavailable until Until.
type MarkedOffering struct {
	Key   instancetypes.OfferingKey
	Until time.Time
}

// NoticeAction says what a notice leads to.
type NoticeAction struct {
	Notice  Notice
	Drain   bool
	Message string
}

// InterruptionPlan is the answer to a batch of notices.
type InterruptionPlan struct {
	// Actions has one entry per notice, in input order.
	Actions []NoticeAction
	// Findings are the drained nodes (Interrupted, forceful), by name.
	Findings []Finding
	// Unavailable are the offerings to mark, sorted, each for UnavailableTTL.
	Unavailable []MarkedOffering
	// Catalog is the catalog with Unavailable marked.
	Catalog *instancetypes.Catalog
	// Replacement places the drained nodes' pods (Homes, in order) on the
	// remaining nodes and new NodeClaims from the remaining offerings.
	Replacement packing.Plan
	Homes       []disruption.Home
	// Deadline is the earliest instant a drained instance goes away; ReadyAt
	// is when the replacement can run the pods: now when no NodeClaim is
	// needed, else now plus the launch latency.
	Deadline, ReadyAt time.Time
	// Ready reports that every pod has a home and ReadyAt is not after
	// Deadline.
	Ready bool
}

var drainStates = []string{"stopping", "stopped", "shutting-down", "terminated"}

// Interruption plans the response to notices at cl.Now, with catalog as the
// current offering view (it replaces cl.Catalog) and launchLatency the time
// a new node takes to run pods. Spot interruptions mark their offering
// (type, zone, spot) unavailable for UnavailableTTL; the drained nodes' pods
// are placed by one packing.Solve on the rest of the cluster with those
// offerings unavailable, so no replacement lands on a marked offering.
//
// Interruption first validates its input, as [Commands] does: an empty
// node name or unknown kind in a notice, a negative latency, a nil catalog,
// and every error of [Cluster.Validate] on cl with catalog, whether or not
// a node must drain. It then returns an empty plan and the errors, joined,
// each naming the object and field and wrapping [ErrInvalid]. On valid
// input a notice for a node not in cl is stale: it is reported in Actions
// and ignored, as is a StateChange to a state not listed there.
// Interruption does not modify its arguments.
func Interruption(notices []Notice, cl Cluster, catalog *instancetypes.Catalog, launchLatency time.Duration) (InterruptionPlan, error) {
	cl.Catalog = catalog
	now := cl.Now
	if err := validateInterruption(notices, cl, launchLatency); err != nil {
		return InterruptionPlan{}, err
	}
	plan := InterruptionPlan{Catalog: catalog, ReadyAt: now, Ready: true}
	drained := map[string]bool{}
	for _, n := range notices {
		plan.Actions = append(plan.Actions, plan.act(n, cl, drained, now))
	}
	if len(plan.Findings) == 0 {
		return plan, nil
	}
	return plan, plan.replace(cl, launchLatency, now)
}

// validateInterruption reports every problem of Interruption's input,
// joined; cl carries the catalog.
func validateInterruption(notices []Notice, cl Cluster, latency time.Duration) error {
	var errs []error
	if latency < 0 {
		errs = append(errs, &FieldError{Object: "Interruption", Field: "launchLatency", Msg: "is negative"})
	}
	if cl.Catalog == nil {
		errs = append(errs, &FieldError{Object: "Interruption", Field: "catalog", Msg: "is nil"})
	}
	for i, n := range notices {
		if n.Node == "" {
			errs = append(errs, &FieldError{Object: index("notices", i), Field: "node", Msg: "is empty"})
		}
		if n.Kind > StateChange {
			errs = append(errs, &FieldError{Object: index("notices", i), Field: "kind", Msg: n.Kind.String() + " is unknown"})
		}
	}
	return errors.Join(append(errs, cl.Validate())...)
}

// act decides one notice, recording drains and marks in p.
func (p *InterruptionPlan) act(n Notice, cl Cluster, drained map[string]bool, now time.Time) NoticeAction {
	i := slices.IndexFunc(cl.Nodes, func(s NodeClaimState) bool { return s.Node.Name == n.Node })
	if i < 0 {
		return NoticeAction{Notice: n, Message: fmt.Sprintf("Node %s is not in the cluster; the notice is ignored.", n.Node)}
	}
	node := &cl.Nodes[i].Node
	deadline, drain, msg := decide(n, node, now)
	if drain && !drained[n.Node] {
		drained[n.Node] = true
		p.Findings = append(p.Findings, Finding{Node: n.Node, NodePool: node.NodePool, Reason: Interrupted,
			Message: msg, Since: at(n.Time, now), Forceful: true})
		if p.Deadline.IsZero() || deadline.Before(p.Deadline) {
			p.Deadline = deadline
		}
	}
	if n.Kind == SpotInterruption && node.InstanceType != "" {
		p.mark(instancetypes.OfferingKey{InstanceType: node.InstanceType, Zone: node.Zone, CapacityType: instancetypes.Spot}, now)
	}
	return NoticeAction{Notice: n, Drain: drain, Message: msg}
}

func at(t, now time.Time) time.Time {
	if t.IsZero() {
		return now
	}
	return t
}

// decide returns when the instance goes, whether to drain, and a sentence.
func decide(n Notice, node *packing.Node, now time.Time) (time.Time, bool, string) {
	switch n.Kind {
	case SpotInterruption:
		d := at(n.Time, now).Add(SpotWarning)
		return d, true, fmt.Sprintf("Spot instance %s of node %s in %s is reclaimed at %s.",
			node.InstanceType, node.Name, node.Zone, d.UTC().Format(time.RFC3339))
	case RebalanceRecommendation:
		return time.Time{}, false, fmt.Sprintf("Node %s got a rebalance recommendation; no action.", node.Name)
	case ScheduledChange:
		d := at(n.Start, now)
		return d, true, fmt.Sprintf("Node %s has maintenance scheduled at %s.", node.Name, d.UTC().Format(time.RFC3339))
	}
	if slices.Contains(drainStates, n.State) {
		return at(n.Time, now), true, fmt.Sprintf("Node %s's instance is %s.", node.Name, n.State)
	}
	return time.Time{}, false, fmt.Sprintf("Node %s's instance is %q; no action.", node.Name, n.State)
}

func (p *InterruptionPlan) mark(k instancetypes.OfferingKey, now time.Time) {
	if slices.ContainsFunc(p.Unavailable, func(m MarkedOffering) bool { return m.Key == k }) {
		return
	}
	p.Unavailable = append(p.Unavailable, MarkedOffering{Key: k, Until: now.Add(UnavailableTTL)})
	slices.SortFunc(p.Unavailable, func(a, b MarkedOffering) int { return compareKeys(a.Key, b.Key) })
}

func compareKeys(a, b instancetypes.OfferingKey) int {
	return cmp.Or(strings.Compare(a.InstanceType, b.InstanceType), strings.Compare(a.Zone, b.Zone),
		cmp.Compare(a.CapacityType, b.CapacityType))
}

// replace solves for the drained nodes' pods on the marked catalog.
func (p *InterruptionPlan) replace(cl Cluster, latency time.Duration, now time.Time) error {
	keys := make([]instancetypes.OfferingKey, len(p.Unavailable))
	for i, m := range p.Unavailable {
		keys[i] = m.Key
	}
	catalog, err := p.Catalog.WithAvailability(keys...)
	if err != nil {
		return fmt.Errorf("interruption: marking the offerings unavailable: %w", err)
	}
	p.Catalog = catalog
	slices.SortFunc(p.Findings, func(a, b Finding) int { return strings.Compare(a.Node, b.Node) })
	names := make([]string, len(p.Findings))
	for i, f := range p.Findings {
		names[i] = f.Node
	}
	s := newSim(cl, p.Catalog)
	pods := s.reschedulable(names)
	plan, err := s.place(names, pods)
	if err != nil {
		return fmt.Errorf("interruption: simulating the replacement: %w", err)
	}
	s.rename(&plan, "interruption")
	p.Replacement, p.Homes = plan, disruption.Homes(plan, pods)
	if len(plan.NodeClaims) > 0 {
		p.ReadyAt = now.Add(latency)
	}
	p.Ready = len(plan.Unschedulable) == 0 && !p.ReadyAt.After(p.Deadline)
	return nil
}
