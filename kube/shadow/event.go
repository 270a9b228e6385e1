package shadow

import (
	"time"

	"github.com/nodeplan/nodeplan/instancetypes"
	"github.com/nodeplan/nodeplan/internal/enum"
)

// Type is what kind of Karpenter action an [Event] shadows.
type Type uint8

const (
	// Provisioning is a batch of NodeClaims Karpenter created for pending
	// pods.
	Provisioning Type = iota
	// Disruption is Karpenter marking, deleting and replacing nodes.
	Disruption
)

// String returns "Provisioning" or "Disruption" ("Type(n)" for another
// value).
func (t Type) String() string { return enum.String(t, "Type", typeNames[:]) }

var typeNames = [...]string{"Provisioning", "Disruption"}

// Offering is where a NodeClaim runs, as Karpenter labels it once it has
// launched: node.kubernetes.io/instance-type, topology.kubernetes.io/zone
// and karpenter.sh/capacity-type. The zero Offering is unresolved.
type Offering struct {
	InstanceType, Zone, CapacityType string
}

// Resolved reports whether all three labels are known.
func (o Offering) Resolved() bool {
	return o.InstanceType != "" && o.Zone != "" && o.CapacityType != ""
}

// Claim is one of Karpenter's NodeClaims (or a Node without one) in an
// event, priced at its offering. Priced is false when the offering is
// not resolved or the catalog has no price for it; Why then says which,
// and Price is 0 and counted nowhere.
type Claim struct {
	// Name is the NodeClaim's name, else the Node's.
	Name     string
	Node     string
	NodePool string
	Offering Offering
	Price    instancetypes.Price
	Priced   bool
	Why      string
	// Deleted says the NodeClaim was deleted before the event was
	// reported (for a provisioning event: before it launched).
	Deleted bool
}

// Failed reports whether c was deleted before its offering resolved: a
// launch that failed, which costs nothing and is no node.
func (c Claim) Failed() bool { return c.Deleted && !c.Offering.Resolved() }

// Nodes counts the claims of cs that are not Failed.
func Nodes(cs []Claim) int {
	n := 0
	for _, c := range cs {
		if !c.Failed() {
			n++
		}
	}
	return n
}

// Karpenter is what Karpenter did in an event.
type Karpenter struct {
	// Launched are the NodeClaims Karpenter created: a batch, or the
	// replacements of a disruption, in the order they appeared.
	Launched []Claim
	// Removed are the nodes a disruption deleted, in the order their
	// deletion was seen.
	Removed []Claim
	// Kept are nodes Karpenter marked for disruption (the
	// karpenter.sh/disrupted taint or the DisruptionReason condition) and
	// did not delete within the event.
	Kept []string
	// Reason is the DisruptionReason of the first marked NodeClaim
	// ("Underutilized", "Empty", "Drifted"…), empty when none was seen.
	Reason string
}

// Change returns the launched prices minus the removed ones, and how many
// claims have no price (not in the sum). Failed claims count in neither.
func (k *Karpenter) Change() (instancetypes.Price, int) {
	var sum instancetypes.Price
	unpriced := 0
	for _, c := range k.Launched {
		sum, unpriced = addClaim(sum, unpriced, c, 1)
	}
	for _, c := range k.Removed {
		sum, unpriced = addClaim(sum, unpriced, c, -1)
	}
	return sum, unpriced
}

func addClaim(sum instancetypes.Price, unpriced int, c Claim, sign instancetypes.Price) (instancetypes.Price, int) {
	switch {
	case c.Failed():
		return sum, unpriced
	case !c.Priced:
		return sum, unpriced + 1
	}
	return sum + sign*c.Price, unpriced
}

// Commands summarise what a nodeplan disruption planner (consolidation
// or drift) decides: Change is the replacements' price minus that of the
// deleted nodes of known price (negative: a saving), Unpriced counts the
// deleted nodes of unknown price.
type Commands struct {
	Commands, Deleted, Launched, Unpriced int
	Change                                instancetypes.Price
}

// Decision is what nodeplan would have done on an event's snapshot.
type Decision struct {
	// Pending is the number of pods the provisioning snapshot leaves to
	// place (pending pods, and the pods of deleting nodes, as
	// nodeplan provision plans them); Placed and Unschedulable split them.
	Pending, Placed, Unschedulable int
	// PendingPods and UnschedulablePods name the pods Pending and
	// Unschedulable count ("namespace/name"), so that [Totals] counts
	// each pod once over the events it is pending in.
	PendingPods, UnschedulablePods []string
	// Nodes and Price are the NodeClaims nodeplan launches and their
	// summed hourly price.
	Nodes int
	Price instancetypes.Price
	// Consolidation and Drift are the disruption planners' commands.
	Consolidation, Drift Commands
}

