// Package verify is an independent checker of a [packing.Plan] against its
// [packing.Problem]: the second opinion a host may ask for before acting
// on a plan, and the one the property tests ask on every generated
// problem.
//
// [Plan] checks every rule a solution must keep: every pod exactly once
// (bound, on a claim, or unschedulable with a reason) and Plan.Order
// listing the placed pods; capacity of the node and of every candidate
// instance type of a claim, with the daemonset overhead on each type;
// node affinity and the pods' volume requirements, taints, NodePool
// requirements, minValues and limits;
// offerings, capacity reservations and the plan's price; host ports; CSI
// attach limits of existing nodes (replayed in plan order, as Karpenter
// admits each pod) and pods placed despite an invalid claim; claims'
// hostnames, each new (no node's, no other claim's); and
// topology spread, pod affinity and anti-affinity replayed in
// [packing.Plan.Order]. [Moves] checks the homes a disruption command
// gives displaced pods (consolidation and drift use it): Plan without the
// claims' requests and price, in any order the host may bind them in.
// Each broken rule is a [Violation] naming its [Rule].
//
// Buffer pods (packing.Pod.Buffer, a CapacityBuffer's virtual pods) come
// out of a plan only in [packing.Plan.Headroom]. Plan puts each back where
// the headroom says it is held (a binding, a claim's pod, or unschedulable,
// at its Step in Order) and then checks them as any pod: capacity,
// affinity, taints, topology and the rest, and that each is accounted
// exactly once. A buffer pod outside Headroom, or a real pod in it, is a
// RuleHeadroom violation.
//
// Of package packing it uses only the exported API (besides the model's
// own packages requirements, resources and instancetypes, and the
// module's internal/sat and internal/enum), so the compiler, not a
// comment, guarantees that it shares no placement code with the solver.
// One rule it does share on purpose: it reads labels through
// [packing.Node.EffectiveLabels] and [packing.NodePool.EffectiveLabels],
// the one label rule both sides follow, so a fault in that rule is not
// one verify can catch. It restates the rest itself.
//
// Cost model: Plan is O(P·Q) for the topology replay, where P is the
// number of placed pods with topology constraints (plus those that
// anti-affine others) and Q the number of pods placed, and roughly linear
// in the size of the problem and plan otherwise. The replay keeps, per
// topology key and selector (a spread's namespace and selector, a term's
// namespaces and selector), a running count per domain, so that pods with
// the same constraint count the placed pods once between them: the
// counting is O(S·Q) for S distinct ones, and what stays O(P·Q) is the
// check that no placed pod's anti-affinity repels the next. Moves is one Plan call,
// or, when the plan's order breaks a topology rule, a greedy search of
// O(P²) Plan calls for P displaced pods, at most [MaxReorder] of them.
// Neither modifies its inputs, and both are safe for concurrent use on
// shared inputs. See ExamplePlan.
package verify
