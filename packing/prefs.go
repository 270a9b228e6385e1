package packing

import (
	"cmp"
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"

	"github.com/nodeplan/nodeplan/instancetypes"
	"github.com/nodeplan/nodeplan/internal/enum"
	"github.com/nodeplan/nodeplan/requirements"
)

// PreferencePolicy is what Solve does with the pending pods' preferred
// terms: preferred node affinity, preferred pod affinity and anti-affinity,
// and ScheduleAnyway topology spreads. The zero value is
// RespectPreferences, Karpenter's default.
type PreferencePolicy uint8

const (
	// RespectPreferences is Karpenter's policy Respect: every preferred
	// term is treated as required at first, and a pod that fits nowhere
	// has its terms relaxed one at a time until it fits.
	RespectPreferences PreferencePolicy = iota
	// IgnorePreferences is Karpenter's policy Ignore: every preferred term
	// is dropped up front.
	IgnorePreferences
	// BudgetPreferences honours preferred terms while the plan's Price
	// (without Options.NodeOverhead) stays within Options.PreferenceBudget
	// of the plan that ignores them all, and the plan leaves no more pods
	// out than that one, relaxing the dearest terms first, and reports in
	// Plan.Preferences what each term adds to the price. Each step is a
	// full solve: at most 64 decide and 64 more measure the report (see
	// the package doc). Karpenter has no such policy.
	BudgetPreferences
)

var preferencePolicyNames = [...]string{"Respect", "Ignore", "Budget"}

// String returns the policy's name: Respect, Ignore or Budget.
func (p PreferencePolicy) String() string {
	return enum.String(p, "PreferencePolicy", preferencePolicyNames[:])
}

// PreferenceKind is the kind of a preferred term.
type PreferenceKind uint8

const (
	// PreferredNodeAffinity is a preferred node-affinity term.
	PreferredNodeAffinity PreferenceKind = iota
	// PreferredPodAffinity is a preferred pod-affinity term.
	PreferredPodAffinity
	// PreferredPodAntiAffinity is a preferred pod anti-affinity term.
	PreferredPodAntiAffinity
	// ScheduleAnywaySpread is a topology spread with WhenUnsatisfiable
	// ScheduleAnyway.
	ScheduleAnywaySpread
)

var preferenceKindNames = [...]string{"PreferredNodeAffinity", "PreferredPodAffinity",
	"PreferredPodAntiAffinity", "ScheduleAnywaySpread"}

// String returns the kind's name.
func (k PreferenceKind) String() string {
	return enum.String(k, "PreferenceKind", preferenceKindNames[:])
}

// PreferenceTerm is one preferred term as the pending pods of one owner
// share it: pods of the same Namespace and Owner with the same Kind,
// Weight and Term are one PreferenceTerm, honoured or relaxed together.
// It is comparable; the zero value is a preferred node-affinity term of
// weight 0 that no pod has.
type PreferenceTerm struct {
	Kind PreferenceKind
	// Namespace and Owner are the pods' (Owner "" for pods without one).
	Namespace, Owner string
	// Weight is the term's weight, 1 to 100; 0 for a spread.
	Weight int32
	// Term is the term itself, readable: the node requirements of a node
	// affinity term; the topology key, selector and namespaces of a pod
	// (anti-)affinity term; the maxSkew, topology key, selector and
	// namespace of a spread.
	Term string
}

// String returns the term in one line, as "ReplicaSet shop/web:
// PreferredPodAntiAffinity weight 100: topologyKey …" (see
// [PreferenceTerm.Label]).
func (t PreferenceTerm) String() string {
	return fmt.Sprintf("%s: %s weight %d: %s", t.Label(), t.Kind, t.Weight, t.Term)
}

// Label names the term's pods by their owner: "ReplicaSet shop/web", or
// "shop (no owner)" for pods without one.
func (t PreferenceTerm) Label() string {
	kind, name, ok := strings.Cut(t.Owner, "/")
	switch {
	case ok:
		return kind + " " + ObjectKey(t.Namespace, name)
	case t.Owner != "":
		return t.Owner + " in " + t.Namespace
	}
	return t.Namespace + " (no owner)"
}

// PreferenceCost is what honouring one preferred term adds to a plan's
// price, under BudgetPreferences: the price of the plan with the term
// honoured less the price with it relaxed up front, every other term
// honoured or relaxed as Solve decided. It may be negative (a greedy
// packing is not monotone) or zero (the term costs nothing).
type PreferenceCost struct {
	Term PreferenceTerm
	// Pods is how many pending pods have the term.
	Pods int
	// Honoured says whether the plan honours the term (as Respect does:
	// a pod that fits nowhere still has it relaxed).
	Honoured bool
	// Measured is false when Solve reached its cap on solves (see
	// Options.Preferences) before it could measure the term's cost; Cost
	// is then 0.
	Measured bool
	// Cost is the price difference, per hour, honoured less relaxed.
	Cost instancetypes.Price
}

