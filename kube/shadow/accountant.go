package shadow

import (
	"cmp"
	"fmt"
	"maps"
	"slices"
	"time"

	"github.com/nodeplan/nodeplan/instancetypes"
	"github.com/nodeplan/nodeplan/kube"
	"github.com/nodeplan/nodeplan/requirements"
	corev1 "k8s.io/api/core/v1"
	karpv1 "sigs.k8s.io/karpenter/pkg/apis/v1"
)

// Decider answers what nodeplan would have done on a snapshot. [Planner]
// is the one nodeplan shadow uses; tests may give their own.
type Decider interface {
	// Provision plans the snapshot's pending pods (Decision's Pending,
	// Placed, Unschedulable, Nodes and Price).
	Provision(objs kube.Objects) (Decision, error)
	// Disrupt plans consolidation and drift on the snapshot at now
	// (Decision's Consolidation and Drift).
	Disrupt(objs kube.Objects, now time.Time) (Decision, error)
	// Price is the hourly price of an offering; an error says why there
	// is none.
	Price(o Offering) (instancetypes.Price, error)
}

// Options tune an [Accountant]. The zero Options are Karpenter's default
// batch windows and the timeouts given on each field.
type Options struct {
	// BatchIdle ends a provisioning batch when no NodeClaim was created
	// for this long; 0 means 1 s (Karpenter's --batch-idle-duration).
	BatchIdle time.Duration
	// BatchMax ends a batch this long after its first NodeClaim; 0 means
	// 10 s (Karpenter's --batch-max-duration).
	BatchMax time.Duration
	// ResolveTimeout is how long a closed event waits for its NodeClaims'
	// offering labels; those still missing are reported unresolved. 0
	// means 2 minutes.
	ResolveTimeout time.Duration
	// DisruptionTimeout is how long a disruption waits for the nodes
	// Karpenter marked to be deleted (Karpenter launches and initialises
	// the replacements first); the rest are reported Kept. 0 means 15
	// minutes.
	DisruptionTimeout time.Duration
}

func (o Options) withDefaults() Options {
	def := func(d *time.Duration, v time.Duration) {
		if *d <= 0 {
			*d = v
		}
	}
	def(&o.BatchIdle, time.Second)
	def(&o.BatchMax, 10*time.Second)
	def(&o.ResolveTimeout, 2*time.Minute)
	def(&o.DisruptionTimeout, 15*time.Minute)
	return o
}

// Change is one observed change of a NodeClaim (*karpv1.NodeClaim) or a
// Node (*corev1.Node): Old is nil for an added object, New nil for a
// deleted one. An update whose two versions have the same
// resourceVersion (an informer's resync) changes nothing.
type Change struct {
	Old, New any
}

// Accountant turns the NodeClaim and Node changes of a cluster where
// Karpenter runs into [Event] values, each with nodeplan's answer on the
// snapshot of the moment, and keeps their [Totals]. Every time is the
// caller's: the same calls give the same events. The current snapshot is
// asked for (the func given to Observe) only when an event opens.
//
// Provisioning: NodeClaims created within a batch window (Options) are
// one event, decided on the snapshot of the first one's moment with the
// batch's NodeClaims (and their Nodes) left out. Disruption: the first
// mark (a NodeClaim's DisruptionReason condition, a Node's
// karpenter.sh/disrupted taint) or deletion (deletionTimestamp set, or
// the object gone) opens an event decided on the snapshot before that
// change. Only nodes Karpenter manages count (a NodeClaim seen is theirs,
// or they have the karpenter.sh/nodepool label): another node's taint or
// deletion (a managed node group's, an admin's) is no event. NodeClaims
// created within BatchIdle of its last mark are its replacements
// (Karpenter creates replacements right after it marks their candidates,
// and deletes the candidates only once the replacements are initialised,
// so later NodeClaims, and those after a deletion, are provisioning); it
// closes when its marked nodes are deleted (or DisruptionTimeout passed)
// and nothing happened for BatchIdle. A closed event is reported once all
// its NodeClaims have resolved offerings, or after ResolveTimeout.
// A NodeClaim of an event not yet reported that is deleted counts as
// Deleted there, not as a disruption (a launch that failed).
//
// Cost: Observe is O(1) for a NodeClaim change and O(NodeClaims) for a
// Node marked or deleted (its NodeClaim is looked up), plus one copy of
// the snapshot when an event opens; the Decider runs when an event is
// reported. An Accountant keeps each NodeClaim it has seen until the API
// deletes it (and its event, if open then, is reported), and the name of
// each node it reported removed.
//
// An Accountant is not safe for concurrent use. The zero Accountant is
// not usable; call [New].
type Accountant struct {
	d      Decider
	o      Options
	claims map[string]*tracked // every NodeClaim seen, by name
	open   [2]*window          // by Type: the open batch and disruption
	closed []*window           // awaiting resolution, in closing order
	gone   map[string]bool     // claims and nodes ("node/NAME") reported removed
	seq    int
	totals Totals
}

