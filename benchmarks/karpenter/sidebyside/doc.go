// Package sidebyside runs a neutral [workload.Workload] through Karpenter's
// real provisioning scheduler (sigs.k8s.io/karpenter v1.14.1), set up the way
// Karpenter's own scheduling benchmark sets it up: its fake cloud provider, a
// controller-runtime fake client, state.NewCluster, scheduling.NewTopology and
// scheduling.NewScheduler, with no API server and no envtest.
//
// [Prepare] converts the workload and builds the scheduler; [Run.Solve] calls
// Karpenter's Solve once and measures only that call; [RunKarpenter] does
// both. The result counts scheduled pods and NodeClaims and prices each
// NodeClaim at the cheapest available offering, among its instance type
// options, compatible with its requirements.
//
// Cost model: conversion is O(pods + types·offerings); the solve costs what
// Karpenter's costs (a few hundred pods per second on two cores). Karpenter's
// scheduler is not deterministic across runs (it uses goroutines and map
// iteration): on these workloads its node counts mostly repeat, but its
// $/h does not, since ties between equally loaded zones fall in map order
// (see TestDifferential).
// Converted pods get a fixed creation time and UIDs hashed from their names,
// so Karpenter's pod order is the same from run to run.
//
// Consolidation: [GenerateFragmented] draws a running, underused cluster
// ([Fragmented]: nodes of Karpenter's fake types with deployments' pods
// bound, PDBs, do-not-disrupt pods, zone and hostname spreads, one
// NodePool consolidating WhenEmptyOrUnderutilized after 0s under a
// budget), converted once for each side. [RunKarpenterConsolidation] runs
// Karpenter's real disruption methods (Emptiness, StaticDrift, Drift,
// MultiNodeConsolidation, SingleNodeConsolidation) as a library, on a
// controller-runtime fake client with Karpenter's field indexes, its fake
// cloud provider, state.Cluster, provisioner and queue, a fake clock and a
// no-op command validator, as its disruption suite sets them up. It drives
// each method as Controller.disrupt does and ends a pass at the first
// command, as Reconcile does, but executes the command itself instead of
// the orchestration queue (which waits for real launches and drains):
// replacements come up initialized at once at their cheapest compatible
// offering, displaced pods are bound where Karpenter's simulation put
// them, candidates are deleted, so budgets free up as soon as a command
// is done. [RunNodeplanConsolidation] times consolidation.Plan on the same
// cluster.
package sidebyside
