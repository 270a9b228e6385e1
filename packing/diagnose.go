package packing

import (
	"cmp"
	"fmt"
	"strings"

	"github.com/nodeplan/nodeplan/requirements"
	"github.com/nodeplan/nodeplan/resources"
)

// diagnose explains why the pod of v fits nowhere, for the pool whose checks
// it passed furthest. The kinds are ordered by how far a pod got.
func (r *run) diagnose(v view) Reason {
	if len(r.s.pools) == 0 {
		return Reason{Kind: NoNodePool, Message: fmt.Sprintf("pod %s fits no existing node and no NodePool is defined", podName(v.info.pod))}
	}
	var best Reason
	for pi := range r.s.pools {
		if why := r.diagnosePool(v, pi); pi == 0 || stage(why.Kind) > stage(best.Kind) {
			best = why
		}
	}
	return best
}

func stage(k ReasonKind) int {
	return [...]int{NoNodePool: 0, Untolerated: 1, Incompatible: 2, NoInstanceType: 3, Insufficient: 4,
		LimitExceeded: 5, HostPortConflict: 6, MinValues: 7, Topology: 8}[k]
}

func (r *run) diagnosePool(v view, pi int) Reason {
	pl := r.s.pools[pi]
	name := pl.np.Name
	reason := func(k ReasonKind, format string, args ...any) Reason {
		return Reason{Kind: k, NodePool: name, Message: fmt.Sprintf(format, args...)}
	}
	if pl.conflict != "" {
		return reason(Incompatible, "NodePool %s can launch no node, so pod %s cannot go there: %s; change the NodePool's requirements or labels",
			name, podName(v.info.pod), pl.conflict)
	}
	if err := requirements.Tolerates(v.tols, pl.taints); err != nil {
		return reason(Untolerated, "NodePool %s: pod %s %v", name, podName(v.info.pod), err)
	}
	if err := pl.compatible(pl.reqs, v.reqs); err != nil {
		return reason(Incompatible, "NodePool %s: pod %s: %v", name, podName(v.info.pod), err)
	}
	if !admitsNewHost(v.reqs) {
		return reason(Incompatible, "pod %s requires %s, which no new node of NodePool %s can meet: a node's hostname is unknown until it launches, and every node has one; "+
			"only an existing node that matches can take the pod", podName(v.info.pod), v.reqs.Get(requirements.LabelHostname), name)
	}
	compat := r.bits[v.sig][pi]
	if u, ok := pl.unfitFor(v.reqs); ok && compat.Empty() {
		short, _ := u.load.Shortfall(u.t.Allocatable)
		return reason(NoInstanceType, "no instance type in NodePool %s can hold both its daemonsets and pod %s: the daemonsets that would run on %s request %s %s, and it has %s",
			name, podName(v.info.pod), u.t.Name, formatAmount(short, u.load.Get(short)), short, formatAmount(short, u.t.Allocatable.Get(short)))
	}
	if compat.Empty() {
		return reason(NoInstanceType, "no instance type in NodePool %s is compatible with pod %s (requirements %s)", name, podName(v.info.pod), pl.reqs.Intersect(v.reqs))
	}
	if why, short := insufficient(pl, compat, v.info.req); short {
		why.NodePool = name
		return why
	}
	if r.nodesLeft(pi) <= 0 || !r.anyWithinLimits(pl, pi, compat, v.info.req) {
		return reason(LimitExceeded, "NodePool %s: its limits leave no room for pod %s", name, podName(v.info.pod))
	}
	if pl.minValues {
		c := &claim{pl: pl, pi: pi, reqs: pl.reqs, cand: pl.all.Clone(), cheap: -1, maxAlloc: pl.maxAlloc}
		if cand, _ := r.narrowed(v, c, v.info.req, nil); !satisfiesMinValues(pl, c.reqs.Intersect(v.reqs), cand) {
			return reason(MinValues, "NodePool %s: the instance types that fit pod %s do not offer its minValues", name, podName(v.info.pod))
		}
	}
	return reason(Topology, "pod %s: no node or new node in NodePool %s meets its topology constraints%s", podName(v.info.pod), name, r.constraintText(v))
}

// insufficient reports the first resource no compatible type has enough
// of, or, when each fits alone, the type that came closest.
func insufficient(pl *pool, compat interface{ Next(int) int }, need resources.List) (Reason, bool) {
	var largest resources.List
	for t := compat.Next(0); t >= 0; t = compat.Next(t + 1) {
		if need.Fits(pl.alloc[t]) {
			return Reason{}, false
		}
		largest = largest.Max(pl.alloc[t])
	}
	if name, short := need.Shortfall(largest); short {
		return Reason{Kind: Insufficient, Resource: name, Requested: need.Get(name), Largest: largest.Get(name),
			Message: fmt.Sprintf("no instance type in NodePool %s has %s %s (with daemonset overhead); largest has %s",
				pl.np.Name, formatAmount(name, need.Get(name)), name, formatAmount(name, largest.Get(name)))}, true
	}
	return Reason{Kind: Insufficient, Message: fmt.Sprintf("no single instance type in NodePool %s holds %s (with daemonset overhead), though each resource fits some type", pl.np.Name, need)}, true
}

func (r *run) anyWithinLimits(pl *pool, pi int, compat interface{ Next(int) int }, need resources.List) bool {
	c := &claim{pl: pl, pi: pi, cheap: -1}
	for t := compat.Next(0); t >= 0; t = compat.Next(t + 1) {
		if need.Fits(pl.alloc[t]) && r.withinLimits(c, t) {
			return true
		}
	}
	return false
}

func (r *run) constraintText(v view) string {
	s := ""
	for _, c := range v.cons {
		def := r.s.counters[c.counter]
		s += fmt.Sprintf("; %s on %s (pods %s)", [...]string{"topology spread", "pod affinity", "pod anti-affinity"}[c.kind], def.key, def.selector)
	}
	return s
}

func podName(p *Pod) string { return p.Namespace + "/" + p.Name }

// formatAmount renders an amount in its resource's unit.
func formatAmount(name resources.Name, v int64) string {
	s := strings.TrimPrefix(resources.New(resources.Amount{Name: name, Value: v}).String(), string(name)+"=")
	return cmp.Or(s, "0")
}

// unfitFor returns the first type left out of the pool for its daemonset
// overhead (see unfitType) that requirements reqs of a pod would accept.
func (pl *pool) unfitFor(reqs requirements.Set) (unfitType, bool) {
	merged := pl.reqs.Intersect(reqs)
	for _, u := range pl.unfit {
		if u.t.Requirements.Intersects(merged) == nil {
			return u, true
		}
	}
	return unfitType{}, false
}
