package static

import (
	"cmp"
	"fmt"
	"maps"
	"math"
	"slices"
	"time"

	"github.com/nodeplan/nodeplan/disruption"
	"github.com/nodeplan/nodeplan/internal/enum"
	"github.com/nodeplan/nodeplan/packing"
)

// Rule is a rule of static pools that [Verify] checks.
type Rule uint8

const (
	// Decided: every pool has exactly one Decision, and no Decision names
	// a pool that is not in the input.
	Decided Rule = iota
	// WithinLimit: the NodeClaims a Decision adds (Create and Replace)
	// keep the pool within limits.nodes, deleting ones counted.
	WithinLimit
	// CreateWarranted: a pool creates NodeClaims only when it is Ready,
	// not being deleted, and active + pending disruption is below
	// replicas, and at most replicas − active.
	CreateWarranted
	// RemoveExact: a pool not being deleted removes exactly active −
	// replicas distinct NodeClaims of its own that are not deleting, when
	// positive; none otherwise; the first of Karpenter's order: unresolved
	// ones, then empty nodes, then occupied ones without an active
	// do-not-disrupt pod, then those with one, each by cost × lifetime
	// remaining, ties by name.
	RemoveExact
	// ReplaceDrifted: a pool replaces only distinct drifted, resolved,
	// initialized NodeClaims of its own that are neither deleting nor
	// pending disruption, at most its Drifted budget, and none while
	// active + pending disruption exceed replicas.
	ReplaceDrifted
)

var ruleNames = [...]string{"Decided", "WithinLimit", "CreateWarranted", "RemoveExact", "ReplaceDrifted"}

// String returns the rule's name, e.g. "WithinLimit".
func (r Rule) String() string { return enum.String(r, "Rule", ruleNames[:]) }

// Violation is a rule a Result breaks for one pool.
type Violation struct {
	NodePool string
	Rule     Rule
	// Message is a sentence for people.
	Message string
}

// Verify checks res against in, independently of [Decide]: it counts the
// NodeClaims again and checks each [Rule]; it returns nil for a Result
// that keeps every rule. Verify reads only in and res, which it does not
// modify; it assumes in is valid (Decide accepts it). The complexity is
// O(pools × claims).
func Verify(in Input, res Result) []Violation {
	var out []Violation
	seen := map[string]int{}
	for _, d := range res.Pools {
		seen[d.NodePool]++
	}
	for _, p := range in.Pools {
		if seen[p.NodePool.Name] != 1 {
			out = append(out, Violation{p.NodePool.Name, Decided, fmt.Sprintf("%d decisions", seen[p.NodePool.Name])})
		}
		delete(seen, p.NodePool.Name)
	}
	for _, name := range slices.Sorted(maps.Keys(seen)) {
		out = append(out, Violation{name, Decided, "a decision for a pool not in the input"})
	}
	for _, d := range res.Pools {
		if p, ok := findPool(in.Pools, d.NodePool); ok {
			out = append(out, verifyPool(in, p, d)...)
		}
	}
	return out
}

func findPool(pools []Pool, name string) (Pool, bool) {
	for _, p := range pools {
		if p.NodePool.Name == name {
			return p, true
		}
	}
	return Pool{}, false
}

// tally is a pool's NodeClaims counted for Verify.
type tally struct {
	claims                    map[string]Claim
	active, deleting, pending int
}

func tallyOf(in Input, pool string) tally {
	t := tally{claims: map[string]Claim{}}
	for _, c := range in.Claims {
		if c.NodePool != pool {
			continue
		}
		t.claims[c.Name] = c
		switch {
		case c.Deleting || c.Node.MarkedForDeletion:
			t.deleting++
		case c.PendingDisruption:
			t.pending++
		default:
			t.active++
		}
	}
	return t
}

func verifyPool(in Input, p Pool, d Decision) []Violation {
	t := tallyOf(in, p.NodePool.Name)
	var out []Violation
	bad := func(r Rule, format string, args ...any) {
		out = append(out, Violation{p.NodePool.Name, r, fmt.Sprintf(format, args...)})
	}
	limit := int64(math.MaxInt64)
	if v, ok := p.NodePool.Limits[packing.LimitNodes]; ok {
		limit = v
	}
	if added := int64(d.Create + len(d.Replace)); added > 0 && int64(t.active+t.deleting+t.pending)+added > limit {
		bad(WithinLimit, "%d NodeClaims added to %d take it past limits.nodes %d", added, t.active+t.deleting+t.pending, limit)
	}
	if d.Create > 0 && (p.Deleting || p.NotReady != "" || int64(t.active+t.pending) >= p.Replicas || int64(t.active+d.Create) > p.Replicas) {
		bad(CreateWarranted, "creates %d with %d active, %d pending disruption, %d replicas", d.Create, t.active, t.pending, p.Replicas)
	}
	verifyRemove(p, d, t, in.Now, bad)
	verifyReplace(in, p, d, t, bad)
	return out
}

