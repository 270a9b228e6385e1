package kube

import (
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/nodeplan/nodeplan/consolidation"
	disrupt "github.com/nodeplan/nodeplan/disruption"
	"github.com/nodeplan/nodeplan/instancetypes"
	"github.com/nodeplan/nodeplan/packing"
	"github.com/nodeplan/nodeplan/requirements"
)

// ErrPlanMismatch is wrapped by the error [Cluster.Apply] returns for a
// plan that is not of the cluster's problem: a pod index out of range or
// not accounted for exactly once, a pending pod that is not the
// cluster's, a binding to a node the cluster does not have.
var ErrPlanMismatch = errors.New("the plan is not of this cluster's problem")

// Apply returns c as it is once the provisioning plan is carried out, as
// Karpenter's cluster state sees it right after launch: p is
// c.Problem(cat) and plan a plan solved from p (packing.Solve).
//
//   - A pod the plan binds to a node (existing, or in flight: a
//     [ClaimStatus].InFlight, whose copy gets the pod) is bound to it.
//   - Each new NodeClaim becomes a Node after c's (packing.Problem.Launched):
//     named as the claim, its NodePool, instance type, zone, capacity type
//     and labels (the claim's, plus kubernetes.io/hostname,
//     karpenter.sh/registered and karpenter.sh/initialized), its pool's
//     taints without its startup taints, the allocatable of its type in its
//     pool's catalog, priced at its chosen offering, Initialized, created at
//     now, holding its pods. A claim whose name is a node's of c is renamed
//     with disruption.ReplacementName (its NodePool's name, a number).
//   - A pending pod of c the plan leaves unschedulable stays pending.
//   - A pod of a node being deleted that p planned again (see
//     [Cluster.Problem]) leaves that node when the plan places it, as the
//     pod the problem holds; unschedulable, it stays on the node.
//
// So every pod of c is in the result exactly once. NodeClaims are not
// added to the result's NodeClaims. Pod events are not recorded (a Cluster
// has none; [Cluster.ConsolidationAfter] records them). A plan that does
// not match p and c is an error wrapping ErrPlanMismatch, and nothing is
// returned.
//
// Apply does not modify c, p or plan: the result has its own Pods, Nodes
// and NodeClaims slices (and pod slices of the nodes that change), and
// shares the rest, which it does not modify either. O(pods + nodes +
// claims).
func (c *Cluster) Apply(p packing.Problem, plan packing.Plan, now time.Time) (Cluster, error) {
	unschedulable, err := accounted(c, &p, &plan)
	if err != nil {
		return Cluster{}, err
	}
	a := newApplier(c, &p)
	if err := a.takeOff(a.replanned(&plan)); err != nil {
		return Cluster{}, err
	}
	if err := a.bind(plan.Bindings); err != nil {
		return Cluster{}, err
	}
	a.launch(plan.NodeClaims, now)
	for i, pod := range c.Pods {
		if unschedulable[i] {
			a.out.Pods = append(a.out.Pods, pod)
		}
	}
	return a.out, nil
}

// accounted checks that plan accounts for every pod of p exactly once and
// that p's first pods are c's pending ones; it returns which pods are
// unschedulable.
func accounted(c *Cluster, p *packing.Problem, plan *packing.Plan) ([]bool, error) {
	if len(p.Pods) < len(c.Pods) {
		return nil, fmt.Errorf("%w: the problem has %d pods, the cluster %d pending", ErrPlanMismatch, len(p.Pods), len(c.Pods))
	}
	for i := range c.Pods {
		if c.Pods[i].Key() != p.Pods[i].Key() {
			return nil, fmt.Errorf("%w: pod %d of the problem is %s, not the cluster's %s", ErrPlanMismatch, i, p.Pods[i].Key(), c.Pods[i].Key())
		}
	}
	seen := make([]int, len(p.Pods))
	unschedulable := make([]bool, len(p.Pods))
	var errs []error
	count := func(i int, where string) {
		if i < 0 || i >= len(p.Pods) {
			errs = append(errs, fmt.Errorf("%w: %s names pod %d of %d", ErrPlanMismatch, where, i, len(p.Pods)))
			return
		}
		seen[i]++
	}
	for _, b := range plan.Bindings {
		count(b.Pod, "a binding to node "+b.Node)
	}
	for _, nc := range plan.NodeClaims {
		for _, i := range nc.Pods {
			count(i, "NodeClaim "+nc.Name)
		}
	}
	for _, h := range plan.Headroom {
		count(h.Pod, "headroom")
	}
	for _, u := range plan.Unschedulable {
		count(u.Pod, "an unschedulable pod")
		if u.Pod >= 0 && u.Pod < len(p.Pods) {
			unschedulable[u.Pod] = true
		}
	}
	for i, n := range seen {
		if n != 1 {
			errs = append(errs, fmt.Errorf("%w: pod %s is in the plan %d times", ErrPlanMismatch, p.Pods[i].Key(), n))
		}
	}
	return unschedulable, errors.Join(errs...)
}

