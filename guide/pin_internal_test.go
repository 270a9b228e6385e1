package guide

import (
	"math"
	"reflect"
	"slices"
	"testing"

	"github.com/nodeplan/nodeplan/benchmarks"
	"github.com/nodeplan/nodeplan/benchmarks/workload"
	"github.com/nodeplan/nodeplan/bound"
	"github.com/nodeplan/nodeplan/instancetypes"
	"github.com/nodeplan/nodeplan/packing"
	"github.com/nodeplan/nodeplan/packing/verify"
	"github.com/nodeplan/nodeplan/requirements"
	"github.com/nodeplan/nodeplan/resources"
)

func podNamed(name, app string) packing.Pod {
	return packing.Pod{Namespace: "default", Name: name, Labels: map[string]string{"app": app},
		Requests: resources.List{CPU: 100, Memory: 1 << 20}}
}

// TestPin: a pattern's whole nodes are dealt their classes' pods in turn,
// by workload (interleave), a pod to one node only (deal); the pods held
// carry the node's labels, the pool and type, the affinity to their node
// and the anti-affinity to the type's other nodes, and come first; a pod
// with a topology spread is held only with all; p is not modified.
func TestPin(t *testing.T) {
	p := packing.Problem{Pods: []packing.Pod{
		podNamed("a0", "a"), podNamed("a1", "a"), podNamed("b0", "b"), podNamed("b1", "b"), podNamed("s", "s"),
	}}
	p.Pods[4].TopologySpread = []packing.TopologySpread{{TopologyKey: requirements.LabelZone, MaxSkew: 1}}
	before := slices.Clone(p.Pods)
	pats := []bound.Pattern{
		{NodePool: "np", Type: "t1", Nodes: 1.6, Classes: []bound.PatternClass{{Class: 0, Pods: []int{0, 1, 2, 3}, Count: 2}}},
		{NodePool: "np", Type: "t2", Nodes: 1, Classes: []bound.PatternClass{{Class: 0, Pods: []int{0, 1, 2, 3}, Count: 1}, {Class: 1, Pods: []int{4}, Count: 1}}},
	}
	for _, c := range []struct {
		name  string
		up    float64
		all   bool
		nodes map[int]string // pod: its node
		types map[string]string
	}{
		{"down", 1e-9, false, map[int]string{0: "0", 2: "0", 1: "1"}, map[string]string{"0": "t1", "1": "t2"}},
		{"nearest", 0.5, false, map[int]string{0: "0", 2: "0", 1: "1", 3: "1"}, map[string]string{"0": "t1", "1": "t1"}},
		{"nearest, all", 0.5, true, map[int]string{0: "0", 2: "0", 1: "1", 3: "1", 4: "2"}, map[string]string{"0": "t1", "1": "t1", "2": "t2"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			q, n, _ := pin(p, deal(p, pats, c.up), c.all, true)
			if n != len(c.nodes) {
				t.Errorf("pinned %d, want %d", n, len(c.nodes))
			}
			for i, pod := range q.Pods {
				id, held := c.nodes[i]
				if !held {
					if !reflect.DeepEqual(pod, p.Pods[i]) {
						t.Errorf("pod %d changed: %+v", i, pod)
					}
					continue
				}
				typ := c.types[id]
				if pod.Labels[NodeLabel] != id || pod.Labels["app"] != p.Pods[i].Labels["app"] || pod.Priority != math.MaxInt32 {
					t.Errorf("pod %d: labels %v, priority %d; want node %s", i, pod.Labels, pod.Priority, id)
				}
				if err := pod.NodeAffinity.Matches(map[string]string{requirements.LabelNodePool: "np", requirements.LabelInstanceType: typ}); err != nil {
					t.Errorf("pod %d: node affinity %v", i, err)
				}
				if pod.NodeAffinity.Matches(map[string]string{requirements.LabelNodePool: "np", requirements.LabelInstanceType: "other"}) == nil {
					t.Errorf("pod %d: any type matches", i)
				}
				if len(pod.Affinity) != 1 || !pod.Affinity[0].Selector.Satisfied(map[string]string{NodeLabel: id}) ||
					pod.Affinity[0].Selector.Satisfied(map[string]string{NodeLabel: id + "x"}) {
					t.Errorf("pod %d: affinity %+v", i, pod.Affinity)
				}
				tl := pod.Labels[TypeLabel]
				anti := pod.AntiAffinity
				if len(anti) != 1 || anti[0].Selector.Satisfied(map[string]string{NodeLabel: id, TypeLabel: tl}) ||
					!anti[0].Selector.Satisfied(map[string]string{NodeLabel: id + "x", TypeLabel: tl}) ||
					anti[0].Selector.Satisfied(map[string]string{NodeLabel: id + "x", TypeLabel: tl + "x"}) {
					t.Errorf("pod %d: anti-affinity %+v", i, anti)
				}
			}
			if !reflect.DeepEqual(p.Pods, before) {
				t.Error("p's pods modified")
			}
		})
	}
	if _, n, _ := pin(p, nil, true, true); n != 0 {
		t.Errorf("no pattern pinned %d", n)
	}
	// pinnedSolves solves once when holding all holds as many pods: the
	// same problem.
	plain := p
	plain.Pods = slices.Clone(p.Pods)
	plain.Pods[4].TopologySpread = nil
	some, n1, k1 := pin(plain, deal(plain, pats, nearest), false, true)
	all, n2, k2 := pin(plain, deal(plain, pats, nearest), true, true)
	if n1 != n2 || k1 != k2 || !reflect.DeepEqual(some, all) {
		t.Errorf("every pod pinnable: %d and %d held, or not the same problem", n1, n2)
	}
	if _, _, kd := pin(plain, deal(plain, pats, down), false, true); kd == k1 {
		t.Errorf("rounding down and to the nearest hold differently, but their keys are both %q", kd)
	}
	p.Pods[0].AntiAffinity = []packing.PodAffinityTerm{{TopologyKey: requirements.LabelHostname, Weight: 10,
		Selector: requirements.NewSet(requirements.MustNew("app", requirements.In, "a"))}}
	if q, _, _ := pin(p, deal(p, pats, nearest), true, true); !reflect.DeepEqual(q.Pods[0], p.Pods[0]) {
		t.Error("a pod with a preferred term is held under Respect")
	}
	if q, _, _ := pin(p, deal(p, pats, nearest), true, false); q.Pods[0].Labels[NodeLabel] == "" {
		t.Error("a pod with a preferred term is not held when preferences are ignored")
	}
}