// tracked is the last version of a NodeClaim and the window that created
// it.
type tracked struct {
	claim   *karpv1.NodeClaim
	window  *window
	deleted bool // its deletion was seen
	gone    bool // the API deleted it: forgotten once its event is reported
}

// window is an event being collected.
type window struct {
	typ             Type
	start, last, at time.Time // at: when it closed
	marking         time.Time // a disruption's last mark (zero: none)
	snap            kube.Objects
	launched        []string // NodeClaim names
	removed         []Claim  // unpriced until reported
	marked          []string // NodeClaim or "node/NAME" keys
	reason          string
}

// New returns an Accountant asking d for nodeplan's answers.
func New(d Decider, o Options) *Accountant {
	return &Accountant{d: d, o: o.withDefaults(), claims: map[string]*tracked{}, gone: map[string]bool{}}
}

// Start records the objects of the informers' initial list: their
// NodeClaims are known, so that none of them is an event.
func (a *Accountant) Start(objs kube.Objects) {
	for i := range objs.NodeClaims {
		a.claims[objs.NodeClaims[i].Name] = &tracked{claim: &objs.NodeClaims[i]}
	}
}

// Totals returns the totals of the events reported so far: a copy, which
// the caller may Add to. O(pods counted).
func (a *Accountant) Totals() Totals {
	t := a.totals
	t.pods = maps.Clone(t.pods)
	return t
}

// Observe applies the change c observed at now and returns the events
// that were complete before it (see [Accountant.Tick]). current returns
// the snapshot after c; it is called at most once. The objects of c and
// of current are not modified.
func (a *Accountant) Observe(now time.Time, c Change, current func() kube.Objects) ([]Event, error) {
	events := a.Tick(now)
	var err error
	switch o := c.New.(type) {
	case *karpv1.NodeClaim:
		old, _ := c.Old.(*karpv1.NodeClaim)
		a.claimChanged(now, old, o, current)
	case *corev1.Node:
		old, _ := c.Old.(*corev1.Node)
		a.nodeChanged(now, old, o, current)
	case nil:
		err = a.deleted(now, c.Old, current)
	default:
		err = fmt.Errorf("shadow: a change of %T: want a *NodeClaim or *Node", c.New)
	}
	return events, err
}

func (a *Accountant) deleted(now time.Time, old any, current func() kube.Objects) error {
	switch o := old.(type) {
	case *karpv1.NodeClaim:
		a.claimGone(now, o, current)
	case *corev1.Node:
		a.nodeGone(now, o, current)
	default:
		return fmt.Errorf("shadow: a deletion of %T: want a *NodeClaim or *Node", old)
	}
	return nil
}

func (a *Accountant) claimChanged(now time.Time, old, nc *karpv1.NodeClaim, current func() kube.Objects) {
	t, known := a.claims[nc.Name]
	if !known {
		a.created(now, nc, current)
		return
	}
	if old == nil {
		old = t.claim
	}
	if old.ResourceVersion != "" && old.ResourceVersion == nc.ResourceVersion {
		return
	}
	t.claim = nc
	before := func() kube.Objects { return withClaim(current(), old) }
	switch {
	case nc.DeletionTimestamp != nil && old.DeletionTimestamp == nil:
		a.remove(now, claimOf(nc), deletionReason(nc, now), before)
	case disruptionReason(nc) != "" && disruptionReason(old) == "":
		a.mark(now, nc.Name, disruptionReason(nc), before)
	case disruptionReason(nc) == "" && disruptionReason(old) != "":
		a.unmark(nc.Name)
	}
}

