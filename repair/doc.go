// Package repair decides which unhealthy nodes Karpenter's node repair
// forcefully replaces, and why every other node is left alone.
//
// [Decide] takes a snapshot of nodes with their conditions (type, status,
// last transition time), the repair policies (a condition type, the status
// that means unhealthy and how long it is tolerated; [AWSPolicies] when none
// are given, [ParsePolicy] reads one written Type=Status:duration) and the time now. A node is unhealthy when one of its
// conditions matches a policy; of several matches the one whose toleration
// ends first counts. An unhealthy node is replaced once its toleration has
// ended (at the deadline itself, not only after), unless more than 20 % of
// its NodePool's nodes, rounded up, are unhealthy: then the whole pool is
// left alone, as mass failure points at something replacing nodes will not
// fix. A node of no NodePool is held to the same cap over all the nodes of
// the input. The [Result] names each node exactly once: in Replace with the
// condition and policy that condemned it, or in Kept with a [Reason]; its
// Pools give each NodePool's count against the cap ([PoolHealth]).
//
// [Plan] then says where the repaired nodes' pods go: the nodes of
// Result.Replace are marked for deletion and emptied together, their
// reschedulable pods pending, solved by packing's provisioning on the rest
// of a [Cluster] through disruption.WhatIf (the what-if consolidation and
// drift share), with new NodeClaims named "repair-replacement-<k>" from the
// NodePools where the pods fit nowhere else. The [Replacement] gives each
// repaired node's pods their homes, the NodeClaims and their hourly price,
// and the provisioning problem and solution, which packing/verify's Plan
// checks. The package sits beside drift in the import graph: it imports
// packing and disruption, and nothing imports it but the host.
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
//   - Karpenter deletes the NodeClaims and lets its provisioner place the
//     evicted pods as they come; [Plan] places all of them in one solve,
//     the plan Karpenter's provisioner makes when the pods are pending
//     together, and reports a pod that fits nowhere as unschedulable
//     without keeping its node (repair is forceful).
//   - [Plan] reads the other nodes as given: a node that is NotReady but
//     still tolerated takes pods unless it carries the node lifecycle
//     controller's not-ready or unreachable taint, as on a live cluster.
//
// Decide and Plan are pure: they read no clock, do not modify their input
// and are safe for concurrent use. Cost model: Decide takes O(n·c + n·p +
// n log n) time for n nodes of c conditions each and p policies, and O(n)
// memory beyond the result; Plan one packing.Solve over the displaced pods
// and O(nodes) besides.
//
// See ExampleDecide, ExampleDecide_cap and ExamplePlan.
package repair
