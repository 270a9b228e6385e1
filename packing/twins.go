package packing

import (
	"slices"

	"github.com/nodeplan/nodeplan/instancetypes"
)

// A cost-aware pass weighs each pod on up to scanUpgrade claims and a new
// claim per pool, though consecutive pods are often twins: equal requests,
// requirements and tolerations, and nothing about them that counts
// topology or hostnames. Between two twins placed one after the other only
// the claim the first one joined changes, so every other claim answers the
// second as it answered the first. twinRun keeps those answers: tryTwin
// returns a claim's answer from its twinTry when the claim has not changed
// since, and asks tryRoom otherwise (and minValues, when the move is worth
// taking, once). Only claims of stable pools keep
// answers (see pool.stable): elsewhere an answer also depends on the other
// claims (limits, reserved units). The plan is the same as without the
// answers kept (TestTwinsSamePlans).

// twinRun is the run of twins being placed (twinBegin, which place calls,
// sets it; twinEnd ends it).
// epoch numbers the runs of a pass, so that an answer kept for an earlier
// run is stale; 0 is no run. fresh keeps, per pool, the answer of the
// pool's empty claim (newClaim tries one per pool).
type twinRun struct {
	epoch uint64
	on    bool // the pod being placed is of the run: answers may be kept and read
	last  int  // the pod last seen by place while on
	fresh []twinTry
	off   bool // never keep answers (hooks.noTwins)
}

// twinTry is tryClaim's answer for one claim and the twins of one run:
// whether the pod joins it but for minValues (tryRoom) and, when it does,
// the move (without pins: a twin has no topology constraint to pin); and
// minValues's answer once asked. The zero twinTry is no answer.
type twinTry struct {
	epoch uint64
	ok    bool
	cheap int
	delta instancetypes.Price
	min   minAnswer
}

// minAnswer is keepsMinValues's answer kept in a twinTry.
type minAnswer uint8

const (
	minUnasked minAnswer = iota
	minKept
	minLost
)

// twinBegin is called by place for each view: it starts a run of twins,
// continues one, or ends it.
func (r *run) twinBegin(v view) {
	t := &r.twin
	switch {
	case t.off || !r.cost || r.states[v.i] != (podState{}) || !r.s.pods[v.i].free():
		t.on, t.last = false, -1
		return
	case !t.on || t.last < 0 || !r.twins(t.last, v.i):
		t.epoch++
		if len(t.fresh) != len(r.s.pools) {
			t.fresh = make([]twinTry, len(r.s.pools))
		}
	}
	t.on, t.last = true, v.i
}

// twinEnd ends the run of twins: no answer kept so far is read again.
func (r *run) twinEnd() { r.twin.on, r.twin.last = false, -1 }

// twins reports whether pods a and b, both free, are placed alike: every
// check of tryClaim answers them the same on the same claim.
func (r *run) twins(a, b int) bool {
	x, y := &r.s.pods[a], &r.s.pods[b]
	if !x.oneRule() || !y.oneRule() || !x.req.Equal(y.req) || x.key0 != y.key0 ||
		!slices.Equal(x.pod.Tolerations, y.pod.Tolerations) {
		return false
	}
	return r.needs == nil || r.needs.needy[a] == r.needs.needy[b]
}

// oneRule reports whether the pod's unrelaxed view is read from its one
// required alternative and key0 alone: no volume part, no preference.
func (info *podInfo) oneRule() bool {
	return len(info.alts) == 1 && info.own == nil && len(info.prefs) == 0
}

// free reports whether the pod's placement touches nothing but the room
// and requirements of where it goes: no topology constraint of its own,
// counted by no other pod's, not bound by hostname rules, no host ports,
// volumes or invalid-volume reason.
func (info *podInfo) free() bool {
	p := info.pod
	return len(info.cons) == 0 && len(info.matches) == 0 && !info.hostBound && info.invalid == "" &&
		len(p.HostPorts) == 0 && p.Volumes == nil
}

// tryTwin is tryClaimIf for claim c, whose kept answer is at slot: the
// kept answer while the pod is of the run that kept it, else tryRoom's
// (and keepsMinValues's once asked), kept when c's pool is stable.
func (r *run) tryTwin(v view, c *claim, slot *twinTry, into *move, w worth) bool {
	t := &r.twin
	if !t.on || !c.pl.stable() {
		return r.tryClaimIf(v, c, into, w)
	}
	if slot.epoch != t.epoch {
		m, ok := r.tryRoom(v, c)
		if ok && len(m.pins) > 0 {
			panic("packing: a free pod's move pins a domain")
		}
		*slot = twinTry{epoch: t.epoch, ok: ok, cheap: m.cheap, delta: m.delta}
		if ok && r.s.hooks.eagerMinValues {
			slot.min = r.askMinValues(v, c)
		}
	}
	if !slot.ok || (w != nil && !w(slot.cheap, slot.delta)) {
		return false
	}
	if slot.min == minUnasked {
		slot.min = r.askMinValues(v, c)
	}
	if slot.min == minLost {
		return false
	}
	*into = move{cheap: slot.cheap, delta: slot.delta, pins: into.pins[:0]}
	return true
}

// askMinValues is keepsMinValues's answer for a twin joining c.
func (r *run) askMinValues(v view, c *claim) minAnswer {
	if r.keepsMinValues(v, c, nil) {
		return minKept
	}
	return minLost
}

// stable reports whether tryClaim answers a claim of pl from the claim
// and the pod alone: the pool has no limits and no reserved offerings.
func (pl *pool) stable() bool {
	return len(pl.np.Limits) == 0 && !pl.reserved
}

// tryFresh is tryTwin for pool pi's empty claim c (run.fresh), whose
// answer is kept per pool: an empty claim never changes.
func (r *run) tryFresh(v view, c *claim, pi int, into *move) bool {
	if !r.twin.on {
		return r.tryClaim(v, c, into)
	}
	return r.tryTwin(v, c, &r.twin.fresh[pi], into, nil)
}