// applier builds the result of Apply.
type applier struct {
	c   *Cluster
	p   *packing.Problem
	out Cluster
	// node and inFlight index out.Nodes and out.NodeClaims by node name.
	node, inFlight map[string]int
}

func newApplier(c *Cluster, p *packing.Problem) *applier {
	out := *c
	out.Pods = nil
	out.Nodes = slices.Clone(c.Nodes)
	out.NodeClaims = slices.Clone(c.NodeClaims)
	out.DaemonSets, out.NodePools = slices.Clip(c.DaemonSets), slices.Clip(c.NodePools)
	out.PodDisruptionBudgets, out.NodeClasses = slices.Clip(c.PodDisruptionBudgets), slices.Clip(c.NodeClasses)
	out.Warnings = slices.Clip(c.Warnings)
	a := &applier{c: c, p: p, out: out, node: map[string]int{}, inFlight: map[string]int{}}
	for i := range c.Nodes {
		a.node[c.Nodes[i].Name] = i
	}
	for i := range c.NodeClaims {
		nc := &c.NodeClaims[i]
		if _, hasNode := a.node[c.claimNodeName(nc)]; nc.ProviderID != "" && !hasNode {
			a.inFlight[nc.InFlight.Name] = i
		}
	}
	return a
}

// bind puts each bound pod on its node.
func (a *applier) bind(bindings []packing.Binding) error {
	byNode := map[string][]packing.Pod{}
	var order []string // node names in order of first binding
	for _, b := range bindings {
		_, isNode := a.node[b.Node]
		if _, ok := a.inFlight[b.Node]; !ok && !isNode {
			return fmt.Errorf("%w: pod %s is bound to node %s, which the cluster does not have", ErrPlanMismatch, a.p.Pods[b.Pod].Key(), b.Node)
		}
		if _, ok := byNode[b.Node]; !ok {
			order = append(order, b.Node)
		}
		byNode[b.Node] = append(byNode[b.Node], a.p.Pods[b.Pod])
	}
	for _, name := range order {
		if i, ok := a.node[name]; ok {
			a.out.Nodes[i].Pods = slices.Concat(a.out.Nodes[i].Pods, byNode[name])
			continue
		}
		n := &a.out.NodeClaims[a.inFlight[name]].InFlight
		n.Pods = slices.Concat(n.Pods, byNode[name])
	}
	return nil
}

// replanned returns the keys of the pods the plan places that the problem
// planned again: those after c's pending pods.
func (a *applier) replanned(plan *packing.Plan) map[string]bool {
	placed := map[string]bool{}
	add := func(i int) {
		if i >= len(a.c.Pods) {
			placed[a.p.Pods[i].Key()] = true
		}
	}
	for _, b := range plan.Bindings {
		add(b.Pod)
	}
	for _, nc := range plan.NodeClaims {
		for _, i := range nc.Pods {
			add(i)
		}
	}
	return placed
}

