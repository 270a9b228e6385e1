package workload

import "fmt"

// CatalogAWS is the [Workload.Catalog] value naming the embedded AWS EC2
// catalog (instancetypes.AWS with its default options: us-east-1, three
// zones, spot at the modelled discount).
const CatalogAWS = "aws"

// Label keys and values of the AWS workloads.
const (
	LabelOS                 = "kubernetes.io/os"
	LabelArch               = "kubernetes.io/arch"
	LabelInstanceCategory   = "karpenter.k8s.aws/instance-category"
	LabelInstanceGeneration = "karpenter.k8s.aws/instance-generation"
	CapacityOnDemand        = "on-demand"
	GPUNodePoolName         = "gpu"
	BasicScaleOutPods       = 1000
)

// AWSNodePool is the general-purpose NodePool of the AWS workloads, the one
// Karpenter's AWS getting-started guide writes: linux, amd64, on-demand,
// instance categories c, m and r of generation above 2; weight 10, no
// taints, no limits (Karpenter's performance suite clears them).
func AWSNodePool() NodePool {
	return NodePool{
		Name:   NodePoolName,
		Weight: 10,
		Requirements: append(awsBase(),
			Requirement{Key: LabelInstanceCategory, Operator: "In", Values: []string{"c", "m", "r"}},
			Requirement{Key: LabelInstanceGeneration, Operator: "Gt", Values: []string{"2"}}),
	}
}

// GPUNodePool is the accelerated NodePool of [Mixed]: linux, amd64,
// on-demand, instance category g; weight 0, no taints, no limits.
func GPUNodePool() NodePool {
	return NodePool{
		Name:         GPUNodePoolName,
		Requirements: append(awsBase(), Requirement{Key: LabelInstanceCategory, Operator: "In", Values: []string{"g"}}),
	}
}

func awsBase() []Requirement {
	return []Requirement{
		{Key: LabelOS, Operator: "In", Values: []string{"linux"}},
		{Key: LabelArch, Operator: "In", Values: []string{"amd64"}},
		{Key: LabelCapacityType, Operator: "In", Values: []string{CapacityOnDemand}},
	}
}

// BasicScaleOut returns the "basic scale-out" of Karpenter's performance
// suite (test/suites/performance/basic_test.go) with n pods on the embedded
// AWS catalog: n/2 replicas of small-resource-app (900m, 3100Mi) followed by
// n−n/2 of large-resource-app (3500m, 28Gi), labelled app=<name>, with no
// other constraint. The suite runs it with n = [BasicScaleOutPods]. A
// negative n counts as 0. The complexity is O(n); it draws nothing.
func BasicScaleOut(n int) Workload {
	n = max(n, 0)
	pods := make([]Pod, 0, n)
	pods = appendReplicas(pods, "small-resource-app", n/2, 900, 3100*mebi)
	pods = appendReplicas(pods, "large-resource-app", n-n/2, 3500, 28*gibi)
	return Workload{Name: "basic-scale-out", Catalog: CatalogAWS, NodePools: []NodePool{AWSNodePool()}, Pods: pods}
}

func appendReplicas(pods []Pod, app string, replicas int, cpu, memory int64) []Pod {
	for i := range replicas {
		pods = append(pods, newPod(app, i, map[string]string{"app": app}, cpu, memory))
	}
	return pods
}

// mixedShape is one deployment shape of [Mixed].
type mixedShape struct {
	kind        string
	cpu, memory []int64 // choices, millicores and MiB
	gpu         int64
	zoneSpread  bool
}

// mixedShapes are the four kinds of [Mixed], in the order of their weights
// (mixedWeights).
var mixedShapes = []mixedShape{
	{kind: "web", cpu: []int64{250, 500, 1000}, memory: []int64{256, 512, 1024}, zoneSpread: true},
	{kind: "batch", cpu: []int64{1000, 2000, 4000}, memory: []int64{2048, 4096, 8192}},
	{kind: "memory", cpu: []int64{500, 1000, 2000}, memory: []int64{16384, 32768, 65536}},
	{kind: "gpu", cpu: []int64{2000, 4000}, memory: []int64{8192, 16384}, gpu: 1},
}

// mixedWeights is the share, in percent, of each shape's pods.
var mixedWeights = []int{50, 25, 15, 10}

// Mixed returns a mixed-shape workload of n pods on the embedded AWS
// catalog with [AWSNodePool] and [GPUNodePool], in deployments of
// [DeploymentSize] replicas: 50% web (250m–1 core, 256Mi–1Gi, zone spread
// maxSkew 1 DoNotSchedule over their own deployment), 25% batch (1–4 cores,
// 2–8Gi), 15% memory-heavy (0.5–2 cores, 16–64Gi) and 10% GPU (2–4 cores,
// 8–16Gi, one nvidia.com/gpu). Each deployment draws one shape from its
// kind's choices; the kinds' pod counts are n×weight/100 rounded down, web
// taking the remainder. A negative n counts as 0. The complexity is O(n);
// the result is the same for the same (n, seed).
func Mixed(n int, seed int64) Workload {
	src := newSource(seed)
	n = max(n, 0)
	pods := make([]Pod, 0, n)
	for i, s := range mixedShapes {
		count := n * mixedWeights[i] / 100
		if i == 0 {
			count = n - sumOthers(n)
		}
		pods = appendMixed(pods, src, s, count)
	}
	return Workload{Name: "mixed", Catalog: CatalogAWS, NodePools: []NodePool{AWSNodePool(), GPUNodePool()}, Pods: pods}
}

// sumOthers is the number of non-web pods of a Mixed workload of n pods.
func sumOthers(n int) int {
	total := 0
	for _, w := range mixedWeights[1:] {
		total += n * w / 100
	}
	return total
}

func appendMixed(pods []Pod, src Source, s mixedShape, count int) []Pod {
	for k, done := 0, 0; done < count; k++ {
		replicas := min(DeploymentSize, count-done)
		app := fmt.Sprintf("%s-%d", s.kind, k)
		cpu, memory := s.cpu[src.IntN(len(s.cpu))], s.memory[src.IntN(len(s.memory))]*mebi
		for i := range replicas {
			p := newPod(app, i, map[string]string{"app": app, "kind": s.kind}, cpu, memory)
			p.GPU = s.gpu
			if s.zoneSpread {
				p.TopologySpread = []Spread{{Key: LabelZone, MaxSkew: 1, DoNotSchedule: true,
					Selector: map[string]string{"app": app}}}
			}
			pods = append(pods, p)
		}
		done += replicas
	}
	return pods
}
