package consolidation

import (
	"slices"

	"github.com/nodeplan/nodeplan/disruption"
	"github.com/nodeplan/nodeplan/internal/sat"
	"github.com/nodeplan/nodeplan/packing"
)

// displacedPod is a pod a command moves: where it was and whether it must
// move (a candidate's) or may (a deleting node's).
type displacedPod struct {
	pod      packing.Pod
	from     int
	required bool
	placed   []disruption.Home
}

// homes is a command as a packing problem: the displaced pods that have a
// placement on the cluster without the candidates, and the plan that puts
// them where the placements say.
type homes struct {
	cands []int
	moved []displacedPod // the pods of prob, in order
	prob  packing.Problem
	plan  packing.Plan
}

// homes collects the displaced pods, checks that each has one placement,
// and builds the problem and plan for packing.Verify.
func (v *cmdVerifier) homes(i int, cmd Command, cands []int) homes {
	pods := v.displaced(cands)
	v.assign(i, cmd, pods)
	h := homes{cands: cands, prob: v.problem(cands)}
	claims := map[string]int{}
	for _, nc := range cmd.Replacements {
		nc.Pods = nil
		claims[nc.Name] = len(h.plan.NodeClaims)
		h.plan.NodeClaims = append(h.plan.NodeClaims, nc)
		h.plan.Price = sat.Add(h.plan.Price, nc.Offering.Price)
	}
	for _, d := range pods {
		if len(d.placed) > 0 {
			v.place(i, &h, d, claims)
		}
	}
	return h
}

// displaced lists the reschedulable pods of the candidates (which must
// move) and of nodes already being deleted (which may).
func (v *cmdVerifier) displaced(cands []int) []displacedPod {
	var out []displacedPod
	for j, n := range v.nodes {
		cand := slices.Contains(cands, j)
		if !cand && !n.MarkedForDeletion {
			continue
		}
		for _, p := range n.Pods {
			if p.Reschedulable() {
				out = append(out, displacedPod{pod: p, from: j, required: cand})
			}
		}
	}
	return out
}

// assign gives each displaced pod its placements and reports placements of
// unknown pods, required pods without one and pods with several.
func (v *cmdVerifier) assign(i int, cmd Command, pods []displacedPod) {
	for _, pl := range cmd.Homes {
		k := slices.IndexFunc(pods, func(d displacedPod) bool { return disruption.Ref(&d.pod) == pl.Pod })
		if k < 0 {
			v.add(i, RulePlacement, pl.Node+pl.NodeClaim, pl.Pod.String(), "placement of pod %s: no candidate or deleting node runs such a reschedulable pod", pl.Pod)
			continue
		}
		pods[k].placed = append(pods[k].placed, pl)
	}
	for _, d := range pods {
		name := d.pod.Key()
		switch {
		case len(d.placed) == 0 && d.required:
			v.add(i, RulePlacement, v.nodes[d.from].Name, name, "pod %s on candidate %s has no placement", name, v.nodes[d.from].Name)
		case len(d.placed) > 1:
			v.add(i, RulePlacement, v.nodes[d.from].Name, name, "pod %s has %d placements; it needs exactly one", name, len(d.placed))
		}
	}
}

// problem is the cluster without the candidates: the other nodes keep
// their pods, except the displaced pods of deleting nodes, which the plan
// places.
func (v *cmdVerifier) problem(cands []int) packing.Problem {
	p := packing.Problem{NodePools: v.c.NodePools, Catalog: v.c.Catalog, DaemonSets: v.c.DaemonSets}
	for j, n := range v.nodes {
		if slices.Contains(cands, j) {
			continue
		}
		if n.MarkedForDeletion {
			n.Pods = staying(n.Pods)
		}
		n.Settling = v.c.settling(&n, v.pools)
		p.Nodes = append(p.Nodes, n)
	}
	return p
}

// place adds pod d to the problem and binds it where its first placement
// says, reporting malformed placements and uninitialized targets.
func (v *cmdVerifier) place(i int, h *homes, d displacedPod, claims map[string]int) {
	pl, name := d.placed[0], d.pod.Key()
	switch {
	case (pl.Node == "") == (pl.NodeClaim == ""):
		v.add(i, RulePlacement, pl.Node+pl.NodeClaim, name, "placement of pod %s must name exactly one of a node and a claim", name)
		return
	case pl.NodeClaim != "":
		c, ok := claims[pl.NodeClaim]
		if !ok {
			v.add(i, RulePlacement, pl.NodeClaim, name, "pod %s is placed on claim %s, which is not a replacement of the command", name, pl.NodeClaim)
			return
		}
		h.plan.NodeClaims[c].Pods = append(h.plan.NodeClaims[c].Pods, len(h.prob.Pods))
	default:
		if j := v.nodeIndex(pl.Node); j >= 0 && !v.nodes[j].Initialized {
			v.add(i, RuleUninitialized, pl.Node, name, "pod %s is placed on node %s, which is not initialized", name, pl.Node)
		}
		h.plan.Bindings = append(h.plan.Bindings, packing.Binding{Pod: len(h.prob.Pods), Node: pl.Node})
	}
	h.plan.Order = append(h.plan.Order, len(h.prob.Pods))
	d.pod.Displaced = d.required
	h.prob.Pods = append(h.prob.Pods, d.pod)
	h.moved = append(h.moved, d)
}

// checkHomes runs packing.Verify on the command's problem and plan.
func (v *cmdVerifier) checkHomes(i int, h homes) {
	for _, pv := range packing.VerifyMoves(h.prob, h.plan) {
		pod := ""
		if pv.Pod >= 0 && pv.Pod < len(h.prob.Pods) {
			pod = h.prob.Pods[pv.Pod].Key()
		}
		v.out = append(v.out, Violation{Command: i, Rule: RuleHome, Packing: pv.Rule, Node: pv.Node, Pod: pod, Message: pv.Message})
	}
}

// apply executes the command on the verifier's cluster: the candidates are
// marked for deletion and keep only the pods that are not reschedulable,
// the placed pods leave their nodes and join their homes, and the
// replacements become in-flight nodes.
func (v *cmdVerifier) apply(cands []int, h homes) {
	v.nodes = slices.Clone(v.nodes)
	for _, j := range cands {
		v.nodes[j].MarkedForDeletion = true
	}
	for _, d := range h.moved {
		n := &v.nodes[d.from]
		n.Pods = slices.DeleteFunc(slices.Clone(n.Pods), func(q packing.Pod) bool { return q.Key() == d.pod.Key() })
	}
	for _, j := range cands {
		v.nodes[j].Pods = staying(v.nodes[j].Pods)
	}
	for _, b := range h.plan.Bindings {
		if j := v.nodeIndex(b.Node); j >= 0 && !v.nodes[j].MarkedForDeletion {
			v.nodes[j].Pods = append(slices.Clip(v.nodes[j].Pods), h.prob.Pods[b.Pod])
			v.c.LastPodEvent[b.Node] = v.c.Now
		}
	}
	for _, nc := range h.plan.NodeClaims {
		v.nodes = append(v.nodes, h.prob.Launched(nc, v.c.Now))
	}
}
