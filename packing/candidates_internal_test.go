package packing

import (
	"fmt"
	"slices"

	"github.com/nodeplan/nodeplan/requirements"
)

// CandidatesMatchFirstFit replays the first round of a Plain pass over p
// and, before each pod's attempt, checks every open claim and every
// topology key other than the hostname that the pod is constrained or
// counted by: the domains candidates offers for the claim are exactly
// those the claim's and the pod's requirements allow where firstFit finds
// a type that holds the claim's pods and the pod (within the pool's
// limits, with an offering). A domain left out that a type holds would
// fail or misplace a pod; one kept that no type holds would fail it as
// Karpenter does. It returns the first mismatch, or nil. It is exported
// to the package's external tests only (a _test.go file), which draw the
// problems from problemgen.
func CandidatesMatchFirstFit(p Problem) error {
	s := compile(&p, Options{Strategy: Plain})
	r := newRun(s, passSpec{seq: seqFFD}, nil, nil)
	for _, i := range s.order {
		if len(s.pods[i].alts) > 0 { // else no node can match: attempt fails at once
			v := r.view(i)
			for _, c := range r.claims {
				if err := r.checkCandidates(v, c); err != nil {
					return err
				}
			}
		}
		r.attempt(i)
	}
	return nil
}

// checkCandidates compares candidates with firstFit for the claim c and
// every key the pod of v is constrained or counted by.
func (r *run) checkCandidates(v view, c *claim) error {
	need := c.used.Add(v.info.req)
	for _, m := range topologyCounters(v) {
		key := r.s.counters[m].key
		if _, fixed := r.domain(target{claim: c}, key, nil); fixed || key == requirements.LabelHostname {
			continue
		}
		got := slices.Clone(r.candidates(v, c, key, nil))
		var want []int
		fits := func(value string) bool {
			_, ok := r.firstFit(v, c, need, []pin{{key, value}})
			return ok
		}
		for d, value := range r.s.domains[key] {
			if c.reqs.Get(key).Has(value) && v.reqs.Get(key).Has(value) && fits(value) {
				want = append(want, d)
			}
		}
		if !slices.Equal(got, want) {
			return fmt.Errorf("pod %s on claim %d (%s), key %s: candidates %v, domains a type holds it in %v (domains %v)",
				v.info.pod.Key(), c.id, c.pl.np.Name, key, got, want, r.s.domains[key])
		}
	}
	return nil
}

// topologyCounters lists the counters of the pod's constraints and those
// it is counted by.
func topologyCounters(v view) []int32 {
	ms := slices.Clone(v.info.matches)
	for _, c := range v.cons {
		ms = append(ms, c.counter)
	}
	slices.Sort(ms)
	return slices.Compact(ms)
}
