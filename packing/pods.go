package packing

import (
	"cmp"
	"encoding/binary"
	"slices"

	"github.com/nodeplan/nodeplan/requirements"
	"github.com/nodeplan/nodeplan/resources"
)

// podInfo is a pod compiled once per solve.
type podInfo struct {
	pod     *Pod
	req     resources.List     // requests with the pod slot
	alts    []requirements.Set // required node-affinity alternatives, with the volumes' (volumes.go)
	own     []requirements.Set // per alternative, the pod's own part without its volumes'; nil: alts
	prefs   []requirements.Preference
	cons    []constraint
	matches []int32        // counters this pod is counted in
	soft    [kindCount]int // relaxable constraints per kind
	// The view of the pod before any relaxation, compiled once: its
	// requirements (the heaviest preference included), their key, and its
	// hostname constraints.
	reqs0     requirements.Set
	key0      string
	hostCons0 []constraint
	// hostBound: some constraint of the pod, or of another pod that counts
	// it, is keyed by hostname, so which node it shares matters.
	hostBound bool
	// invalid is why Karpenter provisions nothing for the pod because of
	// its volumes (invalidVolume), "" for nothing.
	invalid string
}

// conKind is the kind of a topology constraint.
type conKind uint8

const (
	spreadKind conKind = iota
	affinityKind
	antiKind
	kindCount
)

// constraint is one topology constraint of a pod, over a counter.
type constraint struct {
	counter    int32
	kind       conKind
	maxSkew    int32
	minDomains int32
	honorAff   bool // nodeAffinityPolicy Honor
	honorTaint bool // nodeTaintsPolicy Honor
	self       bool // the pod is counted by its own counter
	soft       bool // preferred term or ScheduleAnyway: relaxable
	rank       int  // relaxation order among the soft constraints of its kind
	weight     int32
}

// counterDef counts pods matching a selector in some namespaces, per
// domain of a topology key.
type counterDef struct {
	key      string
	selector requirements.Set
	ns       []string // sorted; empty with allNS means every namespace
	allNS    bool
}

func (c *counterDef) counts(p *Pod) bool {
	if !c.allNS {
		if _, ok := slices.BinarySearch(c.ns, p.Namespace); !ok {
			return false
		}
	}
	return c.selector.Satisfied(p.Labels)
}

func (c *counterDef) signature() string {
	b := appendKeyString(nil, c.key)
	if c.allNS {
		b = append(b, 1)
	} else {
		b = append(b, 0)
	}
	b = binary.AppendUvarint(b, uint64(len(c.ns)))
	for _, ns := range c.ns {
		b = appendKeyString(b, ns)
	}
	b, _ = c.selector.AppendBinary(b)
	return string(b)
}

// compilePods compiles every pending pod; counters are collected on the
// way and matched afterwards in compileCounters.
func (s *static) compilePods() {
	index := map[string]int32{}
	s.counterIndex = index
	s.pods = s.spare.podInfos(len(s.prob.Pods))
	for i := range s.prob.Pods {
		s.pods[i] = s.compilePod(&s.prob.Pods[i], index)
	}
	for i := range s.prob.Nodes {
		for _, j := range s.rooms[i].anti {
			p := &s.prob.Nodes[i].Pods[j]
			for _, t := range p.AntiAffinity {
				if t.Weight == 0 {
					s.counter(index, antiCounter(p, t))
				}
			}
		}
	}
}

func (s *static) compilePod(p *Pod, index map[string]int32) podInfo {
	info := podInfo{pod: p, req: p.Requests.OnePod(), invalid: invalidVolume(p)}
	info.alts, info.own = volumeAlternatives(p.NodeAffinity.Alternatives(), p.Volumes.reqs())
	info.prefs = s.preferred(p)
	for _, ts := range p.TopologySpread {
		if ts.WhenUnsatisfiable == ScheduleAnyway && !s.keepsSpread(p, ts) {
			continue
		}
		info.add(spreadConstraint(s.counter(index, spreadCounter(p, ts)), ts))
	}
	s.addTerms(&info, index, p.Affinity, affinityKind)
	s.addTerms(&info, index, p.AntiAffinity, antiKind)
	info.rankSoft()
	if len(info.alts) > 0 {
		info.reqs0 = info.alts[0]
		if len(info.prefs) > 0 {
			info.reqs0 = withPreference(info.alts[0], info.prefs[0].Terms)
		}
		info.key0 = setKey(info.reqs0)
	}
	return info
}

