// Package workload is neutral, seeded benchmark input: instance types,
// NodePools and pods as plain structs that belong to neither scheduler, so
// that nodeplan and Karpenter can be measured side by side on the same data.
// Converters in the benchmark harnesses turn a [Workload] into each
// scheduler's own types.
//
// [KarpenterDiverse] rebuilds the workload of the scheduling benchmark that
// ships with Karpenter's core (400 fake instance types, one NodePool, five
// classes of pods); [KarpenterDiversePreferences] is its preference variant
// and [ZoneSpread] a workload of many zone-spread deployments on the same
// instance types. Every generator is a pure function of its arguments: the
// same (n, seed) gives the same Workload, field for field, and randomness
// comes only from math/rand/v2's PCG seeded explicitly.
//
// Cost model: a generator runs in O(n + T) time and memory for n pods and
// T = 400 instance types, allocating a few small maps and slices per pod.
// A Workload is plain data; nothing in it is shared with another Workload.
//
// See ExampleKarpenterDiverse.
package workload