// Event is one Karpenter action beside nodeplan's answer. Start is when
// its first change was observed (the snapshot nodeplan decides on is
// that instant's, the event's own NodeClaims left out, or restored as they
// were), End when the event was reported. Err is set when nodeplan could
// not decide on the snapshot; Nodeplan is then zero.
type Event struct {
	Seq        int
	Type       Type
	Start, End time.Time
	Karpenter  Karpenter
	Nodeplan   Decision
	Err        error
}

// Difference returns Karpenter's hourly price (provisioning) or change
// (disruption) minus nodeplan's (a disruption's: that of [Event.Compared]):
// positive when nodeplan is cheaper. ok is false when some claim of
// Karpenter's or some node nodeplan deletes is unpriced, or nodeplan did
// not decide: the difference is then unknown, never a partial sum.
func (e *Event) Difference() (d instancetypes.Price, ok bool) {
	k, unpriced := e.Karpenter.Change()
	if unpriced > 0 || e.Err != nil || (e.Type == Disruption && e.Compared().Unpriced > 0) {
		return 0, false
	}
	return k - e.nodeplanChange(), true
}

// Reasons Karpenter disrupts for: the DisruptionReason condition's
// (Karpenter's disruption controller), and Expired, which the accountant
// infers for a NodeClaim deleted unmarked past its spec.expireAfter
// (Karpenter's expiration controller deletes it without marking).
const (
	ReasonDrifted       = "Drifted"
	ReasonExpired       = "Expired"
	ReasonEmpty         = "Empty"
	ReasonUnderutilized = "Underutilized"
)

// Compared returns nodeplan's commands a disruption is compared with,
// by Karpenter's reason: drift (Decision.Drift, which expires nodes too)
// for Drifted and Expired, consolidation for Empty, Underutilized, or no
// reason seen (a deletion Karpenter did not mark). Zero for a
// provisioning event.
func (e *Event) Compared() Commands {
	switch {
	case e.Type != Disruption:
		return Commands{}
	case e.Karpenter.Reason == ReasonDrifted || e.Karpenter.Reason == ReasonExpired:
		return e.Nodeplan.Drift
	}
	return e.Nodeplan.Consolidation
}

// nodeplanChange is nodeplan's price (provisioning) or compared change
// (disruption).
func (e *Event) nodeplanChange() instancetypes.Price {
	if e.Type == Disruption {
		return e.Compared().Change
	}
	return e.Nodeplan.Price
}

// Totals accumulate events. A Side's Price sums the known prices only;
// Unpriced counts the claims left out. Difference sums the events whose
// difference is known; Unknown counts the others. The zero Totals count
// nothing yet. A copy of Totals shares the pods counted: Add to one only.
type Totals struct {
	Events [2]int // by Type
	Errors int
	// Pods counts the distinct pods pending in provisioning events (by
	// namespace and name: a pod pending in several events counts once),
	// Placed those of them nodeplan placed in at least one.
	Pods, Placed int
	Karpenter    Side
	Nodeplan     Side
	Difference   instancetypes.Price
	Unknown      int
	pods         map[string]bool // pod -> placed
}

// Side is one planner's cumulative account: nodes launched and removed
// and the hourly price of the launched ones minus the removed ones.
type Side struct {
	Launched, Removed, Unpriced int
	Change                      instancetypes.Price
}

// Add counts e into t.
func (t *Totals) Add(e *Event) {
	t.Events[e.Type]++
	if e.Err != nil {
		t.Errors++
	}
	t.Karpenter.Launched += Nodes(e.Karpenter.Launched)
	t.Karpenter.Removed += Nodes(e.Karpenter.Removed)
	k, unpriced := e.Karpenter.Change()
	t.Karpenter.Change += k
	t.Karpenter.Unpriced += unpriced
	if e.Type == Provisioning {
		t.countPods(&e.Nodeplan)
		t.Nodeplan.Launched += e.Nodeplan.Nodes
	} else {
		c := e.Compared()
		t.Nodeplan.Launched += c.Launched
		t.Nodeplan.Removed += c.Deleted
		t.Nodeplan.Unpriced += c.Unpriced
	}
	t.Nodeplan.Change += e.nodeplanChange()
	if d, ok := e.Difference(); ok {
		t.Difference += d
	} else {
		t.Unknown++
	}
}

// countPods counts the pods of d not counted yet, and those it places
// that no event placed before. O(pending pods).
func (t *Totals) countPods(d *Decision) {
	if t.pods == nil {
		t.pods = map[string]bool{}
	}
	unschedulable := map[string]bool{}
	for _, p := range d.UnschedulablePods {
		unschedulable[p] = true
	}
	for _, p := range d.PendingPods {
		placed, seen := t.pods[p]
		if !seen {
			t.Pods++
		}
		if !placed && !unschedulable[p] {
			t.Placed++
			placed = true
		}
		t.pods[p] = placed
	}
}
