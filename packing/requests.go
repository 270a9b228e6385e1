package packing

import (
	"github.com/nodeplan/nodeplan/instancetypes"
	"github.com/nodeplan/nodeplan/requirements"
	"github.com/nodeplan/nodeplan/resources"
)

// Container is what EffectiveRequests needs of a container: its requests,
// and for an init container whether it is a sidecar (restartPolicy Always),
// which keeps running beside the regular containers.
type Container struct {
	Requests resources.List
	Sidecar  bool
}

// EffectiveRequests returns what kube-scheduler reserves for a pod: the
// regular containers summed plus the sidecars; at least the largest
// ordinary init container together with the sidecars started before it;
// plus the pod overhead. Callers that pass Pod.Requests already computed
// do not need it. It does not modify its arguments; O(containers).
func EffectiveRequests(containers, initContainers []Container, overhead resources.List) resources.List {
	var sum resources.List
	for _, c := range containers {
		sum = sum.Add(c.Requests)
	}
	peak, sidecars := initPeak(initContainers)
	return sum.Add(sidecars).Max(peak).Add(overhead)
}

// initPeak walks the init containers in order and returns the most any one
// step needs (an ordinary init container plus the sidecars already
// started) and the summed sidecars, which stay for the pod's lifetime.
func initPeak(cs []Container) (peak, sidecars resources.List) {
	for _, c := range cs {
		r := c.Requests.Add(sidecars)
		if c.Sidecar {
			sidecars = r
		}
		peak = peak.Max(r)
	}
	return peak, sidecars
}

// MinValuesMet reports whether types offer, for every requirement of reqs
// with MinValues, at least that many distinct values the requirement
// allows, as Karpenter checks a NodeClaim's instance-type options.
func MinValuesMet(reqs requirements.Set, types []*instancetypes.InstanceType) bool {
	for req := range reqs.All() {
		if req.MinValues() > 0 && countValues(req, types) < req.MinValues() {
			return false
		}
	}
	return true
}

func countValues(req requirements.Requirement, types []*instancetypes.InstanceType) int {
	seen := map[string]bool{}
	for _, t := range types {
		for _, v := range t.Requirements.Get(req.Key()).Values() {
			if req.Has(v) {
				seen[v] = true
			}
		}
	}
	return len(seen)
}
