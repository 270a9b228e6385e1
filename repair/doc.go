// Package repair decides which unhealthy nodes Karpenter's node repair
// forcefully replaces, and why every other node is left alone.
//
// [Decide] takes a snapshot of nodes with their conditions (type, status,
// last transition time), the repair policies (a condition type, the status
// that means unhealthy and how long it is tolerated; [AWSPolicies] when none
// are given) and the time now. A node is unhealthy when one of its
// conditions matches a policy; of several matches the one whose toleration
// ends first counts. An unhealthy node is replaced once its toleration has
// ended (at the deadline itself, not only after), unless more than 20 % of
// its NodePool's nodes, rounded up, are unhealthy: then the whole pool is
// left alone, as mass failure points at something replacing nodes will not
// fix. A node of no NodePool is held to the same cap over all the nodes of
// the input. The [Result] names each node exactly once: in Replace with the
// condition and policy that condemned it, or in Kept with a [Reason].
//
// The semantics are Karpenter v1.14.1's
// (pkg/controllers/node/health/controller.go) and its AWS provider's
// (pkg/cloudprovider/cloudprovider.go, RepairPolicies):
//   - the cap is intstr's "20%" of the pool's nodes rounded up, and repair is
//     blocked when the unhealthy count is strictly greater: one of three
//     nodes may be repaired, three of ten may not;
//   - every node of the pool counts, whether unmanaged, being deleted or
//     still within its toleration: "unhealthy" for the cap means a matching
//     condition, not an ended toleration;
//   - repair is forceful: it ignores disruption budgets and the
//     karpenter.sh/do-not-disrupt annotation, so neither is an input, and
//     Karpenter sets the NodeClaim's termination timestamp annotation to now
//     (unless one already passed), so the drain does not wait for the
//     NodePool's terminationGracePeriod; a [Repair] means exactly that;
//   - only nodes Karpenter manages (with a NodeClaim) are repaired, and a
//     node whose NodeClaim is already being deleted is not deleted again;
//   - a node's condition of a type is its first condition of that type.
//
// Where nodeplan differs on purpose:
//   - Karpenter takes the pool from the NodeClaim's label and counts nodes by
//     the Node's label; nodeplan has one NodePool per node, as the two agree
//     on every node Karpenter launched;
//   - Karpenter reconciles one node at a time, so what it decides depends on
//     which node it sees first; [Decide] judges every node on the same
//     snapshot and does not lower a pool's count for the nodes it replaces
//     (Karpenter does not either: a deleted node stays listed until gone);
//   - invalid input (a node without a name, two nodes of one name, a
//     condition of unknown status or without a transition time, a policy
//     with a negative toleration, no time now) is an error wrapping
//     [ErrInvalidInput], where Karpenter would read it some way;
//   - no policies means the AWS provider's, where Karpenter's core with a
//     provider of no policies repairs nothing.
//
// Decide is pure: it reads no clock, does not modify its input and is safe
// for concurrent use. Cost model: O(n·c + n·p + n log n) time for n nodes
// of c conditions each and p policies, and O(n) memory beyond the result.
//
// See ExampleDecide and ExampleDecide_cap.
package repair
