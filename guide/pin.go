package guide

import (
	"fmt"
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

// pinning is one way Solve holds pods to the LP's nodes: rounds is how
// many LPs deal the nodes (see dealRounds), up how the one LP's nodes are
// rounded when it is one (down or nearest), and all says every pod dealt
// is held, not only the pinnable ones.
type pinning struct {
	rounds int
	up     float64
	all    bool
}

// pinnings are the ways Solve pins, each a solve. On the benchmark
// workloads (RESULTS.md, twentieth session) each wins somewhere: rounding
// down leaves the search the most pods (karpenter-diverse, 1,000 pods);
// the LPs of the pods left round least (mixed and basic-scale-out, 1,000
// pods); holding the pinnable pods alone lets the search give the others
// zones their spreads accept (karpenter-diverse, 100 pods); holding all
// of them follows the LP closer where the spreads are loose (mixed, 5,000
// pods).
var pinnings = []pinning{{rounds: 1, up: down}, {rounds: 3}, {rounds: 1, up: nearest}, {rounds: 1, up: nearest, all: true}}

// lpNode is a whole node of the LP's solution: its pool, its type, and
// the pods dealt to it (indexes in the problem's pods).
type lpNode struct {
	pool, typ string
	pods      []int
}

// deal hands the pods of p to the patterns' whole nodes: for each pattern,
// ⌊Nodes + up⌋ nodes, each taking Count pods of each of its classes (a pod
// to one node only; fewer when the class runs out; the class's pods
// interleaved by their labels, see interleave). Nodes dealt no pod are
// left out.
func deal(p packing.Problem, patterns []bound.Pattern, up float64) []lpNode {
	taken := map[int]int{} // per class: how many of its pods are handed out
	orders := map[int][]int{}
	var out []lpNode
	for _, pat := range patterns {
		for range int(math.Floor(pat.Nodes + up)) {
			n := lpNode{pool: pat.NodePool, typ: pat.Type}
			for _, pc := range pat.Classes {
				order, ok := orders[pc.Class]
				if !ok {
					order = interleave(p.Pods, pc.Pods)
					orders[pc.Class] = order
				}
				from := taken[pc.Class]
				to := min(len(order), from+int(pc.Count))
				taken[pc.Class] = to
				n.pods = append(n.pods, order[from:to]...)
			}
			if len(n.pods) > 0 {
				out = append(out, n)
			}
		}
	}
	return out
}

// Rounding offsets for deal: down, and to the nearest.
const (
	down    = 1e-9
	nearest = 0.5
)

// dealRounds deals p's pods to the nodes of first, the LP of p's pods but
// skip (sorted), over rounds LPs: with one, each pattern rounded by up;
// with more, rounded down, then the LP of the pods left but skip
// (bound.Of with o) dealt the same way, the last rounded to the nearest.
// A round that deals no node rounded down deals to the nearest and is the
// last.
func dealRounds(p packing.Problem, first []bound.Pattern, skip []int, rounds int, up float64, o bound.Options) ([]lpNode, error) {
	if rounds <= 1 {
		return deal(p, first, up), nil
	}
	nodes := deal(p, first, down)
	if len(nodes) == 0 {
		return deal(p, first, nearest), nil
	}
	for round := 1; round < rounds; round++ {
		rest, of := left(p, nodes, skip)
		if len(rest.Pods) == 0 {
			break
		}
		b, err := bound.Of(rest, o)
		if err != nil {
			return nil, fmt.Errorf("guide: the LP of the pods left: %w", err)
		}
		more := deal(rest, b.Patterns, down)
		last := round == rounds-1 || len(more) == 0
		if last {
			more = deal(rest, b.Patterns, nearest)
		}
		for _, n := range more {
			n.pods = mapped(n.pods, of)
			nodes = append(nodes, n)
		}
		if last {
			break
		}
	}
	return nodes, nil
}

// left is p with only the pods no node was dealt, but skip (sorted), and
// their indexes in p's pods.
func left(p packing.Problem, nodes []lpNode, skip []int) (packing.Problem, []int) {
	out := make([]bool, len(p.Pods))
	for _, n := range nodes {
		for _, k := range n.pods {
			out[k] = true
		}
	}
	for _, k := range skip {
		out[k] = true
	}
	rest := p
	rest.Pods = nil
	var of []int
	for i, pod := range p.Pods {
		if !out[i] {
			rest.Pods = append(rest.Pods, pod)
			of = append(of, i)
		}
	}
	return rest, of
}

// pin returns p with the dealt nodes made a rule. Of each node's pods it
// holds the pinnable ones, or all of them, but with respect
// (RespectPreferences) none that prefers (see prefers). The pods it holds
// come first (the highest priority, for Options.PriorityOrder). The pods
// of one node carry its number in NodeLabel and its pool and type's in
// TypeLabel, and require the node's NodePool and instance type, a pod of
// their node on their host (required pod affinity on
// kubernetes.io/hostname) and no pod of another node of that pool and
// type (required anti-affinity; a node of another type cannot be theirs
// anyway, and the narrower selector matches fewer pods, which a solve
// counts): a solve then places them together on a node of that type, as
// the LP does, or not at all. The pods no node holds keep their own rules
// alone. It returns how many pods it pinned, and a key that two calls
// return alike exactly when they hold the same pods to the same nodes
// (numbered alike, of the same pools and types), so give the same
// problem. Every rule pin adds only restricts, so a plan for the pinned
// problem is a plan for p. p and its pods are not modified.
func pin(p packing.Problem, nodes []lpNode, all, respect bool) (packing.Problem, int, string) {
	q := p
	q.Pods = slices.Clone(p.Pods)
	types := map[[2]string]string{}
	id, pinned := 0, 0
	var key strings.Builder
	for _, n := range nodes {
		var pods []int
		for _, i := range n.pods {
			if holds(&p.Pods[i], all, respect) {
				pods = append(pods, i)
			}
		}
		if len(pods) == 0 {
			continue
		}
		tk := [2]string{n.pool, n.typ}
		if _, ok := types[tk]; !ok {
			types[tk] = strconv.Itoa(len(types))
		}
		h := hold{id: strconv.Itoa(id), typeID: types[tk], pool: n.pool, typ: n.typ}
		id++
		fmt.Fprintf(&key, "%s/%s:%v;", n.pool, n.typ, pods)
		for _, i := range pods {
			q.Pods[i] = h.pod(q.Pods[i])
		}
		pinned += len(pods)
	}
	if pinned == 0 {
		return p, 0, ""
	}
	return q, pinned, key.String()
}

// holds reports whether pin holds the pod (see pin).
func holds(pod *packing.Pod, all, respect bool) bool {
	return (all || pinnable(pod)) && !(respect && prefers(pod))
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

// hold is a node of the LP's solution that pin holds pods to: its number,
// its pool and type's number, the pool and the type.
type hold struct{ id, typeID, pool, typ string }

// pod returns pod held to the node (see pin); pod's maps and slices are
// copied, not modified.
func (n hold) pod(pod packing.Pod) packing.Pod {
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
