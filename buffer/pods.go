package buffer

import (
	"math"
	"strconv"

	"github.com/nodeplan/nodeplan/packing"
)

// PodPriority is the priority of a virtual buffer pod, Karpenter's
// VirtualPodPriority (math.MinInt32). Karpenter does not order pods by
// priority, so it changes nothing there; with packing's PriorityOrder
// option it puts buffer pods after every real pod.
const PodPriority = math.MinInt32

// Pods returns the virtual pods of a buffer that is ready and asks for
// replicas > 0 (nil otherwise), as Karpenter's BuildVirtualPods: r.Replicas
// copies of r.Template named capacity-buffer-<name>-<i> for i = 1..Replicas,
// in the buffer's namespace, with the template's labels, requests and
// scheduling constraints, [PodPriority], and [packing.Pod.Buffer] set to
// the buffer's name. They are pending pods: no owner, no do-not-disrupt,
// no deletion cost, not terminating. The template's persistent and
// ephemeral volumes are the host's to drop before it builds the template
// (package kube does). The pods share the template's maps and slices,
// which Solve does not modify. O(Replicas).
func (r *Result) Pods() []packing.Pod {
	if !r.Ready() || r.Replicas <= 0 {
		return nil
	}
	base := r.Template
	base.Namespace, base.UID, base.Owner, base.Buffer = r.Namespace, "", "", r.Name
	base.Priority, base.DoNotDisrupt, base.DeletionCost = PodPriority, "", 0
	base.Terminating, base.Displaced = false, false
	pods := make([]packing.Pod, r.Replicas)
	prefix := "capacity-buffer-" + r.Name + "-"
	for i := range pods {
		pods[i] = base
		pods[i].Name = prefix + strconv.Itoa(i+1)
	}
	return pods
}
