package verify

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/nodeplan/nodeplan/instancetypes"
	"github.com/nodeplan/nodeplan/packing"
	"github.com/nodeplan/nodeplan/requirements"
)

// placement is a pod already bound or replayed so far, and its host. A bound
// terminating pod is not counted (uncounted) but its required
// anti-affinity still repels, as in Solve.
type placement struct {
	pod       *packing.Pod
	host      *host
	uncounted bool
}

// domain is a value of a topology key that a node or a pool's instance
// types offer, with the taints of the node or pool.
type domain struct {
	value  string
	taints []requirements.Taint
}

// replay is the state of the topology replay: the pods placed so far, those
// of them with required anti-affinity, the domains of each key
// (memoized), and the running counts per domain of each selector asked
// about (tallies).
type replay struct {
	placed  []placement
	anti    []int
	domains map[string][]domain
	tallies map[string]*tally
}

// tally counts, per value of a key, the pods of placed[:upTo] a selector
// accepts. Placements are only appended and what counts of one is fixed
// when it is recorded, so a tally brought up to date by counting the
// placements since upTo equals a count from scratch.
type tally struct {
	counts map[string]int
	upTo   int
}

func (t *replay) record(p *packing.Pod, h *host, uncounted bool) {
	if slices.ContainsFunc(p.AntiAffinity, isRequired) {
		t.anti = append(t.anti, len(t.placed))
	}
	t.placed = append(t.placed, placement{pod: p, host: h, uncounted: uncounted})
}

func isRequired(term packing.PodAffinityTerm) bool { return term.Weight == 0 }

// countByDomain counts, per value of key, the placed pods match accepts.
// sig names match: two calls with the same key and sig must pass matchers
// that accept the same pods (see spreadSig and termSig), whose counts are
// then kept and brought up to date rather than counted again. The caller
// must not modify the map.
func (t *replay) countByDomain(key, sig string, match func(*packing.Pod) bool) map[string]int {
	id := strconv.Quote(key) + sig
	tl := t.tallies[id]
	if tl == nil {
		tl = &tally{counts: map[string]int{}}
		if t.tallies != nil { // nil: count from scratch every time
			t.tallies[id] = tl
		}
	}
	for _, q := range t.placed[tl.upTo:] {
		if val, ok := q.host.labels[key]; ok && !q.uncounted && match(q.pod) {
			tl.counts[val]++
		}
	}
	tl.upTo = len(t.placed)
	return tl.counts
}

// spreadSig names the matcher of a topology spread of a pod in namespace
// ns with selector sel (spreadSelector's): what it accepts depends on
// them alone.
func spreadSig(ns string, sel requirements.Set) string {
	return "s" + strconv.Quote(ns) + selectorSig(sel)
}

// termSig names the matcher termCounts(term, ns, ·): what it accepts
// depends on the term's namespaces and selector and, when the term names
// no namespace, on ns.
func termSig(term packing.PodAffinityTerm, ns string) string {
	var b strings.Builder
	switch {
	case term.AllNamespaces:
		b.WriteString("t*")
	case len(term.Namespaces) == 0:
		b.WriteString("tn" + strconv.Quote(ns))
	default:
		b.WriteString("tl")
		for _, n := range term.Namespaces {
			b.WriteString(strconv.Quote(n))
		}
	}
	b.WriteString(selectorSig(term.Selector))
	return b.String()
}

// selectorSig encodes everything Set.Matches reads of sel, exactly
// (requirements.Set.AppendBinary), so that different selectors get
// different encodings.
func selectorSig(sel requirements.Set) string {
	b, _ := sel.AppendBinary(nil)
	return string(b)
}

// checkTopology replays the placements in Plan.Order (then any placed pod
// Order misses, by index) and checks each pod's required topology
// constraints just before it is placed (rule 10).
func (v *verifier) checkTopology() {
	t := &replay{domains: map[string][]domain{}, tallies: map[string]*tally{}}
	if v.freshCounts {
		t.tallies = nil
	}
	for _, h := range v.nodeHosts() {
		for j := range h.node.Pods {
			t.record(&h.node.Pods[j], h, h.node.Pods[j].Terminating)
		}
	}
	for _, i := range v.replayOrder() {
		h := v.placedOn[i]
		v.checkSpreads(t, i, h)
		v.checkAffinities(t, i, h)
		v.checkAntiAffinities(t, i, h)
		t.record(&v.p.Pods[i], h, false)
	}
}