// takeOff removes the pods whose keys are in placed from c's nodes in the
// result; each must be on one of them.
func (a *applier) takeOff(placed map[string]bool) error {
	found := 0
	for i := range a.c.Nodes {
		n := &a.out.Nodes[i]
		if !slices.ContainsFunc(n.Pods, func(p packing.Pod) bool { return placed[p.Key()] }) {
			continue
		}
		before := len(n.Pods)
		n.Pods = slices.DeleteFunc(slices.Clone(n.Pods), func(p packing.Pod) bool { return placed[p.Key()] })
		found += before - len(n.Pods)
	}
	if found != len(placed) {
		return fmt.Errorf("%w: %d pods planned again are on no node of the cluster", ErrPlanMismatch, len(placed)-found)
	}
	return nil
}

// launch appends the node each claim becomes (see [Cluster.Apply]).
func (a *applier) launch(claims []packing.NodeClaim, now time.Time) {
	names := map[string]bool{}
	for _, nc := range claims {
		names[nc.Name] = true
	}
	taken := func(name string) bool { return a.taken(name) || names[name] }
	for _, nc := range claims {
		n := a.p.Launched(nc, now)
		if a.taken(nc.Name) {
			n.Name, _ = disrupt.ReplacementName(nc.NodePool, 1, taken)
		}
		a.node[n.Name] = len(a.out.Nodes)
		n.Initialized = true
		n.Labels[requirements.LabelHostname] = n.Name
		n.Labels[requirements.LabelKarpenterRegistered] = "true"
		n.Labels[requirements.LabelKarpenterInitialized] = "true"
		n.Taints = withoutTaints(n.Taints, a.startupTaints(nc.NodePool))
		a.out.Nodes = append(a.out.Nodes, n)
	}
}

// taken reports whether a node of the result, or a node in flight, has
// the name.
func (a *applier) taken(name string) bool {
	_, node := a.node[name]
	_, inFlight := a.inFlight[name]
	return node || inFlight
}

// startupTaints are those of the problem's first NodePool named pool.
func (a *applier) startupTaints(pool string) []requirements.Taint {
	if i := slices.IndexFunc(a.p.NodePools, func(np packing.NodePool) bool { return np.Name == pool }); i >= 0 {
		return a.p.NodePools[i].StartupTaints
	}
	return nil
}

// withoutTaints returns a copy of ts without those matching (key and
// effect) one of drop, as a node's startup taints are gone once it is
// initialized.
func withoutTaints(ts, drop []requirements.Taint) []requirements.Taint {
	return slices.DeleteFunc(slices.Clone(ts), func(t requirements.Taint) bool {
		return slices.ContainsFunc(drop, func(d requirements.Taint) bool { return d.Key == t.Key && d.Effect == t.Effect })
	})
}

// ConsolidationAfter returns the consolidation snapshot of c at now once
// the plan is carried out: [Cluster.Consolidation] of [Cluster.Apply]'s
// result, the new nodes priced at the offering their claim chose (which
// for a reserved offering may not be the first of its zone that
// Consolidation would price it at), with a pod event at now on every node
// the plan binds pods to (the new nodes' is their creation, now), as
// Karpenter records a pod binding. p and plan are as Apply takes them;
// its errors and Consolidation's are returned. c, p and plan are not
// modified. O(Apply + Consolidation).
func (c *Cluster) ConsolidationAfter(p packing.Problem, plan packing.Plan, cat *instancetypes.Catalog, now time.Time) (consolidation.Cluster, error) {
	applied, err := c.Apply(p, plan, now)
	if err != nil {
		return consolidation.Cluster{}, err
	}
	out, err := applied.Consolidation(cat, now)
	if err != nil {
		return out, err
	}
	for i := len(c.Nodes); i < len(applied.Nodes); i++ { // the launched claims, in the same places
		out.Nodes[i].Price, out.Nodes[i].PriceUnknown = applied.Nodes[i].Price, false
	}
	if out.LastPodEvent == nil { // Consolidation's own map otherwise
		out.LastPodEvent = map[string]time.Time{}
	}
	for _, b := range plan.Bindings {
		out.LastPodEvent[b.Node] = now
	}
	return out, nil
}
