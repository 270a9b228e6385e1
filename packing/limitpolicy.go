package packing

import (
	"cmp"
	"slices"

	"github.com/nodeplan/nodeplan/internal/enum"
)

// LimitPolicy chooses which pending pods get a NodePool's capacity when
// the pool's limits bind, that is, when a pass leaves a pod unschedulable
// that the pool would take but for its limits. The zero LimitPolicy is
// LimitMostPods.
type LimitPolicy uint8

const (
	// LimitMostPods (the default) gives a bound pool's capacity first to
	// the pods that need it. When a pass leaves a pod unschedulable that
	// a NodePool would take but for its limits (resources or nodes), the
	// pass is run twice more with the same claim rule and pod order, but
	// for the needy pods: those that only such bound pools admit (no
	// other NodePool, of any weight, admits them in any of their
	// relaxations). They go first, in the pass's order in the first run and smallest
	// first in the second, so that a limit too small for all of them
	// holds as many as it can; the other pods follow in the pass's order,
	// take the capacity left and spill to the other pools. When a bound
	// pool reaches a zone no other pool does, a further rerun keeps its
	// claims for pods other pools admit to those zones (see ownZones), so
	// that its capacity is not spent where another pool could serve and
	// zone spread hold every zone to a starved one. And when a pool's
	// limits are full, that is, they leave no room for a new node for
	// some pod the pass placed in another pool, the pass is rerun once per
	// zone of that pool with its nodes kept to that zone (see zoneOrders:
	// only zones the other pools reach differently when no topology
	// counts zones), so that its capacity goes where the other pools are
	// dearer or absent, as on-demand capacity in a zone spot does not
	// reach, even when every pod is placed. When limits bind or fill, one
	// more rerun puts first, smallest first, the pods that each need a
	// node of their own (a required hostname anti-affinity counting
	// itself): they pay for a whole node wherever they go, so a limited
	// pool's small cheap nodes save most on them (see aloneOrder). The run that
	// places the most pods, then the cheapest (with
	// Options.NodeOverhead), is kept, the first on a tie, so no fewer pods
	// are placed than under LimitLargestFirst with the same strategy.
	// Plain and CostAware rerun their one pass; Best reruns a rule's
	// greedy order, merging as in its other passes, after the rule's
	// restarts (and shuffled passes: Options.Restarts) when the best of
	// its passes leaves a pod out for a limit
	// or fills a pool's limits. Where no limit binds or fills, nothing
	// runs again and the plan is LimitLargestFirst's, byte for byte. With
	// Options.PriorityOrder the
	// reruns still put the needy pods first, whatever their priority, and
	// the run placing more pods wins: a higher-priority pod may then stay
	// pending so that more lower-priority ones are placed (choose
	// LimitLargestFirst to keep priority first).
	LimitMostPods LimitPolicy = iota
	// LimitLargestFirst is Karpenter's rule: every pass takes the pods in
	// its own order (Plain's is Karpenter's, largest cpu then memory
	// first), and a pod takes a pool's capacity when its turn comes, even
	// when another pool could hold it and a later pod only this one.
	LimitLargestFirst
)

var limitPolicyNames = [...]string{"MostPods", "LargestFirst"}

// String returns the policy's name.
func (p LimitPolicy) String() string { return enum.String(p, "LimitPolicy", limitPolicyNames[:]) }

// needOrder is a rerun's pod order under LimitMostPods: the needy pods
// (per pod index) go first, in the pass's order or, when smallest, the
// smallest first; the others follow in the pass's order.
type needOrder struct {
	needy    []bool
	smallest bool
	// own, when set, keeps each pool's claims to the zones named for it
	// (nil for a pool: anywhere), but for the needy pods: the zones
	// only a bound pool reaches (ownZones) or one zone of a full pool
	// (zoneOrders); see keepsOwnZone. pairs are every pool's zones.
	own   []map[string]bool
	pairs [][]zoneCT
}

// needyFirst moves the needy pods of r.needs to the front of queue,
// stably; nothing without r.needs.
func (r *run) needyFirst(queue []int) {
	if r.needs == nil {
		return
	}
	needy := make([]int, 0, len(queue))
	var rest []int
	for _, i := range queue {
		if r.needs.needy[i] {
			needy = append(needy, i)
		} else {
			rest = append(rest, i)
		}
	}
	if r.needs.smallest {
		pods, byPriority := r.s.prob.Pods, r.s.opts.PriorityOrder
		slices.SortStableFunc(needy, func(a, b int) int {
			pa, pb := &pods[a], &pods[b]
			c := 0
			if byPriority {
				c = cmp.Compare(pb.Priority, pa.Priority)
			}
			return cmp.Or(c, cmpSize(pb, pa, false))
		})
	}
	copy(queue[copy(queue, needy):], rest)
}

// reserveBest is Best's search under LimitMostPods: best, or a rerun of
// the rule's primary order (see reruns), whichever is better (see
// static.better; best on a tie).
func (s *static) reserveBest(best pass, cost bool, m *memo, sc *scratch) pass {
	if s.opts.LimitPolicy != LimitMostPods || s.halted() {
		return best
	}
	primary, _ := s.sequences(cost)
	for _, n := range best.r.reruns() {
		if s.halted() {
			break
		}
		best = s.keep(best, s.runPass(passSpec{cost: cost, seq: primary, needs: n}, m, sc))
	}
	return best
}

