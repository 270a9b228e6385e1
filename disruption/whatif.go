package disruption

import (
	"context"
	"slices"

	"github.com/nodeplan/nodeplan/internal/vouch"
	"github.com/nodeplan/nodeplan/packing"
	"github.com/nodeplan/nodeplan/requirements"
)

// WhatIf is the cluster as the disruption commands planned so far leave
// it, and the simulation of the next one, the what-if consolidation and
// drift share: take the candidates out of a copy of [WhatIf.Nodes] (each
// package by its own rule: consolidation drops them, drift marks them
// deleted), [WhatIf.Solve] for their pods, then apply the command:
// [WhatIf.Retire] its nodes, [WhatIf.Bind] the pods it moves onto
// existing nodes and [WhatIf.Launch] its replacements as in-flight nodes.
//
// A WhatIf owns its node slice; pod slices are replaced, never changed in
// place, so the nodes it was made from are not modified. Each node the
// caller vouched for (see NewWhatIf) carries its effective labels
// ([packing.Node.EffectiveLabels]), so that solves need not rebuild them;
// the others keep their own, which every solve checks. It keeps, per
// node, the count of its reschedulable pods ([WhatIf.Movable]), and looks
// nodes up by name in O(1). It is not safe for concurrent use. The zero
// WhatIf is not usable: make one with [NewWhatIf].
type WhatIf struct {
	gen     int // changes counted (Generation)
	nodes   []packing.Node
	movable []int           // per node, its reschedulable pods
	byName  map[string]int  // the first node of each name
	hosts   map[string]bool // the hostnames nodes have besides their names
	base    packing.Problem
	vouched vouch.Nodes
	opts    packing.Options
}

// NewWhatIf starts a what-if on a copy of nodes. Every solve is base (its
// NodePools, catalog and daemonsets) with the pods and nodes given to
// Solve, solved with o; v names the nodes the caller validated, which the
// solves then do not check again (packing.SolveVouched). v's type is
// internal to the module: a program outside it passes the zero value, and
// every node is checked.
func NewWhatIf(nodes []packing.Node, base packing.Problem, v vouch.Nodes, o packing.Options) *WhatIf {
	base.Pods, base.Nodes = nil, nil
	w := &WhatIf{nodes: make([]packing.Node, 0, len(nodes)), movable: make([]int, 0, len(nodes)),
		byName: make(map[string]int, len(nodes)), hosts: map[string]bool{}, base: base, vouched: v, opts: o}
	for _, n := range nodes {
		w.Launch(n)
	}
	return w
}

// Nodes returns the nodes as the commands so far leave them, in order:
// the input's, then each launched one. The caller must not modify them.
func (w *WhatIf) Nodes() []packing.Node { return w.nodes }

// Generation counts the what-if's changes (Retire, Bind, Launch): what a
// caller derived from its nodes holds while it stays the same.
func (w *WhatIf) Generation() int { return w.gen }

// Index returns the position of the first node of the name, or -1. O(1).
func (w *WhatIf) Index(name string) int {
	if i, ok := w.byName[name]; ok {
		return i
	}
	return -1
}

// Taken reports whether a node has the name, or has it as its hostname,
// for [ReplacementName]: a replacement's name is its hostname, which must
// be its own. O(1).
func (w *WhatIf) Taken(name string) bool { return w.Index(name) >= 0 || w.hosts[name] }

// Movable returns how many reschedulable pods node i runs
// ([packing.Pod.Reschedulable]). O(1).
func (w *WhatIf) Movable(i int) int { return w.movable[i] }

// Solve solves the base problem with pods pending on nodes (the what-if's
// nodes as the caller reshaped them for the command) and returns the plan.
func (w *WhatIf) Solve(pods []packing.Pod, nodes []packing.Node) (packing.Plan, error) {
	return w.SolveWith(w.opts, pods, nodes)
}

// SolveWith is [WhatIf.Solve] with solver options o instead of the
// what-if's.
func (w *WhatIf) SolveWith(o packing.Options, pods []packing.Pod, nodes []packing.Node) (packing.Plan, error) {
	return w.SolveContext(context.Background(), o, pods, nodes)
}

// SolveContext is [WhatIf.SolveWith] under ctx: once ctx is done the solve
// stops and returns its error, as [packing.SolveContext]. Solves of one
// what-if may run concurrently while no method changes it.
func (w *WhatIf) SolveContext(ctx context.Context, o packing.Options, pods []packing.Pod, nodes []packing.Node) (packing.Plan, error) {
	p := w.base
	p.Pods, p.Nodes = pods, nodes
	return packing.SolveVouched(ctx, w.vouched, p, o)
}

// Retire marks node i for deletion, left with only the pods keep.
func (w *WhatIf) Retire(i int, keep []packing.Pod) {
	w.gen++
	w.nodes[i].MarkedForDeletion, w.nodes[i].Pods, w.movable[i] = true, keep, 0
	w.count(i, keep)
}

// Bind adds pods to node i, after its own.
func (w *WhatIf) Bind(i int, pods ...packing.Pod) {
	w.gen++
	w.nodes[i].Pods = append(slices.Clip(w.nodes[i].Pods), pods...)
	w.count(i, pods)
}

// Launch adds node n after the others: a replacement in flight, or, as
// [NewWhatIf] uses it, one of the cluster's nodes.
func (w *WhatIf) Launch(n packing.Node) {
	w.gen++
	if w.vouched.Has(n.Name) { // validated: every solve then reads its labels as they are
		n.Labels = n.EffectiveLabels()
	}
	if _, dup := w.byName[n.Name]; !dup {
		w.byName[n.Name] = len(w.nodes)
	}
	if h, ok := n.Label(requirements.LabelHostname); ok && h != n.Name {
		w.hosts[h] = true
	}
	w.nodes = append(w.nodes, n)
	w.movable = append(w.movable, 0)
	w.count(len(w.nodes)-1, n.Pods)
}

// count counts the reschedulable pods just added to node i.
func (w *WhatIf) count(i int, pods []packing.Pod) {
	for j := range pods {
		if pods[j].Reschedulable() {
			w.movable[i]++
		}
	}
}