// TestDealRounds: on Karpenter's diverse workload (300 pods) the LP of the
// pods left deals nodes that rounding down left undealt; every pod is
// dealt at most once, to a node of a pool and type of the LP's.
func TestDealRounds(t *testing.T) {
	p, err := benchmarks.Problem(workload.KarpenterDiverse(300, 5), nil)
	if err != nil {
		t.Fatal(err)
	}
	b, err := bound.Of(p, bound.Options{})
	if err != nil {
		t.Fatal(err)
	}
	count := func(nodes []lpNode) int {
		seen := map[int]bool{}
		for _, n := range nodes {
			if slices.IndexFunc(b.Configurations, func(c bound.Configuration) bool { return c.NodePool == n.pool }) < 0 {
				t.Errorf("node of pool %s", n.pool)
			}
			for _, k := range n.pods {
				if seen[k] || k < 0 || k >= len(p.Pods) {
					t.Errorf("pod %d dealt twice or out of range", k)
				}
				seen[k] = true
			}
		}
		return len(seen)
	}
	once := count(deal(p, b.Patterns, down))
	three, err := dealRounds(p, b.Patterns, nil, 3, down, bound.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got := count(three); got <= once {
		t.Errorf("three rounds dealt %d pods, rounding down once %d", got, once)
	}
	one, err := dealRounds(p, b.Patterns, nil, 1, nearest, bound.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(one, deal(p, b.Patterns, nearest)) {
		t.Error("one round is not the one rounding")
	}
}

// TestInterleave: one pod of each workload (set of labels) in turn, the
// workloads in the order of their first pod.
func TestInterleave(t *testing.T) {
	pods := []packing.Pod{podNamed("a0", "a"), podNamed("a1", "a"), podNamed("a2", "a"), podNamed("b0", "b"), podNamed("c0", "c"), podNamed("b1", "b")}
	if got, want := interleave(pods, []int{0, 1, 2, 3, 4, 5}), []int{0, 3, 4, 1, 5, 2}; !slices.Equal(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
	if got := interleave(pods, []int{5, 1}); !slices.Equal(got, []int{5, 1}) {
		t.Errorf("got %v", got)
	}
}

// TestComplete: pods taken off a checked plan (a claim's last pods, made
// unschedulable) are placed again; the plan passes the checker, places
// every pod and costs what the two solves do.
func TestComplete(t *testing.T) {
	p, err := benchmarks.Problem(workload.KarpenterDiverse(200, 3), nil)
	if err != nil {
		t.Fatal(err)
	}
	full, err := packing.Solve(p, packing.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var missed []int
	g := full
	g.NodeClaims = slices.Clone(full.NodeClaims)
	for ci := range g.NodeClaims {
		c := &g.NodeClaims[ci]
		if len(c.Pods) < 2 || len(missed) >= 30 {
			continue
		}
		k := c.Pods[len(c.Pods)-1]
		missed = append(missed, k)
		c.Pods = c.Pods[: len(c.Pods)-1 : len(c.Pods)-1]
		r := p.Pods[k].Requests
		r.Pods = 1
		c.Requests = c.Requests.Sub(r)
	}
	slices.Sort(missed)
	g.Order = slices.DeleteFunc(slices.Clone(full.Order), func(i int) bool { _, ok := slices.BinarySearch(missed, i); return ok })
	for _, k := range missed {
		g.Unschedulable = append(g.Unschedulable, packing.Unschedulable{Pod: k})
	}
	done, err := complete(p, g, missed, packing.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if v := verify.Plan(p, done); len(v) > 0 {
		t.Fatal(v)
	}
	if len(done.Unschedulable) > 0 || len(missed) == 0 {
		t.Fatalf("%d left out of %d missed", len(done.Unschedulable), len(missed))
	}
	if done.Price < g.Price {
		t.Errorf("price %v below the plan's %v", done.Price, g.Price)
	}
	grown := 0
	for i, c := range done.NodeClaims[:len(g.NodeClaims)] {
		if len(c.Pods) == len(g.NodeClaims[i].Pods) {
			continue
		}
		grown++
		zone, typ := c.Requirements.Get(requirements.LabelZone), c.Requirements.Get(requirements.LabelInstanceType)
		if !slices.Equal(c.InstanceTypes, []string{c.InstanceType}) || zone.Len() != 1 || !zone.Has(c.Offering.Zone) || typ.Len() != 1 || !typ.Has(c.InstanceType) {
			t.Errorf("claim %s grew but is not narrowed to its node: %v, %v", c.Name, c.InstanceTypes, c.Requirements)
		}
	}
	if grown == 0 {
		t.Error("no claim took a pod back")
	}
}

// TestSolvePinnings: the pinnings win where RESULTS.md says they do. On
// Karpenter's diverse benchmark (1,000 pods, seed 42) a pinned plan is
// cheaper than every narrowing's; on the mixed workload (1,000 pods, the
// AWS catalog) the nodes the LPs of the pods left deal give a plan
// cheaper than any other pinning's.
func TestSolvePinnings(t *testing.T) {
	aws, err := instancetypes.AWS(instancetypes.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		w    workload.Workload
		cat  *instancetypes.Catalog
		drop func(pinning) bool // the pinnings the dearer solve goes without
	}{
		{"diverse/1000, no pinning", workload.KarpenterDiverse(1000, 42), nil, func(pinning) bool { return true }},
		{"mixed/1000, one LP", workload.Mixed(1000, 42), aws, func(pn pinning) bool { return pn.rounds > 1 }},
	} {
		t.Run(c.name, func(t *testing.T) {
			p, err := benchmarks.Problem(c.w, c.cat)
			if err != nil {
				t.Fatal(err)
			}
			with, err := Solve(p, Options{})
			if err != nil {
				t.Fatal(err)
			}
			saved := pinnings
			pinnings = slices.DeleteFunc(slices.Clone(saved), c.drop)
			defer func() { pinnings = saved }()
			without, err := Solve(p, Options{})
			if err != nil {
				t.Fatal(err)
			}
			if !with.Pinned || with.Plan.Price >= without.Plan.Price {
				t.Errorf("with %v (pinned %v), without %v", with.Plan.Price, with.Pinned, without.Plan.Price)
			}
			t.Logf("%v → %v (bound %.2f)", without.Plan.Price, with.Plan.Price, with.Bound.Dollars)
		})
	}
}
