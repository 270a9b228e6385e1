package disruption

import (
	"fmt"
	"slices"
	"time"

	"github.com/nodeplan/nodeplan/internal/sat"
	"github.com/nodeplan/nodeplan/packing"
	"github.com/nodeplan/nodeplan/packing/verify"
)

// Verifier is the core of a command checker, consolidation's and drift's
// VerifyCommands: the cluster as the commands checked so far leave it, the
// violations found, and the checks every disruption command shares
// (replacement names, the pods on their homes, budget charges). The
// checkers keep their own rules: which nodes a command may take, which
// pods must move, protection, budgets and cost. R is the checker's rule
// enum.
//
// The zero Verifier is not usable: make one with [NewVerifier]. A
// Verifier is not safe for concurrent use. Its methods never panic on
// malformed commands, and never modify the slices it was given: Nodes
// starts as a copy (see [Verifier.ApplyMoves] for who copies it after).
type Verifier[R CommandRule] struct {
	// Nodes is the cluster as the commands so far leave it.
	Nodes []packing.Node
	// Now is the time the commands run at: their replacements launch then.
	Now     time.Time
	pools   map[string]*packing.NodePool
	charged map[string]int
	out     []CommandViolation[R]
}

// NewVerifier starts a checker on a copy of nodes, at now. Its NodePools
// are added with [Verifier.AddPool].
func NewVerifier[R CommandRule](nodes []packing.Node, now time.Time) *Verifier[R] {
	return &Verifier[R]{Nodes: slices.Clone(nodes), Now: now, pools: map[string]*packing.NodePool{}, charged: map[string]int{}}
}

// AddPool makes p a NodePool of the cluster, unless one of its name was
// added before: the first of a name wins.
func (v *Verifier[R]) AddPool(p *packing.NodePool) {
	if v.pools[p.Name] == nil {
		v.pools[p.Name] = p
	}
}

// Pool returns the NodePool of the name, or nil.
func (v *Verifier[R]) Pool(name string) *packing.NodePool { return v.pools[name] }

// Add reports a violation of rule r by command cmd, about the node and
// pod when they are not empty, with the message format formats.
func (v *Verifier[R]) Add(cmd int, r R, node, pod, format string, args ...any) {
	v.out = append(v.out, CommandViolation[R]{Command: cmd, Rule: r, Node: node, Pod: pod, Message: fmt.Sprintf(format, args...)})
}

// Violations returns the violations reported so far, sorted by
// [CompareViolations], each once. The result is the caller's: a later
// Add or Violations does not change it.
func (v *Verifier[R]) Violations() []CommandViolation[R] {
	slices.SortFunc(v.out, CompareViolations[R])
	v.out = slices.Compact(v.out)
	return slices.Clone(v.out)
}

// Index returns the position in Nodes of the first node of the name, or
// -1. The complexity is O(len(Nodes)).
func (v *Verifier[R]) Index(name string) int {
	return slices.IndexFunc(v.Nodes, func(n packing.Node) bool { return n.Name == name })
}

// Unfit says why node j may not be disrupted by a command whatever the
// checker's own rules, or "": it belongs to no NodePool of the cluster, or
// it is already being deleted. j must be an index of Nodes.
func (v *Verifier[R]) Unfit(j int) string {
	switch n := v.Nodes[j]; {
	case v.pools[n.NodePool] == nil:
		return fmt.Sprintf("belongs to no NodePool of the cluster (%q)", n.NodePool)
	case n.MarkedForDeletion:
		return "is already being deleted"
	}
	return ""
}

// Charge counts one more disrupted node of the pool and returns how many
// the commands so far disrupt.
func (v *Verifier[R]) Charge(pool string) int {
	v.charged[pool]++
	return v.charged[pool]
}

// CheckNames reports under rule r, for command cmd, each replacement whose
// name is empty, not a label value, or taken by a node of the cluster
// (candidates and earlier commands' replacements included) or by another
// replacement of the command ([ReplacementNameProblem]).
func (v *Verifier[R]) CheckNames(cmd int, r R, replacements []packing.NodeClaim) {
	seen := map[string]bool{}
	for _, nc := range replacements {
		if why := ReplacementNameProblem(nc.Name, seen[nc.Name] || v.Index(nc.Name) >= 0); why != "" {
			v.Add(cmd, r, nc.Name, "", "%s", why)
		}
		seen[nc.Name] = true
	}
}

