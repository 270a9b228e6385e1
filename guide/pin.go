package guide

import (
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/nodeplan/nodeplan/bound"
	"github.com/nodeplan/nodeplan/packing"
	"github.com/nodeplan/nodeplan/requirements"
)

// NodeLabel is the label pin gives the pods it holds together: the
// number of their node. TypeLabel numbers their node's NodePool and
// instance type.
const (
	NodeLabel = "guide.nodeplan.io/lp-node"
	TypeLabel = "guide.nodeplan.io/lp-type"
)

// pinning is one way pin holds pods to the LP's nodes: up is what it
// adds to each pattern's nodes before rounding down (a little: down; a
// half: to the nearest, where a class that runs out leaves the last nodes
// short), and all says every pod of a pattern is held, not only the
// pinnable ones.
type pinning struct {
	up  float64
	all bool
}

// pinnings are the ways Solve pins, each a solve. On the benchmark
// workloads (RESULTS.md, twentieth session) each wins somewhere: holding
// the pinnable pods alone lets the search give the others zones their
// spreads accept (karpenter-diverse, 1,000 pods); holding all of them
// follows the LP closer where the spreads are loose (mixed, 5,000 pods).
var pinnings = []pinning{{up: 1e-9}, {up: 0.5}, {up: 0.5, all: true}}

// pin returns p with the LP's whole nodes made a rule: for each pattern,
// ⌊Nodes + up⌋ nodes, each taking Count pods of each of its classes (a pod
// to one node only; fewer when the class runs out; the class's pods
// interleaved by their labels, see interleave), of which it holds the
// pinnable ones, or all of them, but with respect (RespectPreferences)
// none that prefers (see prefers). The pods it holds come first (the
// highest priority, for Options.PriorityOrder). The pods of one node carry
// its number in NodeLabel and its pool and type's in TypeLabel, and
// require the pattern's NodePool and instance type, a pod of their node on
// their host (required pod affinity on kubernetes.io/hostname) and no pod
// of another node of that pool and type (required anti-affinity; a node
// of another type cannot be theirs anyway, and the narrower selector
// matches fewer pods, which a solve counts): a solve then places them
// together on a node of that type, as the LP does, or not at all. The
// pods the patterns leave over keep their own rules alone. It returns how
// many pods it pinned. Every rule pin adds only restricts, so a plan for
// the pinned problem is a plan for p. p and its pods are not modified.
func pin(p packing.Problem, patterns []bound.Pattern, up float64, all, respect bool) (packing.Problem, int) {
	q := p
	q.Pods = slices.Clone(p.Pods)
	taken := map[int]int{} // per class: how many of its pods are handed out
	orders := map[int][]int{}
	types := map[[2]string]string{}
	node, pinned := 0, 0
	for _, pat := range patterns {
		key := [2]string{pat.NodePool, pat.Type}
		if _, ok := types[key]; !ok {
			types[key] = strconv.Itoa(len(types))
		}
		for range int(math.Floor(pat.Nodes + up)) {
			var pods []int
			for _, pc := range pat.Classes {
				order, ok := orders[pc.Class]
				if !ok {
					order = interleave(p.Pods, pc.Pods)
					orders[pc.Class] = order
				}
				from := taken[pc.Class]
				to := min(len(order), from+int(pc.Count))
				taken[pc.Class] = to
				for _, i := range order[from:to] {
					if (all || pinnable(&p.Pods[i])) && !(respect && prefers(&p.Pods[i])) {
						pods = append(pods, i)
					}
				}
			}
			if len(pods) == 0 {
				continue
			}
			pn := lpNode{id: strconv.Itoa(node), typeID: types[key], pool: pat.NodePool, typ: pat.Type}
			node++
			for _, i := range pods {
				q.Pods[i] = pn.hold(q.Pods[i])
			}
			pinned += len(pods)
		}
	}
	if pinned == 0 {
		return p, 0
	}
	return q, pinned
}

// pinnable reports whether pin holds the pod to its LP node: not when
// the pod has a rule the LP relaxes (a topology spread, a required pod
// affinity, a required anti-affinity on another key than the hostname):
// those pods take a node's room left by the pinned ones, in the order and
// zones the search finds for their rules.
func pinnable(pod *packing.Pod) bool {
	if len(pod.TopologySpread) > 0 || slices.ContainsFunc(pod.Affinity, required) {
		return false
	}
	return !slices.ContainsFunc(pod.AntiAffinity, func(t packing.PodAffinityTerm) bool {
		return required(t) && t.TopologyKey != requirements.LabelHostname
	})
}

