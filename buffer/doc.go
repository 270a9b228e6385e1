// Package buffer models Karpenter's CapacityBuffer
// (autoscaling.x-k8s.io/v1beta1, the cluster-autoscaler API Karpenter
// v1.14 copies behind its CapacityBuffer feature gate): spare room kept
// for pods that do not exist yet, in the shape of a PodTemplate or of a
// Deployment, StatefulSet or ReplicaSet.
//
// [Evaluate] resolves a [Buffer]'s ref against the objects a host found
// ([Workloads]) and computes its replicas ([Replicas]) with Karpenter's
// formula: the larger of spec.replicas and a percentage of the workload's
// replicas (rounded up, at least 1), bounded by how many template pods fit
// in spec.limits. Its [Reason] is the ReadyForProvisioning condition's.
// The name buffer.Buffer stutters on purpose: it is the package's one
// central type, as time.Time is.
// [Result.Pods] are the buffer's virtual pods, named
// capacity-buffer-<name>-<i>: pending pods marked with
// [packing.Pod.Buffer], which packing.Solve places like any pod but
// reports only in [packing.Plan.Headroom]. [Summarize] turns a plan's
// headroom into each buffer's Provisioning condition. See Example for a
// run.
//
// Everything here is pure: no clock, no I/O, inputs never modified. The
// cost is linear in the limits and the replicas (at most [MaxReplicas]).
//
// Where nodeplan differs from Karpenter, on purpose:
//
//   - Karpenter provisions for the replicas its controller last wrote in
//     status.replicas of a buffer whose ReadyForProvisioning condition is
//     True; nodeplan computes both from the spec and the objects now, so
//     a plan never depends on when the controller last ran.
//   - The arithmetic is exact integer arithmetic, saturating at
//     math.MaxInt32, where Karpenter divides float64s and converts an
//     out-of-range float to int32 (implementation-defined in Go); they
//     agree on every count below 2^53.
//   - A count above [MaxReplicas] (100,000) is ResolutionFailed with a
//     [ReplicasError] naming the field that produced it (wrapping
//     [ErrTooManyReplicas]), where Karpenter would build that many
//     virtual pods, up to math.MaxInt32 of them, and run out of memory.
//   - A spec the CRD's OpenAPI validation rejects (a negative replicas,
//     percentage or limit) is ResolutionFailed with a named error
//     ([ErrInvalidBuffer]) rather than whatever Karpenter would compute.
//   - Virtual pods carry no UID and the zero CreationTime (Karpenter
//     stamps time.Now); nothing in packing reads them for pending pods.
//   - The CapacityBuffer feature gate is off by default in Karpenter; this
//     package does not know about gates: the host decides whether buffers
//     take part (package kube's option).
package buffer