// created tracks a new NodeClaim: a replacement of the open disruption
// when it comes within BatchIdle of its last mark, else one of the open
// (or a new) provisioning batch. Karpenter's disruption queue
// (StartCommand) marks the candidates, then creates their replacements at
// once, and deletes the candidates only once the replacements have
// initialised: a deletion opens no such window.
func (a *Accountant) created(now time.Time, nc *karpv1.NodeClaim, current func() kube.Objects) {
	w := a.open[Disruption]
	if w != nil && (w.marking.IsZero() || !now.Before(w.marking.Add(a.o.BatchIdle))) {
		w = nil
	}
	if w == nil {
		if w = a.open[Provisioning]; w == nil {
			w = &window{typ: Provisioning, start: now, snap: current()}
			a.open[Provisioning] = w
		}
	}
	w.launched = append(w.launched, nc.Name)
	w.last = now
	a.claims[nc.Name] = &tracked{claim: nc, window: w}
}

// claimGone records a NodeClaim deleted from the API, and forgets it once
// its event is reported.
func (a *Accountant) claimGone(now time.Time, old *karpv1.NodeClaim, current func() kube.Objects) {
	t, known := a.claims[old.Name]
	if known {
		old = t.claim // the newest version seen
	}
	a.remove(now, claimOf(old), deletionReason(old, now), func() kube.Objects { return withClaim(current(), old) })
	switch {
	case known && t.window == nil:
		delete(a.claims, old.Name)
	case known:
		t.gone = true
	}
}

func (a *Accountant) nodeChanged(now time.Time, old, n *corev1.Node, current func() kube.Objects) {
	if old == nil || (old.ResourceVersion != "" && old.ResourceVersion == n.ResourceVersion) {
		return
	}
	deleting, marking := n.DeletionTimestamp != nil && old.DeletionTimestamp == nil, disrupted(n) != disrupted(old)
	if !(deleting || marking) || !a.managed(n) {
		return
	}
	before := func() kube.Objects { return withNode(current(), old) }
	switch {
	case deleting:
		a.remove(now, a.nodeClaim(n), "", before)
	case disrupted(n):
		a.mark(now, a.nodeKey(n), "", before)
	default:
		a.unmark(a.nodeKey(n))
	}
}

func (a *Accountant) nodeGone(now time.Time, old *corev1.Node, current func() kube.Objects) {
	if !a.managed(old) {
		return
	}
	a.remove(now, a.nodeClaim(old), "", func() kube.Objects { return withNode(current(), old) })
}

// managed reports whether Karpenter manages n: a NodeClaim seen is
// its, or it has the karpenter.sh/nodepool label. Another node's taints
// and deletion (a managed node group's, an admin's) are no Karpenter
// disruption. O(claims).
func (a *Accountant) managed(n *corev1.Node) bool {
	return n.Labels[karpv1.NodePoolLabelKey] != "" || a.claimName(n) != ""
}

// nodeKey is the key of n in gone and marked: its NodeClaim's name, else
// "node/NAME".
func (a *Accountant) nodeKey(n *corev1.Node) string {
	if name := a.claimName(n); name != "" {
		return name
	}
	return "node/" + n.Name
}

// nodeClaim is the removal of node n: its NodeClaim's, else the node's
// own, priced by its labels.
func (a *Accountant) nodeClaim(n *corev1.Node) Claim {
	if name := a.claimName(n); name != "" {
		c := claimOf(a.claims[name].claim)
		c.Node = n.Name
		return c
	}
	return Claim{Name: "node/" + n.Name, Node: n.Name, NodePool: n.Labels[karpv1.NodePoolLabelKey], Offering: offering(n.Labels)}
}

// claimName returns the name of n's NodeClaim (status.nodeName, else
// status.providerID), "" for none. O(claims).
func (a *Accountant) claimName(n *corev1.Node) string {
	found := ""
	for name, t := range a.claims {
		s := t.claim.Status
		if (s.NodeName == n.Name || (s.ProviderID != "" && s.ProviderID == n.Spec.ProviderID)) && (found == "" || name < found) {
			found = name
		}
	}
	return found
}