// prefers reports whether the pod has a preferred term: a preferred node
// affinity, a preferred pod (anti-)affinity or a ScheduleAnyway spread.
// Under Karpenter's Respect policy a term is relaxed only when the pod
// fits nowhere else; held to an LP node, the pod would see its terms
// relaxed for the hold's sake, so pin never holds such a pod then.
func prefers(pod *packing.Pod) bool {
	soft := func(t packing.PodAffinityTerm) bool { return !required(t) }
	return len(pod.NodeAffinity.Preferred) > 0 || slices.ContainsFunc(pod.Affinity, soft) ||
		slices.ContainsFunc(pod.AntiAffinity, soft) ||
		slices.ContainsFunc(pod.TopologySpread, func(t packing.TopologySpread) bool {
			return t.WhenUnsatisfiable == packing.ScheduleAnyway
		})
}

func required(t packing.PodAffinityTerm) bool { return t.Weight == 0 }

// lpNode is a node of the LP's solution that pin holds pods to: its
// number, its pool and type's number, the pool and the type.
type lpNode struct{ id, typeID, pool, typ string }

// hold returns pod held to the node (see pin); pod's maps and slices are
// copied, not modified.
func (n lpNode) hold(pod packing.Pod) packing.Pod {
	pod.Labels = maps.Clone(pod.Labels)
	if pod.Labels == nil {
		pod.Labels = map[string]string{}
	}
	pod.Labels[NodeLabel], pod.Labels[TypeLabel] = n.id, n.typeID
	pod.Priority = math.MaxInt32
	on := []requirements.Requirement{
		requirements.MustNew(requirements.LabelNodePool, requirements.In, n.pool),
		requirements.MustNew(requirements.LabelInstanceType, requirements.In, n.typ),
	}
	pod.NodeAffinity.Selector = pod.NodeAffinity.Selector.Add(on...)
	pod.NodeAffinity.Required = slices.Clone(pod.NodeAffinity.Required)
	for j, alt := range pod.NodeAffinity.Required {
		pod.NodeAffinity.Required[j] = alt.Add(on...)
	}
	same := requirements.NewSet(requirements.MustNew(NodeLabel, requirements.In, n.id))
	other := requirements.NewSet(requirements.MustNew(TypeLabel, requirements.In, n.typeID),
		requirements.MustNew(NodeLabel, requirements.NotIn, n.id))
	pod.Affinity = append(slices.Clone(pod.Affinity),
		packing.PodAffinityTerm{TopologyKey: requirements.LabelHostname, Selector: same, AllNamespaces: true})
	pod.AntiAffinity = append(slices.Clone(pod.AntiAffinity),
		packing.PodAffinityTerm{TopologyKey: requirements.LabelHostname, Selector: other, AllNamespaces: true})
	return pod
}

// interleave orders pods (indexes in all) by their labels: one pod of each
// set of labels in turn, the sets in the order of their first pod, so
// that the pods one LP node takes of a class come from as many workloads
// as the class has. A workload's pods share their labels and, as a rule,
// a topology spread over them, which the LP does not see.
func interleave(all []packing.Pod, pods []int) []int {
	var keys []string
	byKey := map[string][]int{}
	for _, i := range pods {
		k := labelKey(all[i].Labels)
		if _, ok := byKey[k]; !ok {
			keys = append(keys, k)
		}
		byKey[k] = append(byKey[k], i)
	}
	out := make([]int, 0, len(pods))
	for round := 0; len(out) < len(pods); round++ {
		for _, k := range keys {
			if round < len(byKey[k]) {
				out = append(out, byKey[k][round])
			}
		}
	}
	return out
}

// labelKey renders labels in key order.
func labelKey(labels map[string]string) string {
	var b strings.Builder
	for _, k := range slices.Sorted(maps.Keys(labels)) {
		b.WriteString(k)
		b.WriteByte('=')
		b.WriteString(labels[k])
		b.WriteByte(0)
	}
	return b.String()
}
