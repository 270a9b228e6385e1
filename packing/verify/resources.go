package verify

import (
	"slices"
	"strings"

	"github.com/nodeplan/nodeplan/instancetypes"
	"github.com/nodeplan/nodeplan/packing"
	"github.com/nodeplan/nodeplan/requirements"
	"github.com/nodeplan/nodeplan/resources"
)

// podsRequest sums the requests of the pending pods on h.
func (v *verifier) podsRequest(h *host) resources.List {
	var sum resources.List
	for _, i := range h.pods {
		sum = sum.Add(v.p.Pods[i].Requests.OnePod())
	}
	return sum
}

// checkFit adds h's pending pods to base in order and reports the first pod
// (or -1 for base alone) at which the total stops fitting alloc. of names
// what alloc belongs to.
func (v *verifier) checkFit(h *host, base, alloc resources.List, of string) {
	if !base.Fits(alloc) {
		v.overCapacity(h, -1, base, alloc, of)
		return
	}
	total := base
	for _, i := range h.pods {
		total = total.Add(v.p.Pods[i].Requests.OnePod())
		if !total.Fits(alloc) {
			v.overCapacity(h, i, total, alloc, of)
			return
		}
	}
}

func (v *verifier) overCapacity(h *host, pod int, total, alloc resources.List, of string) {
	name, _ := total.Shortfall(alloc)
	want := resources.New(resources.Amount{Name: name, Value: total.Get(name)})
	have := resources.New(resources.Amount{Name: name, Value: alloc.Get(name)})
	who := "the daemonsets"
	if pod >= 0 {
		who = v.podName(pod)
	}
	v.add(RuleOverCapacity, pod, h.name, "%s on %s %s: requests %s=%s exceed allocatable %s=%s of %s",
		who, h.kind(), h.name, name, quantity(want, name), name, quantity(have, name), of)
}

// quantity formats the value of name in l, "0" when it is zero.
func quantity(l resources.List, name resources.Name) string {
	if s := l.String(); s != "" {
		return strings.TrimPrefix(s, string(name)+"=")
	}
	return "0"
}

// checkNodeFit checks the pods bound to an existing node (rule 3).
func (v *verifier) checkNodeFit(h *host) {
	if len(h.pods) == 0 {
		return
	}
	var base resources.List
	for i := range h.node.Pods {
		base = base.Add(h.node.Pods[i].Requests.OnePod())
	}
	v.checkFit(h, base, h.node.Allocatable, "the node")
}

// overhead sums the requests of the daemonsets that run on type t of pool;
// none run when the pool is unknown.
func (v *verifier) overhead(pool *packing.NodePool, t *instancetypes.InstanceType) resources.List {
	var sum resources.List
	if pool == nil {
		return sum
	}
	for i := range v.p.DaemonSets {
		if ds := &v.p.DaemonSets[i]; v.dsRuns(ds, pool, t) {
			sum = sum.Add(ds.Requests.OnePod())
		}
	}
	return sum
}

// preferNoScheduleToleration is the toleration daemonsets get implicitly.
var preferNoScheduleToleration = requirements.Toleration{Operator: requirements.TolerateExists, Effect: requirements.PreferNoSchedule}

// dsRuns reports whether ds tolerates pool's taints and one of its node
// affinity alternatives fits both the pool and type t.
func (v *verifier) dsRuns(ds *packing.DaemonSet, pool *packing.NodePool, t *instancetypes.InstanceType) bool {
	tol := append(slices.Clip(ds.Tolerations), preferNoScheduleToleration)
	if requirements.Tolerates(tol, pool.Taints) != nil {
		return false
	}
	reqs := v.poolReqs[pool.Name]
	for _, alt := range ds.NodeAffinity.Alternatives() {
		// Keys the type defines count as known, as a provider's type labels.
		known := func(k string) bool { return requirements.IsWellKnown(k) || t.Requirements.Has(k) }
		if reqs.CompatibleWith(alt, known) == nil && t.Requirements.Intersects(alt) == nil {
			return true
		}
	}
	return false
}
