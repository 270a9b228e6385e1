package verify

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/nodeplan/nodeplan/internal/enum"
	"github.com/nodeplan/nodeplan/packing"
)

// Rule names the property of a valid [packing.Plan] that a [Violation]
// breaks.
// The zero Rule is RulePodLost.
type Rule uint8

// The rules [Plan] checks. The constants carry a Rule prefix, as they did
// when they lived in package packing, where some of the bare names were
// taken (MinValues is a [packing.ReasonKind]).
const (
	// RulePodLost: an input pod is neither bound, on a claim, nor
	// unschedulable.
	RulePodLost Rule = iota
	// RulePodDuplicated: an input pod appears more than once in the plan.
	RulePodDuplicated
	// RuleOrderMismatch: Plan.Order does not list exactly the placed pods,
	// each once.
	RuleOrderMismatch
	// RuleUnknownNode: a binding names no existing node, one marked for
	// deletion, or (for a Displaced pod) a Settling one.
	RuleUnknownNode
	// RuleOverCapacity: the pods (and daemonsets) on a node or on a
	// candidate instance type of a claim exceed its allocatable.
	RuleOverCapacity
	// RuleRequestsMismatch: NodeClaim.Requests is not the pods' requests
	// plus the daemonset overhead on the chosen type.
	RuleRequestsMismatch
	// RuleNodeAffinity: a pod's node selector or required node affinity,
	// or every alternative of its volumes' requirements, does not hold on
	// its node.
	RuleNodeAffinity
	// RuleTaint: a pod does not tolerate a taint of its node.
	RuleTaint
	// RuleNodePoolRequirement: a claim's NodePool is unknown or
	// unavailable, or its instance types or labels break the pool's
	// requirements.
	RuleNodePoolRequirement
	// RuleMinValues: a claim's instance types offer fewer distinct values
	// than a pool requirement's minValues.
	RuleMinValues
	// RuleLimit: a NodePool's limits are exceeded.
	RuleLimit
	// RuleOffering: a claim's offering is not an available, compatible
	// offering of its type, or disagrees with its labels.
	RuleOffering
	// RuleReservation: more claims use a capacity reservation than it has
	// units left.
	RuleReservation
	// RulePriceMismatch: Plan.Price is not the sum of the offerings' prices.
	RulePriceMismatch
	// RuleHostPort: two pods on one node bind the same host port.
	RuleHostPort
	// RuleTopologySpread: a DoNotSchedule topology spread constraint is
	// broken when the pod is placed.
	RuleTopologySpread
	// RulePodAffinity: a required pod affinity term is broken.
	RulePodAffinity
	// RulePodAntiAffinity: a required pod anti-affinity term is broken, in
	// either direction.
	RulePodAntiAffinity
	// RuleUnknownInstanceType: a claim names an instance type its catalog
	// lacks, or a chosen type that is not among its candidates.
	RuleUnknownInstanceType
	// RuleMissingReason: an unschedulable pod has no reason message.
	RuleMissingReason
	// RuleUnknownPod: the plan refers to a pod index outside Problem.Pods.
	RuleUnknownPod
	// RuleHeadroom: a buffer pod (packing.Pod.Buffer) is placed or
	// reported outside Plan.Headroom, or a Headroom entry names a real pod
	// or is held in no or several places.
	RuleHeadroom
	// RuleAttachLimit: a pod joins an existing node whose CSI attach
	// limits ([packing.Node.VolumeLimits]) the claims of its pods then
	// exceed.
	RuleAttachLimit
	// RuleInvalidVolume: a pending pod, not Displaced, that mounts a claim
	// Karpenter rejects ([packing.Volume].Invalid) is placed.
	RuleInvalidVolume
	// RuleClaimName: a claim's hostname (its name, unless its labels name
	// another) is another claim's, or an existing node's name or
	// hostname. A new node's hostname is its own: a checker that took the
	// two for one node would count the node's pods on the claim.
	RuleClaimName
)

var ruleNames = [...]string{"PodLost", "PodDuplicated", "OrderMismatch", "UnknownNode",
	"OverCapacity", "RequestsMismatch", "NodeAffinity", "Taint", "NodePoolRequirement",
	"MinValues", "Limit", "Offering", "Reservation", "PriceMismatch", "HostPort",
	"TopologySpread", "PodAffinity", "PodAntiAffinity", "UnknownInstanceType",
	"MissingReason", "UnknownPod", "Headroom", "AttachLimit", "InvalidVolume", "ClaimName"}

// String returns the rule's name without the prefix, such as "PodLost".
func (r Rule) String() string { return enum.String(r, "Rule", ruleNames[:]) }

// Violation is one broken property of a plan. Pod is the index of the pod
// in [packing.Problem.Pods], or -1 when the violation concerns no single
// input pod; Node names the node or claim, or is empty. Message is a sentence a person
// can act on. The zero Violation is a RulePodLost about pod 0 with no
// message; Violations are comparable.
type Violation struct {
	Rule    Rule
	Pod     int
	Node    string
	Message string
}

// String formats v as "Rule: Message".
func (v Violation) String() string { return v.Rule.String() + ": " + v.Message }

// compareViolations orders by rule, node, pod, then message: a total order.
func compareViolations(a, b Violation) int {
	return cmp.Or(cmp.Compare(a.Rule, b.Rule), cmp.Compare(a.Node, b.Node),
		cmp.Compare(a.Pod, b.Pod), cmp.Compare(a.Message, b.Message))
}

// Plan checks plan against the semantics a solution of p must satisfy
// and returns every violation found, sorted by rule, node, pod and message;
// nil means the plan is valid. It is an independent re-check of
// [packing.Solve]: it shares no placement code with the solver, and reads
// a node's labels by the one rule packing's documentation states
// ([packing.Node.EffectiveLabels]).
//
// Plan never panics: pod indexes out of range, unknown nodes, pools and
// instance types, and nil catalogs are reported as violations. It does not
// modify p or plan and is safe for concurrent use on shared inputs.
//
// The complexity is O(P·Q) for the topology replay, where P is the number
// of placed pods with topology constraints (plus those that anti-affine
// others) and Q the number of pods placed, and roughly linear otherwise;
// pods that share a selector share its running counts per domain, so that
// the replay's counting is O(S·Q) for S distinct selectors.
func Plan(p packing.Problem, plan packing.Plan) []Violation {
	return check(p, plan, false)
}

// check is Plan; with fresh the topology replay counts every domain from
// scratch for each pod rather than keeping running tallies (the tests
// compare the two).
func check(p packing.Problem, plan packing.Plan, fresh bool) []Violation {
	pre := &verifier{p: p, plan: plan}
	v := newVerifier(p, pre.withHeadroom())
	v.freshCounts = fresh
	v.out = append(pre.out, v.out...)
	v.checkAccounting()
	v.checkOrder()
	v.checkHosts()
	v.checkClaimNames()
	v.checkLimits()
	v.checkReservations()
	v.checkPrice()
	v.checkTopology()
	v.checkVolumes()
	slices.SortFunc(v.out, compareViolations)
	return slices.Compact(v.out)
}

// add records a violation with a formatted message.
func (v *verifier) add(r Rule, pod int, node, format string, args ...any) {
	v.out = append(v.out, Violation{Rule: r, Pod: pod, Node: node, Message: fmt.Sprintf(format, args...)})
}
