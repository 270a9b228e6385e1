package drift

import (
	"slices"

	"github.com/nodeplan/nodeplan/disruption"
	"github.com/nodeplan/nodeplan/internal/sat"
	"github.com/nodeplan/nodeplan/packing"
)

// homed is a command as a packing problem: the node's pods that have a
// home, on the cluster with the node marked for deletion, and the plan
// that puts them there.
type homed struct {
	prob packing.Problem
	plan packing.Plan
}

// homes checks that each pod of node j has one home and builds the
// problem and plan for packing.Verify.
func (v *cmdVerifier) homes(i int, cmd Command, j int) homed {
	pods := movable(v.nodes[j].Pods)
	found := v.matchHomes(i, cmd, pods)
	h := homed{prob: packing.Problem{NodePools: v.templatePools(), Catalog: v.c.Catalog, DaemonSets: v.c.DaemonSets,
		Nodes: slices.Clone(v.nodes)}}
	h.prob.Nodes[j].MarkedForDeletion, h.prob.Nodes[j].Pods = true, nil
	claims := map[string]int{}
	for _, nc := range cmd.Replacements {
		v.checkName(i, nc.Name, claims)
		nc.Pods = nil
		claims[nc.Name] = len(h.plan.NodeClaims)
		h.plan.NodeClaims = append(h.plan.NodeClaims, nc)
		h.plan.Price = sat.Add(h.plan.Price, nc.Offering.Price)
	}
	for k, p := range pods {
		if len(found[k]) > 0 {
			v.house(i, cmd, &h, p, found[k][0], claims)
		}
	}
	return h
}

// checkName reports a replacement name that is empty, taken by a node
// (existing, or an earlier replacement) or by a replacement in claims, or
// not a label value (disruption.ReplacementNameProblem).
func (v *cmdVerifier) checkName(i int, name string, claims map[string]int) {
	_, dup := claims[name]
	if why := disruption.ReplacementNameProblem(name, dup || v.index(name) >= 0); why != "" {
		v.add(i, RuleReplacement, name, "", "%s", why)
	}
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
			v.add(i, RuleHomes, cmd.Node, hm.Pod.String(), "a home is given for pod %s, which is not a reschedulable pod of node %s", hm.Pod, cmd.Node)
			continue
		}
		found[k] = append(found[k], hm)
	}
	for k, p := range pods {
		if n := len(found[k]); n != 1 {
			v.add(i, RuleHomes, cmd.Node, p.Key(), "pod %s of node %s has %d homes; it needs exactly one", p.Key(), cmd.Node, n)
		}
	}
	return found
}

// house adds pod p to the problem on its home, reporting malformed homes.
func (v *cmdVerifier) house(i int, cmd Command, h *homed, p packing.Pod, hm disruption.Home, claims map[string]int) {
	name, set := p.Key(), boolCount(hm.Node != "", hm.NodeClaim != "", hm.Unschedulable != "")
	switch {
	case set != 1:
		v.add(i, RuleHomes, cmd.Node, name, "the home of pod %s must set exactly one of Node, NodeClaim and Unschedulable", name)
		return
	case hm.Unschedulable != "":
		if !cmd.Forceful {
			v.add(i, RuleHomes, cmd.Node, name, "pod %s has no home (%s), but the command is budgeted", name, hm.Unschedulable)
		}
		return
	case hm.NodeClaim != "":
		c, ok := claims[hm.NodeClaim]
		if !ok {
			v.add(i, RuleHomes, hm.NodeClaim, name, "pod %s is sent to claim %s, which is not a replacement of the command", name, hm.NodeClaim)
			return
		}
		h.plan.NodeClaims[c].Pods = append(h.plan.NodeClaims[c].Pods, len(h.prob.Pods))
	default:
		if j := v.index(hm.Node); j >= 0 && !v.nodes[j].Initialized && !cmd.Forceful {
			v.add(i, RuleUninitialized, hm.Node, name, "pod %s is sent to node %s, which is not initialized", name, hm.Node)
		}
		h.plan.Bindings = append(h.plan.Bindings, packing.Binding{Pod: len(h.prob.Pods), Node: hm.Node})
	}
	h.plan.Order = append(h.plan.Order, len(h.prob.Pods))
	h.prob.Pods = append(h.prob.Pods, p)
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

func (v *cmdVerifier) checkPacking(i int, h homed) {
	for _, pv := range packing.VerifyMoves(h.prob, h.plan) {
		pod := ""
		if pv.Pod >= 0 && pv.Pod < len(h.prob.Pods) {
			pod = h.prob.Pods[pv.Pod].Key()
		}
		v.out = append(v.out, Violation{Command: i, Rule: RulePacking, Packing: pv.Rule, Node: pv.Node, Pod: pod, Message: pv.Message})
	}
}

// apply executes the command: node j is marked for deletion and emptied,
// the homed pods join their nodes and the replacements become in-flight
// nodes.
func (v *cmdVerifier) apply(j int, h homed) {
	v.nodes = slices.Clone(v.nodes)
	v.nodes[j].MarkedForDeletion, v.nodes[j].Pods = true, nil
	for _, b := range h.plan.Bindings {
		if k := v.index(b.Node); k >= 0 && !v.nodes[k].MarkedForDeletion {
			v.nodes[k].Pods = append(slices.Clip(v.nodes[k].Pods), h.prob.Pods[b.Pod])
		}
	}
	for _, nc := range h.plan.NodeClaims {
		v.nodes = append(v.nodes, h.prob.Launched(nc, v.now))
	}
}
