package disruption

import "github.com/nodeplan/nodeplan/packing"

// Homes lists where each of pods goes in plan, the solve of those pods,
// in pod order: a binding's node, a NodeClaim's name, or why the pod is
// unschedulable. It does not modify plan or pods. O(pods + placements).
func Homes(plan packing.Plan, pods []packing.Pod) []Home {
	out := make([]Home, len(pods))
	for i := range pods {
		out[i].Pod = Ref(&pods[i])
	}
	for _, b := range plan.Bindings {
		out[b.Pod].Node = b.Node
	}
	for _, c := range plan.NodeClaims {
		for _, p := range c.Pods {
			out[p].NodeClaim = c.Name
		}
	}
	for _, u := range plan.Unschedulable {
		out[u.Pod].Unschedulable = u.Reason.Message
	}
	return out
}