// replayOrder is Plan.Order's placed pods, first occurrences only, then the
// placed pods it lacks.
func (v *verifier) replayOrder() []int {
	done := make([]bool, len(v.p.Pods))
	var order []int
	take := func(i int) {
		if v.validPod(i) && !done[i] && v.placedOn[i] != nil {
			done[i] = true
			order = append(order, i)
		}
	}
	for _, i := range v.plan.Order {
		take(i)
	}
	for i := range v.p.Pods {
		take(i)
	}
	return order
}

func (v *verifier) checkSpreads(t *replay, i int, h *host) {
	p := &v.p.Pods[i]
	for _, c := range p.TopologySpread {
		if c.WhenUnsatisfiable != packing.DoNotSchedule {
			continue
		}
		if msg := v.spreadProblem(t, p, h, c); msg != "" {
			v.add(RuleTopologySpread, i, h.name, "%s on %s %s: topology spread on %s: %s", v.podName(i), h.kind(), h.name, c.TopologyKey, msg)
		}
	}
}

// spreadProblem explains why placing p on h breaks c, or returns "".
func (v *verifier) spreadProblem(t *replay, p *packing.Pod, h *host, c packing.TopologySpread) string {
	key := requirements.Normalize(c.TopologyKey)
	d, ok := h.labels[key]
	if !ok {
		return fmt.Sprintf("the %s has no %s label", h.kind(), key)
	}
	sel := spreadSelector(p, c)
	counted := func(q *packing.Pod) bool { return q.Namespace == p.Namespace && sel.Matches(q.Labels) == nil }
	counts := t.countByDomain(key, spreadSig(p.Namespace, sel), counted)
	after := counts[d] + boolInt(counted(p))
	if key == requirements.LabelHostname {
		return skewProblem(d, after, 0, c.MaxSkew)
	}
	msg := ""
	for _, alt := range v.spreadAlternatives(p, h, c) {
		least := minCount(counts, v.eligibleDomains(t, p, c, alt, d), c.MinDomains)
		if msg = skewProblem(d, after, least, c.MaxSkew); msg == "" {
			return ""
		}
	}
	return msg
}