// Moves is one command as a packing problem: the cluster the displaced
// pods land on, the pods that have a home, and the plan that puts them
// there, with the command's replacements as its NodeClaims. The zero
// Moves is a command without replacements on an empty problem.
type Moves struct {
	Problem packing.Problem
	Plan    packing.Plan
	claims  map[string]int
}

// NewMoves starts the moves of a command on prob, whose Pods [Moves.Add]
// fills, with the replacements as the plan's claims, their pods cleared
// and their prices summed (saturating, as packing's are).
func NewMoves(prob packing.Problem, replacements []packing.NodeClaim) Moves {
	m := Moves{Problem: prob, claims: make(map[string]int, len(replacements))}
	for _, nc := range replacements {
		nc.Pods = nil
		m.claims[nc.Name] = len(m.Plan.NodeClaims)
		m.Plan.NodeClaims = append(m.Plan.NodeClaims, nc)
		m.Plan.Price = sat.Add(m.Plan.Price, nc.Offering.Price)
	}
	return m
}

// HasClaim reports whether the command has a replacement of the name.
func (m *Moves) HasClaim(name string) bool {
	_, ok := m.claims[name]
	return ok
}

// Add puts pod p on its home: the replacement h.NodeClaim when it is set,
// else the node h.Node, and reports true. The pod is placed after those
// added before. A home on a NodeClaim that is not one of the command's
// replacements ([Moves.HasClaim]) adds nothing and reports false.
func (m *Moves) Add(p packing.Pod, h Home) bool {
	i := len(m.Problem.Pods)
	if h.NodeClaim != "" {
		c, ok := m.claims[h.NodeClaim]
		if !ok {
			return false
		}
		m.Plan.NodeClaims[c].Pods = append(m.Plan.NodeClaims[c].Pods, i)
	} else {
		m.Plan.Bindings = append(m.Plan.Bindings, packing.Binding{Pod: i, Node: h.Node})
	}
	m.Plan.Order = append(m.Plan.Order, i)
	m.Problem.Pods = append(m.Problem.Pods, p)
	return true
}

// CheckMoves reports under rule r, for command cmd, every violation of
// [verify.Moves] by the pods on their homes, carrying its packing
// rule.
func (v *Verifier[R]) CheckMoves(cmd int, r R, m Moves) {
	for _, pv := range verify.Moves(m.Problem, m.Plan) {
		pod := ""
		if pv.Pod >= 0 && pv.Pod < len(m.Problem.Pods) {
			pod = m.Problem.Pods[pv.Pod].Key()
		}
		v.out = append(v.out, CommandViolation[R]{Command: cmd, Rule: r, Packing: pv.Rule, Node: pv.Node, Pod: pod, Message: pv.Message})
	}
}

// ApplyMoves lands the moved pods on Nodes: each bound pod joins its node
// unless that is missing or being deleted, and then bound is called with
// the node's name when it is not nil; each replacement becomes an
// in-flight node launched at Now. The nodes the command empties are the
// checker's to mark; call ApplyMoves after, so no pod lands on them.
// ApplyMoves writes the elements of Nodes in place (a node's pods are
// replaced, not appended to in place): the checker, which replaces Nodes
// with a copy before it marks the command's nodes, owns that copy.
func (v *Verifier[R]) ApplyMoves(m Moves, bound func(node string)) {
	for _, b := range m.Plan.Bindings {
		if j := v.Index(b.Node); j >= 0 && !v.Nodes[j].MarkedForDeletion {
			v.Nodes[j].Pods = append(slices.Clip(v.Nodes[j].Pods), m.Problem.Pods[b.Pod])
			if bound != nil {
				bound(b.Node)
			}
		}
	}
	for _, nc := range m.Plan.NodeClaims {
		v.Nodes = append(v.Nodes, m.Problem.Launched(nc, v.Now))
	}
}
