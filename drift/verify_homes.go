package drift

import (
	"slices"

	"github.com/nodeplan/nodeplan/disruption"
	"github.com/nodeplan/nodeplan/packing"
)

// homes checks that each pod of node j has one home and builds the
// command's moves for verify.Moves: the pods that have a home, on
// the cluster with the node marked for deletion and emptied.
func (v *cmdVerifier) homes(i int, cmd Command, j int) disruption.Moves {
	pods := disruption.Movable(v.Nodes[j].Pods)
	found := v.matchHomes(i, cmd, pods)
	prob := packing.Problem{NodePools: v.templatePools(), Catalog: v.c.Catalog, DaemonSets: v.c.DaemonSets,
		Nodes: slices.Clone(v.Nodes)}
	prob.Nodes[j].MarkedForDeletion, prob.Nodes[j].Pods = true, nil
	m := disruption.NewMoves(prob, cmd.Replacements)
	for k, p := range pods {
		if len(found[k]) > 0 {
			v.house(i, cmd, &m, p, found[k][0])
		}
	}
	return m
}

func (v *cmdVerifier) templatePools() []packing.NodePool {
	out := make([]packing.NodePool, len(v.c.NodePools))
	for i, t := range v.c.NodePools {
		out[i] = t.NodePool
	}
	return out
}

// matchHomes returns each pod's homes, reporting homes of unknown pods and
// pods with none or several.
func (v *cmdVerifier) matchHomes(i int, cmd Command, pods []packing.Pod) [][]disruption.Home {
	found := make([][]disruption.Home, len(pods))
	for _, hm := range cmd.Homes {
		k := slices.IndexFunc(pods, func(p packing.Pod) bool { return disruption.Ref(&p) == hm.Pod })
		if k < 0 {
			v.Add(i, RuleHomes, cmd.Node, hm.Pod.String(), "a home is given for pod %s, which is not a reschedulable pod of node %s", hm.Pod, cmd.Node)
			continue
		}
		found[k] = append(found[k], hm)
	}
	for k, p := range pods {
		if n := len(found[k]); n != 1 {
			v.Add(i, RuleHomes, cmd.Node, p.Key(), "pod %s of node %s has %d homes; it needs exactly one", p.Key(), cmd.Node, n)
		}
	}
	return found
}

// house adds pod p to the moves on its home, reporting malformed homes.
func (v *cmdVerifier) house(i int, cmd Command, m *disruption.Moves, p packing.Pod, hm disruption.Home) {
	name, set := p.Key(), boolCount(hm.Node != "", hm.NodeClaim != "", hm.Unschedulable != "")
	switch {
	case set != 1:
		v.Add(i, RuleHomes, cmd.Node, name, "the home of pod %s must set exactly one of Node, NodeClaim and Unschedulable", name)
		return
	case hm.Unschedulable != "":
		if !cmd.Forceful {
			v.Add(i, RuleHomes, cmd.Node, name, "pod %s has no home (%s), but the command is budgeted", name, hm.Unschedulable)
		}
		return
	case hm.NodeClaim != "" && !m.HasClaim(hm.NodeClaim):
		v.Add(i, RuleHomes, hm.NodeClaim, name, "pod %s is sent to claim %s, which is not a replacement of the command", name, hm.NodeClaim)
		return
	case hm.NodeClaim == "":
		if j := v.Index(hm.Node); j >= 0 && !v.Nodes[j].Initialized && !cmd.Forceful {
			v.Add(i, RuleUninitialized, hm.Node, name, "pod %s is sent to node %s, which is not initialized", name, hm.Node)
		}
	}
	m.Add(p, hm)
}

func boolCount(bs ...bool) int {
	n := 0
	for _, b := range bs {
		if b {
			n++
		}
	}
	return n
}

// apply executes the command: node j is marked for deletion and emptied,
// the homed pods join their nodes and the replacements become in-flight
// nodes.
func (v *cmdVerifier) apply(j int, m disruption.Moves) {
	v.Nodes = slices.Clone(v.Nodes)
	v.Nodes[j].MarkedForDeletion, v.Nodes[j].Pods = true, nil
	v.ApplyMoves(m, nil)
}
