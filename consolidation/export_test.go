package consolidation

import (
	"fmt"
	"slices"

	"github.com/nodeplan/nodeplan/packing"
)

// After returns the cluster as Plan's state stands after applying cmds to
// c (candidates marked for deletion with the pods that stay, displaced
// pods on their homes, replacements in flight, the pod events recorded):
// the cluster whose re-planning the fixpoint property checks.
func After(c Cluster, o Options, cmds []Command) (Cluster, error) {
	s, err := newState(c, o)
	if err != nil {
		return Cluster{}, err
	}
	for _, cmd := range cmds {
		s.apply(cmd)
	}
	out := c
	out.Nodes = slices.Clone(s.w.Nodes())
	out.LastPodEvent = s.c.LastPodEvent
	return out, nil
}

// RoomVerdicts plans c, then checks room against the simulation on the
// cluster the commands leave: for every candidate alone (one cheaper
// node) and every prefix of up to 6 candidates (any number of nodes, the
// repack's rule). It returns how often room ruled a move out and how
// often it ruled out one the simulation accepts, with that move.
func RoomVerdicts(c Cluster, o Options) (ruledOut int, wrong []string, err error) {
	s, err := newState(c, o)
	if err != nil {
		return 0, nil, err
	}
	if _, err := s.passes(); err != nil {
		return 0, nil, err
	}
	s.measureRoom()
	cands := s.underutilized()
	check := func(set []candidate, method Method, fits bool) {
		if fits {
			return
		}
		ruledOut++
		seq := s.seq
		if cmd, why := s.compute(set, method, method == Repack); why == nil {
			wrong = append(wrong, cmd.String())
		}
		s.seq = seq
	}
	for _, c := range cands {
		check([]candidate{c}, SingleNode, s.room.fitsOne(s, []candidate{c}, s.threshold(c.price)))
	}
	for k := 1; k <= min(6, len(cands)); k++ {
		set := cands[:k]
		check(set, Repack, s.room.fitsMany(s, set, s.threshold(sumPrice(set))))
		if !s.room.fitsOne(s, set, s.threshold(sumPrice(set))) {
			ruledOut++
			wrong = append(wrong, s.oneCheaper(set)...)
		}
	}
	return ruledOut, wrong, nil
}

// oneCheaper lists the moves of set, simulated with the configured
// solver and with packing.Plain, that need at most one new node cheaper
// than the set: what fitsOne must not rule out.
func (s *state) oneCheaper(set []candidate) []string {
	var out []string
	for _, o := range []packing.Options{s.o.Solver, {Strategy: packing.Plain}} {
		m, why := s.tryMove(o, set, false)
		switch {
		case why != nil || len(m.claims) > 1:
		case len(m.claims) == 0:
			out = append(out, fmt.Sprintf("delete %d candidates", len(set)))
		default:
			if _, why := s.cheaper(m, MultiNode); why == nil {
				out = append(out, fmt.Sprintf("replace %d candidates by one %s", len(set), m.claims[0].InstanceType))
			}
		}
	}
	return out
}

// PlanSpeculating plans c as Plan does, with speculation on (it runs with
// GOMAXPROCS above 1) or off, and says how many moves the searches
// simulated ahead and read, and how many they stopped.
func PlanSpeculating(c Cluster, o Options, on bool) (r Result, read, stopped int, err error) {
	s, err := newState(c, o)
	if err != nil {
		return Result{}, 0, 0, err
	}
	s.serial = !on
	r, err = s.result(c.Nodes)
	return r, s.spec.read, s.spec.stopped, err
}
