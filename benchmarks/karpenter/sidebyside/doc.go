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
// command, as Reconcile does, but completes the command itself instead of
// the orchestration queue (which waits for real launches and drains):
// [Fragmented.Complete] brings replacements up initialized at their
// offering's price, binds displaced pods where the command's simulation
// put them, deletes the candidates and checks that no pod is lost or
// overcommits a node, and the next pass runs on a fresh harness of the
// completed cluster, so budgets free up as soon as a command is done.
// [RunNodeplanLoop] runs consolidation.Plan the same way (every command
// of a Plan completed by the same Complete, then Plan again), so the two
// loops compare like for like; [RunNodeplanConsolidation] times one Plan,
// the decision at one instant, which compares with Karpenter's wave
// (DisruptionOptions.Wave: commands left in flight, one budget).
package sidebyside
