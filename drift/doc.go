// Package drift decides which nodes no longer match what their NodePool and
// NodeClass ask for, which have outlived expireAfter, and which are about to
// be reclaimed by their cloud, and what replaces them.
//
// [Evaluate] turns a snapshot of nodes, NodePools ([Template]), NodeClasses
// and the instance catalog into [Finding]s, one per rule that holds for a
// node, in Karpenter's rule order: NodePool hash drift ([Hash],
// [HashVersion]), requirement drift, instance type gone (after a one-hour
// grace from creation), NodeClass drift (image, subnet, security groups,
// NodeClass hash) and expiration. [Commands] turns findings into replacement
// commands in Karpenter's order (empty nodes first, oldest drift first) under
// the NodePools' disruption budgets, with every displaced pod's simulated home
// from packing.Solve, and explains every node it leaves alone. Only
// reschedulable pods are displaced (packing.Pod.Reschedulable, Karpenter's
// IsReschedulable): daemonset, mirror (owner Node) and terminating pods
// (a StatefulSet's excepted) go with their node, get no [disruption.Home], and leave
// a node that runs nothing else empty; a terminating pod's do-not-disrupt
// never blocks. As
// Karpenter's drift is "eventual disruption", a drifted node of a NodePool
// with a terminationGracePeriod is replaced even when its pods have
// karpenter.sh/do-not-disrupt or a blocking PodDisruptionBudget: the grace
// period bounds how long they hold it, and the command says by when each
// is deleted ([PodDeadline]). The node's own do-not-disrupt and the budgets
// still block it.
// [Interruption] turns spot interruption, rebalance, scheduled change and
// state change notices into the offerings to mark unavailable for
// [UnavailableTTL], the catalog without them, the replacement plan and
// whether it is ready inside the two-minute spot warning.
//
// Every entry point validates its input first ([Input.Validate],
// [Cluster.Validate], and the findings or notices) and returns the
// problems, joined, as an error naming each object and field and matching
// [ErrInvalid] with errors.Is, with no partial answer: nodeplan never reads
// invalid input some way (the first of two NodePools of one name, a
// negative duration as zero). What stays is documented on each function:
// in-range input that Karpenter itself reads a particular way, such as a
// node of no known NodePool getting no finding, or a finding for a node
// that has gone since being stale and blocked.
//
// The semantics are Karpenter v1.14's (pkg/controllers/nodeclaim/disruption,
// nodeclaim/expiration, disruption/drift.go) and its AWS provider's
// (EC2NodeClass drift, the interruption controller and its 3-minute
// unavailable-offerings cache). Where nodeplan differs on purpose:
//   - expiration may be graceful: with [Expiration.GracePeriod] set, an
//     expired node is replaced under the budgets like a drifted one until the
//     grace period ends, and only then forcefully;
//   - [Commands] returns every command the budgets allow in one pass, where
//     Karpenter's drift method returns one command per pass. Each command is
//     chosen, checked (do-not-disrupt, PodDisruptionBudgets, budgets) and
//     simulated on the cluster as the commands before it leave it: their
//     pods on their new homes, their nodes being deleted, their
//     replacements in flight; so a pod a forceful command moves still
//     protects the node it moves to (the cluster is a disruption.WhatIf,
//     as consolidation's is). [VerifyCommands] checks the same rule
//     independently, on disruption.Verifier as consolidation's checker;
//   - an eventual command still finds a home for every pod, protected
//     ones included, where Karpenter leaves do-not-disrupt pods and pods
//     under a fully blocking PodDisruptionBudget out of its simulation;
//     so a protected pod that fits nowhere blocks its node;
//   - graceful expiration is not eventual: protected pods block it until
//     it turns forceful.
//
// Cost model: Evaluate is O(nodes × (labels + requirements + security
// groups)) after O(pools + classes) set-up, with one hash per NodePool and
// NodeClass, not per node; a clean node costs no allocation. Commands
// first validates the cluster ([Cluster.Validate]: packing's validation of
// every node, pod and label string, O(cluster size), no allocation per
// valid pod); then it picks each next candidate by a scan of those left
// (O(candidates²) in all, emptiness being counted as pods move, not
// rescanned) and simulates each candidate that passes the cheaper checks
// (do-not-disrupt, PodDisruptionBudgets, budgets) with one packing.Solve.
// The cluster's nodes are validated once: a simulation only moves their
// pods, and its Solve checks only what it adds, the candidate's pods and
// the replacements in flight from earlier commands with their pods, plus
// the NodePools and the uniqueness of node names (packing.SolveVouched),
// O(pods moved + nodes). Interruption validates the cluster and solves
// once, in the same way. Everything is pure: time is a parameter, the
// snapshot's Input.Now, as consolidation.Cluster.Now is consolidation's;
// no clock is read, inputs are never modified and outputs are
// deterministic. See the package examples.
package drift
