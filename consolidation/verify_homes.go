package consolidation

import (
	"slices"

	"github.com/nodeplan/nodeplan/disruption"
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
// home on the cluster without the candidates, and the plan that puts them
// where the homes say.
type homes struct {
	disruption.Moves
	cands []int
	moved []displacedPod // the pods of the problem, in order
}

// homes collects the displaced pods, checks that each has one home, and
// builds the problem and plan for verify.Moves.
func (v *cmdVerifier) homes(i int, cmd Command, cands []int) homes {
	pods := v.displaced(cands)
	v.assign(i, cmd, pods)
	h := homes{Moves: disruption.NewMoves(v.problem(cands), cmd.Replacements), cands: cands}
	for _, d := range byHome(cmd, pods) {
		v.place(i, &h, d)
	}
	return h
}

// byHome returns the pods that have a home in the order of their first
// home in cmd.Homes, the order the topology is replayed in: Plan lists
// Homes in its solve's placement order, which keeps every topology
// constraint at each step.
func byHome(cmd Command, pods []displacedPod) []displacedPod {
	first := make(map[disruption.PodRef]int, len(cmd.Homes))
	for k := len(cmd.Homes) - 1; k >= 0; k-- {
		first[cmd.Homes[k].Pod] = k
	}
	out := slices.DeleteFunc(slices.Clone(pods), func(d displacedPod) bool { return len(d.placed) == 0 })
	slices.SortStableFunc(out, func(a, b displacedPod) int {
		return first[disruption.Ref(&a.pod)] - first[disruption.Ref(&b.pod)]
	})
	return out
}

// displaced lists the reschedulable pods of the candidates (which must
// move) and of nodes already being deleted (which may).
func (v *cmdVerifier) displaced(cands []int) []displacedPod {
	var out []displacedPod
	for j, n := range v.Nodes {
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

// assign gives each displaced pod its homes and reports homes of unknown
// pods, required pods without one and pods with several.
func (v *cmdVerifier) assign(i int, cmd Command, pods []displacedPod) {
	for _, pl := range cmd.Homes {
		k := slices.IndexFunc(pods, func(d displacedPod) bool { return disruption.Ref(&d.pod) == pl.Pod })
		if k < 0 {
			v.Add(i, RuleHomes, pl.Node+pl.NodeClaim, pl.Pod.String(), "home of pod %s: no candidate or deleting node runs such a reschedulable pod", pl.Pod)
			continue
		}
		pods[k].placed = append(pods[k].placed, pl)
	}
	for _, d := range pods {
		name := d.pod.Key()
		switch {
		case len(d.placed) == 0 && d.required:
			v.Add(i, RuleHomes, v.Nodes[d.from].Name, name, "pod %s on candidate %s has no home", name, v.Nodes[d.from].Name)
		case len(d.placed) > 1:
			v.Add(i, RuleHomes, v.Nodes[d.from].Name, name, "pod %s has %d homes; it needs exactly one", name, len(d.placed))
		}
	}
}

// problem is the cluster without the candidates: the other nodes keep
// their pods, except the displaced pods of deleting nodes, which the plan
// places.
func (v *cmdVerifier) problem(cands []int) packing.Problem {
	p := packing.Problem{NodePools: v.c.NodePools, Catalog: v.c.Catalog, DaemonSets: v.c.DaemonSets}
	for j, n := range v.Nodes {
		if slices.Contains(cands, j) {
			continue
		}
		if n.MarkedForDeletion {
			n.Pods = disruption.Staying(n.Pods)
		}
		n.Settling = v.c.settling(&n, v.Pool(n.NodePool))
		p.Nodes = append(p.Nodes, n)
	}
	return p
}

// place adds pod d to the problem on its first home, reporting malformed
// homes and uninitialized targets.
func (v *cmdVerifier) place(i int, h *homes, d displacedPod) {
	pl, name := d.placed[0], d.pod.Key()
	switch {
	case (pl.Node == "") == (pl.NodeClaim == ""):
		v.Add(i, RuleHomes, pl.Node+pl.NodeClaim, name, "home of pod %s must name exactly one of a node and a claim", name)
		return
	case pl.NodeClaim != "" && !h.HasClaim(pl.NodeClaim):
		v.Add(i, RuleHomes, pl.NodeClaim, name, "pod %s is sent to claim %s, which is not a replacement of the command", name, pl.NodeClaim)
		return
	case pl.NodeClaim == "":
		if j := v.Index(pl.Node); j >= 0 && !v.Nodes[j].Initialized {
			v.Add(i, RuleUninitialized, pl.Node, name, "pod %s is placed on node %s, which is not initialized", name, pl.Node)
		}
	}
	d.pod.Displaced = d.required
	h.Add(d.pod, pl)
	h.moved = append(h.moved, d)
}

// apply executes the command on the verifier's cluster: the candidates are
// marked for deletion and keep only the pods that are not reschedulable,
// the placed pods leave their nodes and join their homes, and the
// replacements become in-flight nodes.
func (v *cmdVerifier) apply(cands []int, h homes) {
	v.Nodes = slices.Clone(v.Nodes)
	for _, j := range cands {
		v.Nodes[j].MarkedForDeletion = true
	}
	for _, d := range h.moved {
		n, ref := &v.Nodes[d.from], disruption.Ref(&d.pod)
		n.Pods = slices.DeleteFunc(slices.Clone(n.Pods), func(q packing.Pod) bool { return disruption.Ref(&q) == ref })
	}
	for _, j := range cands {
		v.Nodes[j].Pods = disruption.Staying(v.Nodes[j].Pods)
	}
	v.ApplyMoves(h.Moves, func(node string) { v.c.LastPodEvent[node] = v.Now })
}