// validatePreferences reports the invalid preference options.
func (o Options) validatePreferences() []error {
	var errs []error
	bad := func(name, format string, args ...any) {
		errs = append(errs, fmt.Errorf("%w: %s: %s", ErrInvalidOptions, name, fmt.Sprintf(format, args...)))
	}
	f := o.PreferenceBudget
	switch {
	case o.Preferences > BudgetPreferences:
		bad("Preferences", "%d is not RespectPreferences, IgnorePreferences or BudgetPreferences", uint8(o.Preferences))
	case math.IsNaN(f) || math.IsInf(f, 0) || f < 0:
		bad("PreferenceBudget", "%v is not a non-negative fraction", f)
	case f != 0 && o.Preferences != BudgetPreferences:
		bad("PreferenceBudget", "%v is set but Preferences is %s; it applies to BudgetPreferences only", f, o.Preferences)
	}
	return errs
}

// preferred returns the preferred node-affinity terms that pod p keeps in
// this solve.
func (s *static) preferred(p *Pod) []requirements.Preference {
	switch {
	case s.opts.Preferences == IgnorePreferences:
		return nil
	case s.drop == nil:
		return p.NodeAffinity.Preferred
	}
	var out []requirements.Preference
	for _, pr := range p.NodeAffinity.Preferred {
		if !s.drop[nodeTerm(p, pr)] {
			out = append(out, pr)
		}
	}
	return out
}

// keepsSpread reports whether pod p keeps its ScheduleAnyway spread ts in
// this solve.
func (s *static) keepsSpread(p *Pod, ts TopologySpread) bool {
	return s.keeps(func() PreferenceTerm { return spreadTerm(p, ts) })
}

// keepsTerm reports whether pod p keeps its preferred pod (anti-)affinity
// term t in this solve.
func (s *static) keepsTerm(p *Pod, t PodAffinityTerm, kind conKind) bool {
	return s.keeps(func() PreferenceTerm { return podTerm(p, t, kind) })
}

// keeps reports whether the term is kept; term is called only when some
// terms are dropped one by one.
func (s *static) keeps(term func() PreferenceTerm) bool {
	switch {
	case s.opts.Preferences == IgnorePreferences:
		return false
	case s.drop == nil:
		return true
	}
	return !s.drop[term()]
}

func nodeTerm(p *Pod, pr requirements.Preference) PreferenceTerm {
	return PreferenceTerm{Kind: PreferredNodeAffinity, Namespace: p.Namespace, Owner: p.Owner, Weight: pr.Weight,
		Term: fmt.Sprintf("%+v", pr.Terms)} // every value: the text tells terms apart
}

func podTerm(p *Pod, t PodAffinityTerm, kind conKind) PreferenceTerm {
	k := PreferredPodAffinity
	if kind == antiKind {
		k = PreferredPodAntiAffinity
	}
	c := antiCounter(p, t)
	return PreferenceTerm{Kind: k, Namespace: p.Namespace, Owner: p.Owner, Weight: t.Weight, Term: c.describe()}
}

func spreadTerm(p *Pod, ts TopologySpread) PreferenceTerm {
	c := spreadCounter(p, ts)
	return PreferenceTerm{Kind: ScheduleAnywaySpread, Namespace: p.Namespace, Owner: p.Owner,
		Term: fmt.Sprintf("maxSkew %d, %s", max(ts.MaxSkew, 1), c.describe())}
}

// describe is the counter in words.
func (c *counterDef) describe() string {
	ns := "namespace " + strings.Join(c.ns, ",")
	if c.allNS {
		ns = "every namespace"
	}
	sel := fmt.Sprintf("%+v", c.selector) // every value, as it also tells terms apart
	if sel == "" {
		sel = "every pod"
	}
	return fmt.Sprintf("topologyKey %s, selector %s, %s", c.key, sel, ns)
}

// termsOf returns the preferred terms of pod p, each once, in the order
// compilePod meets them.
func termsOf(p *Pod) []PreferenceTerm {
	var out []PreferenceTerm
	add := func(t PreferenceTerm) {
		if !slices.Contains(out, t) {
			out = append(out, t)
		}
	}
	for _, pr := range p.NodeAffinity.Preferred {
		add(nodeTerm(p, pr))
	}
	for _, ts := range p.TopologySpread {
		if ts.WhenUnsatisfiable == ScheduleAnyway {
			add(spreadTerm(p, ts))
		}
	}
	for _, t := range p.Affinity {
		if t.Weight > 0 {
			add(podTerm(p, t, affinityKind))
		}
	}
	for _, t := range p.AntiAffinity {
		if t.Weight > 0 {
			add(podTerm(p, t, antiKind))
		}
	}
	return out
}

// preferenceTerms returns the preferred terms of p's pending pods, each
// once, ordered by kind, namespace, owner, weight (heavier first) and
// term, with how many pods have each.
func preferenceTerms(p *Problem) ([]PreferenceTerm, []int) {
	count := map[PreferenceTerm]int{}
	for i := range p.Pods {
		for _, t := range termsOf(&p.Pods[i]) {
			count[t]++
		}
	}
	terms := slices.SortedFunc(maps.Keys(count), comparePreferenceTerms)
	pods := make([]int, len(terms))
	for i, t := range terms {
		pods[i] = count[t]
	}
	return terms, pods
}

func comparePreferenceTerms(a, b PreferenceTerm) int {
	return cmp.Or(cmp.Compare(a.Kind, b.Kind), cmp.Compare(a.Namespace, b.Namespace), cmp.Compare(a.Owner, b.Owner),
		cmp.Compare(b.Weight, a.Weight), cmp.Compare(a.Term, b.Term))
}