func skewProblem(d string, after, least int, maxSkew int32) string {
	if after-least <= int(maxSkew) {
		return ""
	}
	return fmt.Sprintf("domain %s would hold %d matching pods against %d in the least loaded eligible domain, a skew above maxSkew %d",
		d, after, least, maxSkew)
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// spreadSelector is c's selector plus, for each MatchLabelKeys key p has,
// that key In [p's value].
func spreadSelector(p *packing.Pod, c packing.TopologySpread) requirements.Set {
	sel := c.Selector
	for _, k := range c.MatchLabelKeys {
		if val, ok := p.Labels[k]; ok {
			if r, err := requirements.New(k, requirements.In, val); err == nil {
				sel = sel.Add(r)
			}
		}
	}
	return sel
}

// spreadAlternatives are the node-affinity alternatives of p that h meets,
// which filter the domains under the Honor policy; the zero Set (no filter)
// when the policy is Ignore or h meets none.
func (v *verifier) spreadAlternatives(p *packing.Pod, h *host, c packing.TopologySpread) []requirements.Set {
	if c.NodeAffinityPolicy == packing.Ignore {
		return []requirements.Set{{}}
	}
	var alts []requirements.Set
	for _, alt := range p.NodeAffinity.Alternatives() {
		if alt.Matches(h.labels) == nil {
			alts = append(alts, alt)
		}
	}
	if len(alts) == 0 {
		return []requirements.Set{{}}
	}
	return alts
}

// eligibleDomains are the domains of c's key that alt allows and, under
// the Honor taints policy, whose taints p tolerates; d is always one.
func (v *verifier) eligibleDomains(t *replay, p *packing.Pod, c packing.TopologySpread, alt requirements.Set, d string) map[string]bool {
	key := requirements.Normalize(c.TopologyKey)
	allowed := alt.Get(key)
	out := map[string]bool{d: true}
	for _, s := range v.domainSources(t, key) {
		if c.NodeAffinityPolicy != packing.Ignore && alt.Has(key) && !allowed.Has(s.value) {
			continue
		}
		if c.NodeTaintsPolicy == packing.Honor && requirements.Tolerates(p.Tolerations, hardTaints(s.taints)) != nil {
			continue
		}
		out[s.value] = true
	}
	return out
}

// minCount is the least count over domains, or 0 when there are fewer
// domains than minDomains.
func minCount(counts map[string]int, domains map[string]bool, minDomains int32) int {
	if len(domains) < int(minDomains) {
		return 0
	}
	least := -1
	for d := range domains {
		if n := counts[d]; least < 0 || n < least {
			least = n
		}
	}
	return max(least, 0)
}

// hardTaints are the NoSchedule and NoExecute taints of taints.
func hardTaints(taints []requirements.Taint) []requirements.Taint {
	return slices.DeleteFunc(slices.Clone(taints), func(t requirements.Taint) bool {
		return t.Effect != requirements.NoSchedule && t.Effect != requirements.NoExecute
	})
}

// domainSources lists the values of key the existing nodes carry and the
// pools' eligible instance types offer, memoized per key.
func (v *verifier) domainSources(t *replay, key string) []domain {
	if ds, ok := t.domains[key]; ok {
		return ds
	}
	var ds []domain
	for _, h := range v.nodeHosts() {
		if val, ok := h.labels[key]; ok {
			ds = append(ds, domain{val, h.node.Taints})
		}
	}
	for i := range v.p.NodePools {
		if np := &v.p.NodePools[i]; v.pools[np.Name] == np {
			ds = v.appendPoolDomains(ds, np, key)
		}
	}
	t.domains[key] = ds
	return ds
}

// appendPoolDomains adds the domains of key np contributes (none when np
// is unavailable or excludes its own labels): the values np's
// requirements and labels state with In, and the values np's instance
// types state with In and np allows, for types that meet np, have an
// available offering and hold their own daemonset overhead (a type its
// daemonsets overfill never launches).
func (v *verifier) appendPoolDomains(ds []domain, np *packing.NodePool, key string) []domain {
	reqs := v.poolReqs[np.Name]
	if np.Unavailable != "" || !ownLabelsMet(np, reqs) {
		return ds // the pool launches nothing
	}
	allowed := reqs.Get(key)
	if allowed.Operator() == requirements.In {
		for _, val := range allowed.Values() {
			ds = append(ds, domain{val, np.Taints})
		}
	}
	for _, it := range catalogTypes(v.catalogOf(np)) {
		r := it.Requirements.Get(key)
		if !it.Requirements.Has(key) || r.Complement() || !launchable(it, reqs, "") || it.Requirements.Intersects(reqs) != nil ||
			!v.overhead(np, it).Fits(it.Allocatable) {
			continue
		}
		for _, val := range r.Values() {
			if allowed.Has(val) && (key != requirements.LabelZone || launchable(it, reqs, val)) {
				ds = append(ds, domain{val, np.Taints})
			}
		}
	}
	return ds
}

// launchable reports whether it has a usable offering the pool's
// requirements allow, in zone when zone is not empty: a node of the pool
// could be created there.
func launchable(it *instancetypes.InstanceType, reqs requirements.Set, zone string) bool {
	return slices.ContainsFunc(it.Offerings, func(o instancetypes.Offering) bool {
		return o.Usable() && o.Compatible(reqs) && (zone == "" || o.Zone == zone)
	})
}

// termCounts reports whether term, stated by a pod in namespace ns, counts
// pod q.
func termCounts(term packing.PodAffinityTerm, ns string, q *packing.Pod) bool {
	inNS := term.AllNamespaces || (len(term.Namespaces) == 0 && q.Namespace == ns) || slices.Contains(term.Namespaces, q.Namespace)
	return inNS && term.Selector.Matches(q.Labels) == nil
}

// checkTerms reports, under rule, each required term of terms that placing
// pod i on h breaks: problem explains why, or returns "". kind names the
// terms in messages.
func (v *verifier) checkTerms(i int, h *host, terms []packing.PodAffinityTerm, rule Rule, kind string, problem func(packing.PodAffinityTerm) string) {
	for _, term := range terms {
		if !isRequired(term) {
			continue
		}
		if msg := problem(term); msg != "" {
			v.add(rule, i, h.name, "%s on %s %s: required %s on %s: %s", v.podName(i), h.kind(), h.name, kind, term.TopologyKey, msg)
		}
	}
}

func (v *verifier) checkAffinities(t *replay, i int, h *host) {
	p := &v.p.Pods[i]
	v.checkTerms(i, h, p.Affinity, RulePodAffinity, "pod affinity",
		func(term packing.PodAffinityTerm) string { return affinityProblem(t, p, h, term) })
}

// affinityProblem explains why placing p on h breaks term, or returns "".
func affinityProblem(t *replay, p *packing.Pod, h *host, term packing.PodAffinityTerm) string {
	key := requirements.Normalize(term.TopologyKey)
	counts := t.countByDomain(key, termSig(term, p.Namespace), func(q *packing.Pod) bool { return termCounts(term, p.Namespace, q) })
	d, ok := h.labels[key]
	switch {
	case !ok:
		return fmt.Sprintf("the %s has no %s label", h.kind(), key)
	case len(counts) == 0 && termCounts(term, p.Namespace, p):
		return "" // the first pod of a group that selects itself
	case len(counts) == 0:
		return "no pod the term selects is placed anywhere"
	case counts[d] == 0:
		return fmt.Sprintf("no pod the term selects is in domain %s", d)
	}
	return ""
}

func (v *verifier) checkAntiAffinities(t *replay, i int, h *host) {
	p := &v.p.Pods[i]
	v.checkTerms(i, h, p.AntiAffinity, RulePodAntiAffinity, "pod anti-affinity",
		func(term packing.PodAffinityTerm) string { return antiAffinityProblem(t, p, h, term) })
	if q, term, ok := t.repelledBy(p, h); ok {
		v.add(RulePodAntiAffinity, i, h.name, "%s on %s %s: pod %s in the same %s domain has a required anti-affinity term that selects it",
			v.podName(i), h.kind(), h.name, q.pod.Key(), term.TopologyKey)
	}
}

// antiAffinityProblem explains why placing p on h breaks term, or returns
// "". A host without the key passes.
func antiAffinityProblem(t *replay, p *packing.Pod, h *host, term packing.PodAffinityTerm) string {
	key := requirements.Normalize(term.TopologyKey)
	d, ok := h.labels[key]
	if !ok {
		return ""
	}
	if n := t.countByDomain(key, termSig(term, p.Namespace), func(q *packing.Pod) bool { return termCounts(term, p.Namespace, q) })[d]; n > 0 {
		return fmt.Sprintf("domain %s already holds %d pods the term selects", d, n)
	}
	return ""
}

// repelledBy returns the first placed pod whose required anti-affinity
// term selects p and shares p's domain on h.
func (t *replay) repelledBy(p *packing.Pod, h *host) (placement, packing.PodAffinityTerm, bool) {
	for _, j := range t.anti {
		q := t.placed[j]
		for _, term := range q.pod.AntiAffinity {
			if isRequired(term) && sameDomain(q.host, h, term.TopologyKey) && termCounts(term, q.pod.Namespace, p) {
				return q, term, true
			}
		}
	}
	return placement{}, packing.PodAffinityTerm{}, false
}

func sameDomain(a, b *host, key string) bool {
	key = requirements.Normalize(key)
	da, ok := a.labels[key]
	db, ok2 := b.labels[key]
	return ok && ok2 && da == db
}
