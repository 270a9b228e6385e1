package instancetypes

import "math"

// The EKS node model of Karpenter's AWS provider (see the package doc for
// the source). Values are in the units of resources.List.
const (
	mib = 1 << 20
	gib = 1 << 30

	// VMMemoryOverheadPercent is the fraction of memory Karpenter assumes
	// the hypervisor keeps (its --vm-memory-overhead-percent default).
	VMMemoryOverheadPercent = 0.075
	// gravitonReservedMiB is the CMA memory arm64 (Graviton) kernels reserve.
	gravitonReservedMiB = 64
	// DefaultPods is the pod capacity of a type whose maximum is unknown:
	// the kubelet's default max-pods.
	DefaultPods = 110
	// DefaultEphemeralStorage is the root volume Karpenter gives a node when
	// no block device mapping is configured (20Gi gp3).
	DefaultEphemeralStorage = 20 * gib
	// evictionMemory is the kubelet's hard eviction threshold
	// memory.available < 100Mi.
	evictionMemory = 100 * mib
	// kubeReservedStorage is kube-reserved ephemeral-storage.
	kubeReservedStorage = 1 * gib
)

// cpuTier is one slice of the kube-reserved CPU schedule: the share of the
// millicores in [from, to) that is reserved.
type cpuTier struct {
	from, to int64
	share    float64
}

// kubeReservedCPUTiers: 6% of the first core, 1% of the second, 0.5% of the
// third and fourth, 0.25% of every core above four.
var kubeReservedCPUTiers = [...]cpuTier{
	{0, 1000, 0.06},
	{1000, 2000, 0.01},
	{2000, 4000, 0.005},
	{4000, 1 << 31, 0.0025},
}

// kubeReservedCPU returns the kube-reserved millicores for a node of
// milliCPU millicores. Each tier's share is truncated to whole millicores,
// in float64, exactly as Karpenter computes it.
func kubeReservedCPU(milliCPU int64) int64 {
	var total int64
	for _, tier := range kubeReservedCPUTiers {
		if milliCPU < tier.from {
			break
		}
		span := min(milliCPU, tier.to) - tier.from
		total += int64(float64(span) * tier.share)
	}
	return total
}

// kubeReservedMemory returns kube-reserved memory in bytes for a node that
// runs up to pods pods: 11 MiB per pod plus 255 MiB.
func kubeReservedMemory(pods int64) int64 { return (11*pods + 255) * mib }

// vmMemory returns the memory, in bytes, a node of memoryMiB reports after
// the Graviton CMA reservation (arm64 only) and the VM overhead, which is
// rounded up to whole MiB in float64 as Karpenter computes it.
func vmMemory(memoryMiB int64, arm64 bool) int64 {
	if arm64 {
		memoryMiB -= gravitonReservedMiB
	}
	bytes := memoryMiB * mib
	overheadMiB := int64(math.Ceil(float64(bytes) * VMMemoryOverheadPercent / 1024 / 1024))
	return bytes - overheadMiB*mib
}

// evictionStorage is the kubelet's hard eviction threshold
// nodefs.available < 10% for a root volume of storage bytes.
func evictionStorage(storage int64) int64 { return int64(math.Ceil(float64(storage) / 100 * 10)) }
