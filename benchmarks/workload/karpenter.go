package workload

import (
	"fmt"
	"math/rand/v2"
	"strconv"
)

// Label keys and values used by the generated workloads.
const (
	LabelZone         = "topology.kubernetes.io/zone"
	LabelHostname     = "kubernetes.io/hostname"
	LabelCapacityType = "karpenter.sh/capacity-type"
	LabelSize         = "size"
	LabelSpecial      = "special"
	LabelInteger      = "integer"
	Namespace         = "default"
	NodePoolName      = "default"
	FakeTypeCount     = 400
)

// Source is the randomness a generator consumes: IntN returns a uniform
// integer in [0, n). *rand.Rand of math/rand/v2 satisfies it.
type Source interface {
	IntN(n int) int
}

var (
	cpuChoices    = []int64{100, 250, 500, 1000, 1500}
	memoryChoices = []int64{100, 256, 512, 1024, 2048, 4096}
	labelChoices  = []string{"a", "b", "c", "d", "e", "f", "g"}
	fakeZones     = []Offering{
		{Zone: "test-zone-1", CapacityType: "spot"},
		{Zone: "test-zone-2", CapacityType: "spot"},
		{Zone: "test-zone-1", CapacityType: "on-demand"},
		{Zone: "test-zone-2", CapacityType: "on-demand"},
		{Zone: "test-zone-3", CapacityType: "on-demand"},
	}
)

const (
	mebi = int64(1) << 20
	gibi = int64(1) << 30
)

// newSource returns the PCG generator every seeded generator uses. The
// second PCG word is fixed so that the seed alone selects the stream.
func newSource(seed int64) *rand.Rand {
	return rand.New(rand.NewPCG(uint64(seed), 0x6e6f6465706c616e))
}

// KarpenterDiverse returns the workload of Karpenter's scheduling benchmark
// with n pods: the 400 fake instance types, one unconstrained NodePool and
// n pods in five equal classes of n/5 (generic, zone spread, hostname spread,
// zone self-affinity, hostname anti-affinity) in that order, followed by the
// n mod 5 remaining pods as generic ones. A negative n counts as 0. The
// complexity is O(n); the result is the same for the same (n, seed).
func KarpenterDiverse(n int, seed int64) Workload {
	return KarpenterDiverseFrom(n, newSource(seed))
}

// KarpenterDiverseFrom is [KarpenterDiverse] drawing from src, in the order
// Karpenter's benchmark draws: per pod its label value, for spread pods the
// selector value, then cpu, then memory. Passing an adapter over Karpenter's
// own generator replays its exact pods. It consumes src and is as safe for
// concurrent use as src is.
func KarpenterDiverseFrom(n int, src Source) Workload {
	n = max(n, 0)
	class := n / 5
	pods := make([]Pod, 0, n)
	pods = appendGeneric(pods, src, "generic", class)
	pods = appendSpread(pods, src, "zone-spread", LabelZone, class)
	pods = appendSpread(pods, src, "hostname-spread", LabelHostname, class)
	pods = appendZoneAffinity(pods, src, class)
	pods = appendAntiAffinity(pods, src, class)
	pods = appendGeneric(pods, src, "generic-rest", n-len(pods))
	return Workload{
		Name:          "karpenter-diverse",
		InstanceTypes: FakeInstanceTypes(FakeTypeCount),
		NodePools:     []NodePool{defaultNodePool()},
		Pods:          pods,
	}
}

// KarpenterDiversePreferences returns the preference variant of Karpenter's
// benchmark with n pods (Karpenter runs it with 4,000): every pod is labelled
// app=nginx and carries a preferred node affinity (weight 1) to zone
// test-zone-1, a preferred pod anti-affinity of weight 10 to app=nginx per
// zone and one of weight 1 per hostname. As in Karpenter's benchmark, whose
// pods are copies of one template, the cpu and memory request is drawn once
// and shared by all n pods. Whether preferences are respected is a choice of
// the runner. A negative n counts as 0. The complexity is O(n).
func KarpenterDiversePreferences(n int, seed int64) Workload {
	src := newSource(seed)
	cpu, memory := randomCPU(src), randomMemory(src)
	pods := make([]Pod, 0, max(n, 0))
	for i := range max(n, 0) {
		pods = append(pods, preferencePod(i, cpu, memory))
	}
	return Workload{
		Name:          "karpenter-diverse-preferences",
		InstanceTypes: FakeInstanceTypes(FakeTypeCount),
		NodePools:     []NodePool{defaultNodePool()},
		Pods:          pods,
	}
}

func preferencePod(i int, cpu, memory int64) Pod {
	p := newPod("preference", i, map[string]string{"app": "nginx"}, cpu, memory)
	p.PreferredNodeAffinity = []PreferredTerm{{Weight: 1, Requirements: []Requirement{
		{Key: LabelZone, Operator: "In", Values: []string{"test-zone-1"}},
	}}}
	p.PodAntiAffinity = []AffinityTerm{
		{TopologyKey: LabelZone, Selector: map[string]string{"app": "nginx"}, Weight: 10},
		{TopologyKey: LabelHostname, Selector: map[string]string{"app": "nginx"}, Weight: 1},
	}
	return p
}