// reserveSingle is reserveBest for a single pass r of Plain or CostAware,
// in sequence seq, without merging: r or a rerun, and its judged
// settlement (render it with plan).
func (s *static) reserveSingle(r *run, seq sequence) (*run, settlement) {
	st := r.judge()
	if s.opts.LimitPolicy != LimitMostPods || s.halted() {
		return r, st
	}
	for _, n := range r.reruns() {
		if s.halted() {
			break
		}
		q := newRun(s, passSpec{cost: r.cost, seq: seq, needs: n}, r.memo, r.scratch)
		q.solve()
		if qs := q.judge(); s.better(qs, st) {
			r, st = q, qs
		}
	}
	return r, st
}

// reruns are the orders of the reruns LimitMostPods asks for after run
// r: needOrders', zoneOrders' and, when some pool's limits bind or fill,
// aloneOrder's.
func (r *run) reruns() []*needOrder {
	bound, full := r.boundPools(), r.fullPools()
	out := append(r.needOrders(bound), r.zoneOrders(full)...)
	if bound != nil || full != nil {
		out = append(out, r.aloneOrder()...)
	}
	return out
}

// needOrders are the orders of the reruns LimitMostPods asks for after
// run r, whose bound pools are bound (see boundPools): none when no limit
// bound in r; else, when some pod needs a bound pool, the needy pods first
// in r's order, and then smallest first; and, when a bound pool reaches a
// zone no other pool does, the needy pods first with that pool's capacity
// kept for those zones.
func (r *run) needOrders(bound []bool) []*needOrder {
	if bound == nil {
		return nil
	}
	var out []*needOrder
	needy, found := r.needyPods(bound)
	if found {
		out = append(out, &needOrder{needy: needy}, &needOrder{needy: needy, smallest: true})
	}
	if own, pairs, ok := r.ownZones(bound); ok {
		out = append(out, &needOrder{needy: needy, own: own, pairs: pairs})
	}
	return out
}

// aloneOrder is the rerun that gives a limited pool's capacity to the
// pods that each need a node of their own (a required hostname
// anti-affinity term that counts the pod itself: see podInfo.alone),
// smallest first, when there are any: wherever such a pod goes it pays
// for a whole node, so a cheap small node of a limited pool saves most
// there, and the smallest fit the most nodes within the limits. Pods that
// share nodes lose little by going to another pool, whose nodes they fill
// as well. (Differential seed 437: a weighted pool limited to 235 cores
// spent them on 57 four-core nodes of shared pods, and 471 of the other
// pool's dearer nodes held one anti-affinity pod each.)
func (r *run) aloneOrder() []*needOrder {
	alone := make([]bool, len(r.s.pods))
	found := false
	for i := range r.s.pods {
		alone[i] = r.s.pods[i].alone()
		found = found || alone[i]
	}
	if !found {
		return nil
	}
	return []*needOrder{{needy: alone, smallest: true}}
}

// boundPools reports, per pool, whether its limits (resources or nodes)
// are why some pod r left unschedulable cannot go there, as diagnose
// judges it at the end of r; nil when no pool's are.
func (r *run) boundPools() []bool {
	var bound []bool
	for i, w := range r.where {
		if w.kind != unplaced || !r.s.pods[i].compiled() {
			continue
		}
		v := r.view(i)
		for pi, pl := range r.s.pools {
			if len(pl.np.Limits) == 0 || bound != nil && bound[pi] {
				continue
			}
			if r.diagnosePool(v, pi, v.info.pod.Key()).Kind == LimitExceeded {
				if bound == nil {
					bound = make([]bool, len(r.s.pools))
				}
				bound[pi] = true
			}
		}
	}
	return bound
}

// needyPods marks the pods that some bound pool admits and no other pool
// does, in any of their relaxations (see admits), and reports whether
// there is one. It judges on a new run of r's rule, so with only the
// existing nodes counted against the pools' limits.
func (r *run) needyPods(bound []bool) ([]bool, bool) {
	t := newRun(r.s, passSpec{cost: r.cost}, r.memo, r.scratch)
	needy := make([]bool, len(r.s.pods))
	found := false
	for i := range r.s.pods {
		if !r.s.pods[i].compiled() {
			continue
		}
		byBound, byOther := false, false
		for ok := true; ok && !byOther; ok = t.relax(i) {
			v := t.view(i)
			for pi := 0; pi < len(r.s.pools) && !byOther; pi++ {
				if t.admits(v, pi) {
					byBound = byBound || bound[pi]
					byOther = !bound[pi]
				}
			}
		}
		needy[i] = byBound && !byOther
		found = found || needy[i]
	}
	return needy, found
}

// admits reports whether pool pi would take the pod of v on a new claim
// as far as the pod alone goes: diagnose finds nothing short of the
// pool's limits or the placements (host ports, minValues, topology)
// against it.
func (r *run) admits(v view, pi int) bool {
	return stage(r.diagnosePool(v, pi, v.info.pod.Key()).Kind) >= stage(LimitExceeded)
}

// alone reports whether the pod needs a node of its own among the pods
// of its group (see hostGroup).
func (info *podInfo) alone() bool { return hostGroup(info) >= 0 }

// compiled reports whether the pod has a view to place: a required
// node-affinity alternative and no invalid volume (attempt fails the
// others before any placement).
func (info *podInfo) compiled() bool { return len(info.alts) > 0 && info.invalid == "" }
