package packing

import (
	"cmp"
	"fmt"
	"strings"

	"github.com/nodeplan/nodeplan/internal/bitset"
	"github.com/nodeplan/nodeplan/requirements"
	"github.com/nodeplan/nodeplan/resources"
)

// diagnose explains why the pod of v fits nowhere, for the pool whose checks
// it passed furthest. The kinds are ordered by how far a pod got.
func (r *run) diagnose(v view) Reason {
	pod := v.info.pod.Key()
	if len(r.s.pools) == 0 {
		return Reason{Kind: NoNodePool, Message: fmt.Sprintf("pod %s fits no existing node and no NodePool is defined", pod)}
	}
	var best Reason
	for pi := range r.s.pools {
		if why := r.diagnosePool(v, pi, pod); pi == 0 || stage(why.Kind) > stage(best.Kind) {
			best = why
		}
	}
	return best
}

func stage(k ReasonKind) int {
	return [...]int{NoNodePool: 0, Untolerated: 1, Incompatible: 2, NoInstanceType: 3, Insufficient: 4,
		Unavailable: 5, LimitExceeded: 6, HostPortConflict: 7, MinValues: 8, Topology: 9, AttachLimit: 10, InvalidVolume: 11}[k]
}

// diagnosePool explains why the pod of v, named pod, cannot go to pool pi.
func (r *run) diagnosePool(v view, pi int, pod string) Reason {
	d := poolDiagnosis{r: r, v: v, pi: pi, pl: r.s.pools[pi], pod: pod}
	// In the order a pod gets further: what nothing in the pool's catalog
	// offers first, then the pool as a whole, its types, their room.
	checks := [...]func() (Reason, bool){d.conflict, d.podGap, d.taints, d.compatible, d.hostname,
		d.unfit, d.poolGap, d.noType, d.insufficient, d.unavailable, d.limits, d.minValues}
	for _, check := range checks {
		if why, found := check(); found {
			why.NodePool = d.pl.np.Name
			return why
		}
	}
	return d.reason(Topology, "pod %s: no node or new node in NodePool %s meets its topology constraints%s", d.pod, d.pl.np.Name, r.constraintText(v))
}

// poolDiagnosis is diagnosePool's view of one pod and one pool. Each check
// returns the reason and true when it is why the pod cannot go there, and
// formats no message when it is not.
type poolDiagnosis struct {
	r   *run
	v   view
	pi  int
	pl  *pool
	pod string
}

func (d poolDiagnosis) reason(k ReasonKind, format string, args ...any) Reason {
	return Reason{Kind: k, Message: fmt.Sprintf(format, args...)}
}

func (d poolDiagnosis) conflict() (Reason, bool) {
	if d.pl.conflict == "" {
		return Reason{}, false
	}
	return d.reason(Incompatible, "NodePool %s can launch no node, so pod %s cannot go there: %s; change the NodePool's requirements or labels",
		d.pl.np.Name, d.pod, d.pl.conflict), true
}

// unavailable reports a pool that would take the pod, as far as its
// types go, but launches no node.
func (d poolDiagnosis) unavailable() (Reason, bool) {
	if d.pl.np.Unavailable == "" {
		return Reason{}, false
	}
	return d.reason(Unavailable, "NodePool %s would take pod %s but launches no node: %s", d.pl.np.Name, d.pod, d.pl.np.Unavailable), true
}

func (d poolDiagnosis) taints() (Reason, bool) {
	err := requirements.Tolerates(d.v.tols, d.pl.taints)
	if err == nil {
		return Reason{}, false
	}
	return d.reason(Untolerated, "NodePool %s: pod %s %v", d.pl.np.Name, d.pod, err), true
}

func (d poolDiagnosis) compatible() (Reason, bool) {
	err := d.pl.compatible(d.pl.reqs, d.v.reqs)
	if err == nil {
		return Reason{}, false
	}
	return d.reason(Incompatible, "NodePool %s: pod %s: %v", d.pl.np.Name, d.pod, err), true
}

func (d poolDiagnosis) hostname() (Reason, bool) {
	if admitsNewHost(d.v.reqs) {
		return Reason{}, false
	}
	return d.reason(Incompatible, "pod %s requires %s, which no new node of NodePool %s can meet: a node's hostname is unknown until it launches, and every node has one; "+
		"only an existing node that matches can take the pod", d.pod, d.v.reqs.Get(requirements.LabelHostname), d.pl.np.Name), true
}

func (d poolDiagnosis) compat() bitset.Set { return d.r.memo.bits[d.v.sig][d.pi] }

func (d poolDiagnosis) unfit() (Reason, bool) {
	u, ok := d.pl.unfitFor(d.v.reqs)
	if !ok || !d.compat().Empty() {
		return Reason{}, false
	}
	short, _ := u.load.Shortfall(u.t.Allocatable)
	return d.reason(NoInstanceType, "no instance type in NodePool %s can hold both its daemonsets and pod %s: the daemonsets that would run on %s request %s %s, and it has %s",
		d.pl.np.Name, d.pod, u.t.Name, formatAmount(short, u.load.Get(short)), short, formatAmount(short, u.t.Allocatable.Get(short))), true
}

func (d poolDiagnosis) noType() (Reason, bool) {
	if !d.compat().Empty() {
		return Reason{}, false
	}
	return d.reason(NoInstanceType, "no instance type in NodePool %s is compatible with pod %s (requirements %s)",
		d.pl.np.Name, d.pod, d.pl.reqs.Intersect(d.v.reqs)), true
}

func (d poolDiagnosis) insufficient() (Reason, bool) {
	return insufficient(d.pl, d.compat(), d.v.info.req)
}

func (d poolDiagnosis) limits() (Reason, bool) {
	if d.r.use.nodesLeft(d.pi, d.pl) > 0 && d.r.use.anyWithin(d.pl, d.pi, d.compat(), d.v.info.req) {
		return Reason{}, false
	}
	return d.reason(LimitExceeded, "NodePool %s: its limits leave no room for pod %s", d.pl.np.Name, d.pod), true
}

func (d poolDiagnosis) minValues() (Reason, bool) {
	if !d.pl.hasMinValues() {
		return Reason{}, false
	}
	c := emptyClaim(d.pl, d.pi) // narrowed does not change its candidates, the pool's
	cand, _ := d.r.narrowInto(c.cand.Clone(), d.v, &c, d.v.info.req, nil)
	if satisfiesMinValues(d.pl, c.reqs.Intersect(d.v.reqs), cand) {
		return Reason{}, false
	}
	return d.reason(MinValues, "NodePool %s: the instance types that fit pod %s do not offer its minValues", d.pl.np.Name, d.pod), true
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

func (r *run) constraintText(v view) string {
	s := ""
	for _, c := range v.cons {
		def := r.s.counters[c.counter]
		s += fmt.Sprintf("; %s on %s (pods %s)", [...]string{"topology spread", "pod affinity", "pod anti-affinity"}[c.kind], def.key, def.selector)
	}
	return s
}

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