func appendGeneric(pods []Pod, src Source, prefix string, count int) []Pod {
	for i := range count {
		labels := map[string]string{"my-label": randomLabel(src)}
		pods = append(pods, newPod(prefix, i, labels, randomCPU(src), randomMemory(src)))
	}
	return pods
}

func appendSpread(pods []Pod, src Source, prefix, key string, count int) []Pod {
	for i := range count {
		labels := map[string]string{"my-label": randomLabel(src)}
		spread := Spread{Key: key, MaxSkew: 1, DoNotSchedule: true,
			Selector: map[string]string{"my-label": randomLabel(src)}}
		p := newPod(prefix, i, labels, randomCPU(src), randomMemory(src))
		p.TopologySpread = []Spread{spread}
		pods = append(pods, p)
	}
	return pods
}

// appendZoneAffinity adds pods with a required affinity to their own label
// per zone. The label key keeps Karpenter's spelling, "my-affininity".
func appendZoneAffinity(pods []Pod, src Source, count int) []Pod {
	for i := range count {
		value := randomLabel(src)
		p := newPod("zone-affinity", i, map[string]string{"my-affininity": value},
			randomCPU(src), randomMemory(src))
		p.PodAffinity = []AffinityTerm{{TopologyKey: LabelZone,
			Selector: map[string]string{"my-affininity": value}}}
		pods = append(pods, p)
	}
	return pods
}

func appendAntiAffinity(pods []Pod, src Source, count int) []Pod {
	for i := range count {
		p := newPod("hostname-anti-affinity", i, map[string]string{"app": "nginx"},
			randomCPU(src), randomMemory(src))
		p.PodAntiAffinity = []AffinityTerm{{TopologyKey: LabelHostname,
			Selector: map[string]string{"app": "nginx"}}}
		pods = append(pods, p)
	}
	return pods
}

func newPod(prefix string, i int, labels map[string]string, cpu, memory int64) Pod {
	return Pod{
		Namespace:   Namespace,
		Name:        fmt.Sprintf("%s-%d", prefix, i),
		Labels:      labels,
		CPUMilli:    cpu,
		MemoryBytes: memory,
	}
}

func randomLabel(src Source) string { return labelChoices[src.IntN(len(labelChoices))] }
func randomCPU(src Source) int64    { return cpuChoices[src.IntN(len(cpuChoices))] }
func randomMemory(src Source) int64 { return memoryChoices[src.IntN(len(memoryChoices))] * mebi }

// defaultNodePool is the benchmark's single NodePool: no requirements, no
// taints, weight 0, limits of 10,000,000 cores and 10,000,000Gi.
func defaultNodePool() NodePool {
	return NodePool{
		Name:              NodePoolName,
		LimitsCPUMilli:    10_000_000 * 1000,
		LimitsMemoryBytes: 10_000_000 * gibi,
	}
}

// FakeInstanceTypes returns Karpenter's fake instance types fake-it-0 …
// fake-it-(count-1): type i has i+1 cores, 2(i+1) GiB and 10(i+1) pods,
// kube-reserved 100m and 10Mi, amd64, every OS, and five available offerings
// of one price, 0.1 per core plus 0.1 per 1e9 bytes of memory. The
// complexity is O(count).
func FakeInstanceTypes(count int) []InstanceType {
	types := make([]InstanceType, 0, max(count, 0))
	for i := range max(count, 0) {
		types = append(types, fakeInstanceType(i))
	}
	return types
}

func fakeInstanceType(i int) InstanceType {
	cores := int64(i + 1)
	memory := 2 * cores * gibi
	price := 0.1*float64(cores) + 0.1*float64(memory)/1e9
	offerings := make([]Offering, len(fakeZones))
	for j, o := range fakeZones {
		offerings[j] = Offering{Zone: o.Zone, CapacityType: o.CapacityType, PricePerHour: price, Available: true}
	}
	return InstanceType{
		Name: fmt.Sprintf("fake-it-%d", i), CPUMilli: cores * 1000, MemoryBytes: memory, Pods: 10 * cores,
		OverheadCPUMilli: 100, OverheadMemoryBytes: 10 * mebi,
		Labels:    fakeLabels(cores, memory),
		Offerings: offerings, Arch: "amd64", OS: []string{"darwin", "linux", "windows"},
	}
}

// fakeLabels gives the extra labels of a fake type: `integer` is its core
// count; types above 4 cores and 8Gi are size=large and special=optional,
// the others size=small.
func fakeLabels(cores, memory int64) map[string]string {
	labels := map[string]string{LabelInteger: strconv.FormatInt(cores, 10), LabelSize: "small"}
	if cores > 4 && memory > 8*gibi {
		labels[LabelSize] = "large"
		labels[LabelSpecial] = "optional"
	}
	return labels
}
