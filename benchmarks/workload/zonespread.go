package workload

import "fmt"

// DeploymentSize is the number of replicas per deployment in [ZoneSpread];
// the last deployment holds the remainder.
const DeploymentSize = 20

// ZoneSpread returns a workload of many deployments on the 400 fake instance
// types and the benchmark NodePool: n pods in deployments of
// [DeploymentSize] replicas (the last one smaller when n is not a multiple).
// Deployment k labels its pods app=deploy-k, draws one cpu and memory request
// for all its replicas from the same choices as [KarpenterDiverse], and
// spreads them over zones with maxSkew 1, DoNotSchedule, selecting its own
// pods. A negative n counts as 0. The complexity is O(n); the result is the
// same for the same (n, seed).
func ZoneSpread(n int, seed int64) Workload {
	src := newSource(seed)
	n = max(n, 0)
	pods := make([]Pod, 0, n)
	for k := 0; len(pods) < n; k++ {
		replicas := min(DeploymentSize, n-len(pods))
		pods = appendDeployment(pods, fmt.Sprintf("deploy-%d", k), replicas, randomCPU(src), randomMemory(src))
	}
	return Workload{
		Name:          "zone-spread",
		InstanceTypes: FakeInstanceTypes(FakeTypeCount),
		NodePools:     []NodePool{defaultNodePool()},
		Pods:          pods,
	}
}

func appendDeployment(pods []Pod, app string, replicas int, cpu, memory int64) []Pod {
	for i := range replicas {
		p := newPod(app, i, map[string]string{"app": app}, cpu, memory)
		p.TopologySpread = []Spread{{Key: LabelZone, MaxSkew: 1, DoNotSchedule: true,
			Selector: map[string]string{"app": app}}}
		pods = append(pods, p)
	}
	return pods
}