func (s *static) addTerms(info *podInfo, index map[string]int32, terms []PodAffinityTerm, kind conKind) {
	for _, t := range terms {
		if t.Weight > 0 && !s.keepsTerm(info.pod, t, kind) {
			continue
		}
		c := constraint{counter: s.counter(index, antiCounter(info.pod, t)), kind: kind, soft: t.Weight > 0, weight: t.Weight}
		info.add(c)
	}
}

func (info *podInfo) add(c constraint) { info.cons = append(info.cons, c) }

// rankSoft numbers the soft constraints of each kind in relaxation order:
// heaviest first for terms (stable), input order for spread.
func (info *podInfo) rankSoft() {
	idx := make([]int, 0, len(info.cons))
	for i, c := range info.cons {
		if c.soft {
			idx = append(idx, i)
		}
	}
	slices.SortStableFunc(idx, func(a, b int) int { return cmp.Compare(info.cons[b].weight, info.cons[a].weight) })
	for _, i := range idx {
		k := info.cons[i].kind
		info.cons[i].rank = info.soft[k]
		info.soft[k]++
	}
}

func spreadConstraint(counter int32, ts TopologySpread) constraint {
	return constraint{counter: counter, kind: spreadKind, maxSkew: max(ts.MaxSkew, 1), minDomains: ts.MinDomains,
		honorAff: ts.NodeAffinityPolicy != Ignore, honorTaint: ts.NodeTaintsPolicy == Honor,
		soft: ts.WhenUnsatisfiable == ScheduleAnyway}
}

func spreadCounter(p *Pod, ts TopologySpread) counterDef {
	sel := ts.Selector
	for _, k := range ts.MatchLabelKeys {
		if v, ok := p.Labels[k]; ok {
			sel = sel.Intersect(labelSet(k, v))
		}
	}
	return counterDef{key: requirements.Normalize(ts.TopologyKey), selector: sel, ns: []string{p.Namespace}}
}

func antiCounter(p *Pod, t PodAffinityTerm) counterDef {
	ns := t.Namespaces
	if len(ns) == 0 {
		ns = []string{p.Namespace}
	}
	ns = slices.Compact(slices.Sorted(slices.Values(ns)))
	return counterDef{key: requirements.Normalize(t.TopologyKey), selector: t.Selector, ns: ns, allNS: t.AllNamespaces}
}

// counter returns the index of c, adding it when it is new.
func (s *static) counter(index map[string]int32, c counterDef) int32 {
	sig := c.signature()
	if i, ok := index[sig]; ok {
		return i
	}
	index[sig] = int32(len(s.counters))
	s.counters = append(s.counters, c)
	return index[sig]
}

// compileCounters records, for every pending pod, the counters it is
// counted in, and for each of its constraints whether it counts itself.
func (s *static) compileCounters() {
	for i := range s.pods {
		info := &s.pods[i]
		info.matches = s.matching(info.pod)
		for j := range info.cons {
			info.cons[j].self = slices.Contains(info.matches, info.cons[j].counter)
		}
		for _, c := range info.cons {
			onHost := s.counters[c.counter].key == requirements.LabelHostname
			if c.kind != affinityKind && onHost {
				info.hostCons0 = append(info.hostCons0, c)
			}
			info.hostBound = info.hostBound || onHost
		}
		for _, m := range info.matches {
			info.hostBound = info.hostBound || s.counters[m].key == requirements.LabelHostname
		}
	}
}

func (s *static) matching(p *Pod) []int32 {
	var out []int32
	for c := range s.counters {
		if s.counters[c].counts(p) {
			out = append(out, int32(c))
		}
	}
	return out
}
