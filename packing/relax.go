package packing

import (
	"github.com/nodeplan/nodeplan/requirements"
)

// podState is how far a pod's preferences have been relaxed.
type podState struct {
	alt, pref    int
	drop         [kindCount]int
	tolerateSoft bool
}

// attempt tries to place pod i, relaxing its preferences one step at a time
// from the full set, as Karpenter does on every try.
func (r *run) attempt(i int) bool {
	r.states[i] = podState{}
	if len(r.s.pods[i].alts) == 0 {
		r.fail(i, noAlternative(r.s.pods[i].pod))
		return false
	}
	if why := r.s.pods[i].invalid; why != "" {
		r.fail(i, volumeReason(r.s.pods[i].pod, why))
		return false
	}
	for {
		v := r.view(i)
		if r.place(v) {
			return true
		}
		if !r.relax(i) {
			r.fail(i, r.attachReason(v, r.diagnose(v)))
			return false
		}
	}
}

// fail records why pod i's last try failed. The reasons are made on the
// first failure: most runs of a consolidation's simulations have none.
func (r *run) fail(i int, why Reason) {
	if r.fails == nil {
		r.fails = make([]Reason, len(r.s.pods))
	}
	r.fails[i] = why
}

// failure is why pod i's last try failed; the zero Reason if none did.
func (r *run) failure(i int) Reason {
	if r.fails == nil {
		return Reason{}
	}
	return r.fails[i]
}

// relax applies the next of Karpenter's relaxations: drop a required
// node-affinity alternative (never the last), a preferred pod affinity term,
// a preferred anti-affinity term, a preferred node-affinity term, a
// ScheduleAnyway spread, then tolerate PreferNoSchedule taints.
func (r *run) relax(i int) bool {
	st, info := &r.states[i], &r.s.pods[i]
	switch {
	case st.alt < len(info.alts)-1:
		st.alt++
	case st.drop[affinityKind] < info.soft[affinityKind]:
		st.drop[affinityKind]++
	case st.drop[antiKind] < info.soft[antiKind]:
		st.drop[antiKind]++
	case st.pref < len(info.prefs):
		st.pref++
	case st.drop[spreadKind] < info.soft[spreadKind]:
		st.drop[spreadKind]++
	case r.s.softTaints && !st.tolerateSoft:
		st.tolerateSoft = true
	default:
		return false
	}
	return true
}

// view is a pod as its current relaxation state presents it.
type view struct {
	i      int
	info   *podInfo
	reqs   requirements.Set // node requirements, preference included
	strict requirements.Set // without the preference
	alt    int32            // the required alternative strict is; its own part (podInfo.ownAlt) is what nodeAffinityPolicy Honor reads
	sig    int32
	cons   []constraint
	tols   []requirements.Toleration
	// hostCons are the active anti-affinity and spread constraints on the
	// hostname, checked first.
	hostCons []constraint
}

func (r *run) view(i int) view {
	info, st := &r.s.pods[i], &r.states[i]
	if *st == (podState{}) { // the common case, compiled once per solve
		return view{i: i, info: info, strict: info.alts[0], reqs: info.reqs0, sig: r.intern(info.key0, info.reqs0),
			cons: info.cons, hostCons: info.hostCons0, tols: info.pod.Tolerations}
	}
	v := view{i: i, info: info, strict: info.alts[st.alt], alt: int32(st.alt), tols: info.pod.Tolerations}
	v.reqs = v.strict
	if st.pref < len(info.prefs) {
		v.reqs = withPreference(v.strict, info.prefs[st.pref].Terms)
	}
	v.sig = r.signature(v.reqs)
	for _, c := range info.cons {
		if !c.soft || c.rank >= st.drop[c.kind] {
			v.cons = append(v.cons, c)
			if c.kind != affinityKind && r.s.counters[c.counter].key == requirements.LabelHostname {
				v.hostCons = append(v.hostCons, c)
			}
		}
	}
	if st.tolerateSoft {
		v.tols = tolerateSoft(v.tols)
	}
	return v
}

// withPreference is the pod's requirements with a preferred term treated as
// required, as Karpenter does until it relaxes the term. A term that
// contradicts a requirement is left out: the intersection would turn "In
// [b]" into "DoesNotExist", which a node without the label satisfies.
func withPreference(strict, pref requirements.Set) requirements.Set {
	if merged := strict.Intersect(pref); !requirements.Contradicts(merged, strict) {
		return merged
	}
	return strict
}