// verifyRemove checks the count and each removal's claim, then, when
// those hold, that the removals are the first of [removalOrder].
func verifyRemove(p Pool, d Decision, t tally, now time.Time, bad func(Rule, string, ...any)) {
	want := 0
	if !p.Deleting && int64(t.active) > p.Replicas {
		want = t.active - int(p.Replicas)
	}
	ok := len(d.Remove) == want
	if !ok {
		bad(RemoveExact, "removes %d, want %d", len(d.Remove), want)
	}
	seen := map[string]bool{}
	last := Unresolved
	for _, r := range d.Remove {
		c, found := t.claims[r.Claim]
		switch {
		case !found || seen[r.Claim] || c.Deleting || c.Node.MarkedForDeletion:
			bad(RemoveExact, "removes %s: not a distinct NodeClaim of the pool that is not deleting", r.Claim)
			ok = false
		case (r.Kind == Unresolved) != !c.Resolved || r.Kind < last:
			bad(RemoveExact, "removes %s as %s after %s", r.Claim, r.Kind, last)
			ok = false
		}
		seen[r.Claim], last = true, max(last, r.Kind)
	}
	if ok {
		verifyRemoveOrder(d.Remove, removalOrder(p, t, now), bad)
	}
}

// verifyRemoveOrder reports the first removal that is not the one order
// puts at its place.
func verifyRemoveOrder(got, order []Removal, bad func(Rule, string, ...any)) {
	for i, r := range got {
		if w := order[i]; r.Claim != w.Claim || r.Kind != w.Kind || r.DoNotDisrupt != w.DoNotDisrupt {
			bad(RemoveExact, "removal %d is %s (%s, do-not-disrupt %t), want %s (%s, do-not-disrupt %t)",
				i, r.Claim, r.Kind, r.DoNotDisrupt, w.Claim, w.Kind, w.DoNotDisrupt)
			return
		}
	}
}

// removalOrder recomputes, apart from Decide, the order in which the
// pool's NodeClaims that are not deleting go: by kind (unresolved, empty,
// occupied), then occupied nodes without an active do-not-disrupt pod
// (terminating or not) first, then cost × lifetime remaining ascending,
// then name.
func removalOrder(p Pool, t tally, now time.Time) []Removal {
	var out []Removal
	for _, name := range slices.Sorted(maps.Keys(t.claims)) {
		c := t.claims[name]
		if c.Deleting || c.Node.MarkedForDeletion {
			continue
		}
		r := Removal{Claim: name, Kind: Unresolved}
		if c.Resolved {
			r.Kind, r.DoNotDisrupt = classify(c.Node.Pods, now)
		}
		if r.Kind == Occupied {
			r.Cost = disruption.EvictionCost(c.Node.Pods) * disruption.LifetimeRemaining(c.Node, p.NodePool, now)
		}
		out = append(out, r)
	}
	slices.SortStableFunc(out, func(a, b Removal) int {
		return cmp.Or(cmp.Compare(a.Kind, b.Kind), cmp.Compare(b2i(a.DoNotDisrupt), b2i(b.DoNotDisrupt)),
			cmp.Compare(a.Cost, b.Cost), cmp.Compare(a.Claim, b.Claim))
	})
	return out
}

// classify is a resolved node's kind from its pods and, when occupied,
// whether one of them has an active do-not-disrupt: Karpenter's static
// emptiness and ordering (controllers/static/deprovisioning/
// controller.go:250-295, IsDoNotDisruptActive: no terminating exemption).
func classify(pods []packing.Pod, now time.Time) (RemovalKind, bool) {
	daemons, dnd := true, false
	for i := range pods {
		daemons = daemons && pods[i].IsDaemon()
		active, _ := disruption.DoNotDisruptActive(pods[i], now)
		dnd = dnd || active
	}
	if daemons && !dnd {
		return Empty, false
	}
	return Occupied, dnd
}

// b2i is 1 for true, 0 for false.
func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

func verifyReplace(in Input, p Pool, d Decision, t tally, bad func(Rule, string, ...any)) {
	if len(d.Replace) == 0 {
		return
	}
	if int64(t.active+t.pending) > p.Replicas {
		bad(ReplaceDrifted, "replaces %d while over replicas", len(d.Replace))
	}
	var nodes []packing.Node
	for _, c := range t.claims {
		if c.Resolved {
			n := c.Node
			n.NodePool, n.MarkedForDeletion = p.NodePool.Name, c.Deleting || c.Node.MarkedForDeletion
			nodes = append(nodes, n)
		}
	}
	if budget, err := disruption.AllowedDisruptions(p.NodePool, nodes, disruption.Drifted, in.Now); err != nil || len(d.Replace) > budget {
		bad(ReplaceDrifted, "replaces %d, over the Drifted budget %d (%v)", len(d.Replace), budget, err)
	}
	seen := map[string]bool{}
	for _, r := range d.Replace {
		c, ok := t.claims[r.Candidate]
		if !ok || seen[r.Candidate] || !c.Drifted || !c.Resolved || !c.Node.Initialized || c.Deleting || c.Node.MarkedForDeletion || c.PendingDisruption {
			bad(ReplaceDrifted, "replaces %s: not a distinct drifted, launched NodeClaim of the pool at rest", r.Candidate)
		}
		seen[r.Candidate] = true
	}
}