// remove records the deletion of c (a NodeClaim, or a Node named
// "node/NAME"), once: in its own unreported event as Deleted, else in the
// open (or a new) disruption, for reason when known.
func (a *Accountant) remove(now time.Time, c Claim, reason string, before func() kube.Objects) {
	if a.gone[c.Name] {
		return
	}
	a.gone[c.Name] = true
	if c.Node != "" {
		a.gone["node/"+c.Node] = true // its Node's deletion is this one
	}
	if t, ok := a.claims[c.Name]; ok && t.window != nil { // its event is not reported yet
		t.deleted = true
		return
	}
	w := a.disruption(now, before)
	w.removed = append(w.removed, c)
	w.marked = slices.DeleteFunc(w.marked, func(k string) bool { return k == c.Name })
	w.reason = cmp.Or(w.reason, reason)
	w.last = now
}

// mark records that Karpenter chose key (a NodeClaim or "node/NAME") for
// disruption, for reason when known.
func (a *Accountant) mark(now time.Time, key, reason string, before func() kube.Objects) {
	if a.gone[key] {
		return
	}
	w := a.disruption(now, before)
	if !slices.Contains(w.marked, key) {
		w.marked = append(w.marked, key)
	}
	if w.reason == "" {
		w.reason = reason
	}
	w.last, w.marking = now, now
}

// unmark forgets a mark Karpenter took back (its command failed).
func (a *Accountant) unmark(key string) {
	if w := a.open[Disruption]; w != nil {
		w.marked = slices.DeleteFunc(w.marked, func(k string) bool { return k == key })
	}
}

// disruption returns the open disruption, opening one on the snapshot
// before when there is none.
func (a *Accountant) disruption(now time.Time, before func() kube.Objects) *window {
	if w := a.open[Disruption]; w != nil {
		return w
	}
	w := &window{typ: Disruption, start: now, last: now, snap: before()}
	a.open[Disruption] = w
	return w
}

// Tick closes the windows whose time has passed at now and returns the
// events that are complete: all their NodeClaims resolved or deleted, or
// ResolveTimeout passed since they closed. Events come in closing order.
func (a *Accountant) Tick(now time.Time) []Event {
	a.close(now, false)
	var out []Event
	keep := a.closed[:0]
	for _, w := range a.closed {
		if a.resolved(w) || !now.Before(w.at.Add(a.o.ResolveTimeout)) {
			out = append(out, a.report(w, now))
		} else {
			keep = append(keep, w)
		}
	}
	a.closed = keep
	return out
}

// Flush closes every window and reports every event now, unresolved
// NodeClaims as such: for the end of a run.
func (a *Accountant) Flush(now time.Time) []Event {
	a.close(now, true)
	var out []Event
	for _, w := range a.closed {
		out = append(out, a.report(w, now))
	}
	a.closed = nil
	return out
}

// close moves the open windows whose time has passed (all, with force)
// to closed. A batch closes at the end of its window (even when now is
// later), a disruption at now. A disruption that removed and launched
// nothing is dropped.
func (a *Accountant) close(now time.Time, force bool) {
	if w := a.open[Provisioning]; w != nil {
		end := w.last.Add(a.o.BatchIdle)
		if limit := w.start.Add(a.o.BatchMax); limit.Before(end) {
			end = limit
		}
		if force || !now.Before(end) {
			a.open[Provisioning] = nil
			w.at = end
			a.closed = append(a.closed, w)
		}
	}
	w := a.open[Disruption]
	if w == nil || !(force || a.disruptionDone(w, now)) {
		return
	}
	a.open[Disruption] = nil
	if len(w.removed)+len(w.launched) > 0 {
		w.at = now
		a.closed = append(a.closed, w)
	}
}

func (a *Accountant) disruptionDone(w *window, now time.Time) bool {
	idle := !now.Before(w.last.Add(a.o.BatchIdle))
	return idle && (len(w.marked) == 0 || !now.Before(w.start.Add(a.o.DisruptionTimeout)))
}

