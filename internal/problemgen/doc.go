// Package problemgen generates packing problems for property tests, fuzz
// targets and benchmarks: one seeded generator shared by every package that
// checks a solver invariant over many inputs.
//
// [Generate] draws a valid [packing.Problem] from a seed: a catalog of
// random instance types (CPU, memory, pod slots, GPUs as extended
// resources, two architectures, zones, spot, on-demand and reserved
// offerings, some unavailable), one to three NodePools (weights,
// requirements with In, NotIn, Exists, Gt, Lt and minValues, labels,
// taints, startup taints, limits including a node count), existing nodes
// with bound pods (some not initialized, some marked for deletion),
// daemonsets, and pending pods with every kind of constraint the solver
// knows, including pods no node can take. A third of the problems also get
// unusual but valid shapes that real clusters contain: daemonsets that
// tolerate everything and request GPUs, NodePools whose requirements
// exclude their own name or labels, hostname requirements, beta zone and
// instance-type labels (agreeing with the node's fields or not) and
// constraints on beta keys, spreads over keys with many values, the
// longest and emptiest label strings, and amounts, limits and prices at
// their bounds. [GenerateOptions] draws solver options across their valid
// range, [CorruptOptions] makes one invalid, and [Disruptive] adds the
// budgets, do-not-disrupt marks and PodDisruptionBudgets that
// consolidation and drift read. [Decode] turns arbitrary bytes into a
// problem the same way, for fuzzing, and may make it invalid ([Corrupt]
// does so on purpose) or hostile. [Minimize] shrinks a failing problem and
// [Dump] prints it compactly.
//
// Cost model: a problem of the default [Size] takes tens of microseconds
// to generate, most of it building the catalog. Everything is
// deterministic: the same seed (or bytes) and Size give an equal problem.
// The functions are safe for concurrent use; they share nothing mutable.
package problemgen