// resolved reports whether every NodeClaim w launched has its offering or
// was deleted.
func (a *Accountant) resolved(w *window) bool {
	for _, name := range w.launched {
		if t := a.claims[name]; !t.deleted && !claimOf(t.claim).Offering.Resolved() {
			return false
		}
	}
	return true
}

// report makes the event of the closed window w at now, asks the decider
// and counts it into the totals.
func (a *Accountant) report(w *window, now time.Time) Event {
	a.seq++
	e := Event{Seq: a.seq, Type: w.typ, Start: w.start, End: now,
		Karpenter: Karpenter{Reason: w.reason}}
	if len(w.marked) > 0 {
		e.Karpenter.Kept = slices.Clone(w.marked)
	}
	for _, name := range w.launched {
		t := a.claims[name]
		c := claimOf(t.claim)
		c.Deleted = t.deleted
		e.Karpenter.Launched = append(e.Karpenter.Launched, a.price(c))
	}
	for _, c := range w.removed {
		e.Karpenter.Removed = append(e.Karpenter.Removed, a.price(c))
	}
	if w.typ == Provisioning {
		e.Nodeplan, e.Err = a.d.Provision(withoutClaims(w.snap, w.launched))
	} else {
		e.Nodeplan, e.Err = a.d.Disrupt(w.snap, w.start)
	}
	for _, name := range w.launched {
		if t := a.claims[name]; t.gone {
			delete(a.claims, name)
		} else {
			t.window = nil // reported: a later deletion is a disruption
		}
	}
	a.totals.Add(&e)
	return e
}

// price prices c at its offering.
func (a *Accountant) price(c Claim) Claim {
	if !c.Offering.Resolved() {
		c.Why = "offering not resolved: " + missing(c.Offering)
		return c
	}
	p, err := a.d.Price(c.Offering)
	if err != nil {
		c.Why = err.Error()
		return c
	}
	c.Price, c.Priced = p, true
	return c
}

// missing names the offering labels o lacks.
func missing(o Offering) string {
	var out []string
	for _, l := range []struct{ key, v string }{{requirements.LabelInstanceType, o.InstanceType},
		{requirements.LabelZone, o.Zone}, {requirements.LabelCapacityType, o.CapacityType}} {
		if l.v == "" {
			out = append(out, l.key)
		}
	}
	return fmt.Sprintf("no label %v", out)
}

// claimOf is the unpriced Claim of nc.
func claimOf(nc *karpv1.NodeClaim) Claim {
	return Claim{Name: nc.Name, Node: nc.Status.NodeName, NodePool: nc.Labels[karpv1.NodePoolLabelKey], Offering: offering(nc.Labels)}
}

func offering(labels map[string]string) Offering {
	return Offering{InstanceType: labels[requirements.LabelInstanceType], Zone: labels[requirements.LabelZone],
		CapacityType: labels[requirements.LabelCapacityType]}
}

// disruptionReason is the reason of nc's DisruptionReason condition when
// it is True, else "".
func disruptionReason(nc *karpv1.NodeClaim) string {
	for _, c := range nc.Status.Conditions {
		if c.Type == karpv1.ConditionTypeDisruptionReason && c.Status == "True" {
			return cmp.Or(c.Reason, c.Type)
		}
	}
	return ""
}

// deletionReason is the reason of nc's deletion at now: its
// DisruptionReason when Karpenter marked it, else ReasonExpired when it
// is past its spec.expireAfter (Karpenter's expiration controller deletes
// such a claim unmarked), else "".
func deletionReason(nc *karpv1.NodeClaim, now time.Time) string {
	if r := disruptionReason(nc); r != "" {
		return r
	}
	if d := nc.Spec.ExpireAfter.Duration; d != nil && !now.Before(nc.CreationTimestamp.Add(*d)) {
		return ReasonExpired
	}
	return ""
}

// disrupted reports whether n has Karpenter's karpenter.sh/disrupted
// NoSchedule taint.
func disrupted(n *corev1.Node) bool {
	return slices.ContainsFunc(n.Spec.Taints, func(t corev1.Taint) bool { return kube.DisruptedTaint(t.Key, string(t.Effect)) })
}
