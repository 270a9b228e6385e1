package bound

import (
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"

	"github.com/leanovate/gopter"
	"github.com/leanovate/gopter/gen"
	"github.com/leanovate/gopter/prop"

	"github.com/nodeplan/nodeplan/instancetypes"
	"github.com/nodeplan/nodeplan/internal/problemgen"
	"github.com/nodeplan/nodeplan/packing"
	"github.com/nodeplan/nodeplan/resources"
)

// above reports whether bound exceeds price beyond float rounding.
func above(bound float64, price instancetypes.Price) bool {
	return bound > price.Dollars()*(1+1e-9)+1e-12
}

// TestPropertyBelowSolve: on generated problems (pods with spreads,
// affinities, zones, volumes; pools with limits, taints and weights;
// daemonsets; existing nodes) the bound of the pods Solve's plan placed
// never exceeds the plan's price, nor does Of's when every pod the plan
// left unschedulable is one no room (within the limits) holds alone.
func TestPropertyBelowSolve(t *testing.T) {
	props := problemgen.Properties(2101, 200)
	props.Property("ForPlan(p, Solve(p)) ≤ its price; Of(p) too when the rest fit no room", prop.ForAll(func(s problemgen.Seeded) string {
		plan, err := packing.Solve(s.Problem, packing.Options{})
		if err != nil {
			return fmt.Sprintf("seed %d: solve: %v", s.Seed, err)
		}
		b, err := ForPlan(s.Problem, plan, Options{})
		switch {
		case err != nil:
			return fmt.Sprintf("seed %d: ForPlan: %v", s.Seed, err)
		case above(b.Dollars, plan.Price):
			return fmt.Sprintf("seed %d: ForPlan %+v above the plan's %v", s.Seed, b, plan.Price)
		case len(s.Problem.Pods) == 0 || slices.ContainsFunc(plan.Headroom, func(h packing.Headroom) bool { return h.Unschedulable }):
			return ""
		case len(plan.Unschedulable) > 0 && !allRoomless(s.Problem, plan):
			return ""
		}
		if b, err = Of(s.Problem, Options{}); err != nil || above(b.Dollars, plan.Price) {
			return fmt.Sprintf("seed %d: Of %+v (%v) above the plan's %v", s.Seed, b, err, plan.Price)
		}
		return ""
	}, problemgen.GenSeeded(problemgen.Size{Pods: 30, Types: 12})))
	props.TestingRun(t)
}

// allRoomless reports whether every pod plan left unschedulable is one no
// room holds alone: no offer admitting its class of a type within its
// pool's limits (in integers), no existing node admitting it. Of then
// bounds what plan placed. It reads packing.GroupClasses, not the model.
func allRoomless(p packing.Problem, plan packing.Plan) bool {
	c, err := packing.GroupClasses(p)
	if err != nil {
		return false
	}
	classOf := map[int]int{}
	for k, cl := range c.Classes {
		for _, i := range cl.Pods {
			classOf[i] = k
		}
	}
	for _, u := range plan.Unschedulable {
		k, ok := classOf[u.Pod]
		if !ok || !roomless(&c, k) {
			return false
		}
	}
	return true
}

func roomless(c *packing.Classes, k int) bool {
	cl := c.Classes[k]
	for pl, room := range c.Pools {
		for o, off := range room.Offers {
			tr := room.Types[off.Type]
			if room.NodesLeft <= 0 || !c.Admits(cl.Rules, pl, o) || !cl.Requests.Fits(tr.Alloc) {
				continue
			}
			if !slices.ContainsFunc(room.Limits, func(l resources.Amount) bool { return tr.Capacity.Get(l.Name) > max(l.Value, 0) }) {
				return false
			}
		}
	}
	for n, nd := range c.Nodes {
		if c.AdmitsNode(cl.Rules, n) && cl.Requests.Fits(nd.Free) {
			return false
		}
	}
	return true
}

// TestPropertyDeterministic: the same input gives the same Bound, and the
// input is not modified.
func TestPropertyDeterministic(t *testing.T) {
	props := problemgen.Properties(2102, 100)
	props.Property("Of is deterministic and leaves p as it was", prop.ForAll(func(s problemgen.Seeded) string {
		before := problemgen.Clone(s.Problem)
		a, errA := Of(s.Problem, Options{})
		b, errB := Of(s.Problem, Options{MaxIterations: 40})
		switch {
		case fmt.Sprint(errA) != fmt.Sprint(errB) || !reflect.DeepEqual(a, b):
			return fmt.Sprintf("seed %d: %+v (%v) then %+v (%v)", s.Seed, a, errA, b, errB)
		case !reflect.DeepEqual(before, s.Problem):
			return fmt.Sprintf("seed %d: the problem changed", s.Seed)
		}
		return ""
	}, problemgen.GenSeeded(problemgen.Size{})))
	props.TestingRun(t)
}

// TestPropertyConfigurations: the LP's configurations name a NodePool of
// the problem and an instance type of its catalog, once each, in order,
// with a positive, finite number of nodes; its patterns add up to them
// (checkPatterns).
func TestPropertyConfigurations(t *testing.T) {
	props := problemgen.Properties(2103, 100)
	props.Property("configurations are the problem's pools and types", prop.ForAll(func(s problemgen.Seeded) string {
		b, err := Of(s.Problem, Options{})
		if err != nil {
			return ""
		}
		if msg := checkConfigurations(s.Problem, b.Configurations); msg != "" {
			return msg
		}
		return checkPatterns(s.Problem, b)
	}, problemgen.GenSeeded(problemgen.Size{})))
	props.TestingRun(t)
}

// checkPatterns: the patterns add up to the configurations, per pool and
// type; each holds at least one pod, of classes whose pods are the
// problem's, ascending, each class's the same in every pattern and in no
// other class; no class covers more pods than the bound.
func checkPatterns(p packing.Problem, b Bound) string {
	sum := map[[2]string]float64{}
	classes := map[int][]int{}
	owner := map[int]int{}
	for i, pat := range b.Patterns {
		sum[[2]string{pat.NodePool, pat.Type}] += pat.Nodes
		held := int64(0)
		for _, pc := range pat.Classes {
			held += pc.Count
			if seen, ok := classes[pc.Class]; ok && !slices.Equal(seen, pc.Pods) {
				return fmt.Sprintf("pattern %d: class %d's pods differ between patterns", i, pc.Class)
			}
			classes[pc.Class] = pc.Pods
			if !slices.IsSorted(pc.Pods) {
				return fmt.Sprintf("pattern %d: class %d's pods are out of order", i, pc.Class)
			}
			for _, k := range pc.Pods {
				if k < 0 || k >= len(p.Pods) {
					return fmt.Sprintf("pattern %d: pod %d out of range", i, k)
				}
				if c, ok := owner[k]; ok && c != pc.Class {
					return fmt.Sprintf("pod %d in classes %d and %d", k, c, pc.Class)
				}
				owner[k] = pc.Class
			}
		}
		if held == 0 {
			return fmt.Sprintf("pattern %d holds no pod", i)
		}
	}
	if len(owner) > b.Pods {
		return fmt.Sprintf("the classes cover %d pods, the bound %d", len(owner), b.Pods)
	}
	if len(sum) != len(b.Configurations) {
		return fmt.Sprintf("%d pools and types in the patterns, %d configurations", len(sum), len(b.Configurations))
	}
	for _, c := range b.Configurations {
		if got := sum[[2]string{c.NodePool, c.Type}]; math.Abs(got-c.Nodes) > 1e-9*max(1, c.Nodes) {
			return fmt.Sprintf("%s/%s: patterns %v nodes, configuration %v", c.NodePool, c.Type, got, c.Nodes)
		}
	}
	return ""
}

func checkConfigurations(p packing.Problem, cs []Configuration) string {
	for i, c := range cs {
		at := slices.IndexFunc(p.NodePools, func(np packing.NodePool) bool { return np.Name == c.NodePool })
		if at < 0 {
			return fmt.Sprintf("configuration %d: no NodePool %q", i, c.NodePool)
		}
		cat := p.Catalog
		if p.NodePools[at].Catalog != nil {
			cat = p.NodePools[at].Catalog
		}
		if _, ok := cat.Get(c.Type); !ok {
			return fmt.Sprintf("configuration %d: NodePool %q has no type %q", i, c.NodePool, c.Type)
		}
		if !(c.Nodes > 0) || math.IsInf(c.Nodes, 0) {
			return fmt.Sprintf("configuration %d: %v nodes", i, c.Nodes)
		}
		if i > 0 && (cs[i-1].NodePool > c.NodePool || cs[i-1].NodePool == c.NodePool && cs[i-1].Type >= c.Type) {
			return fmt.Sprintf("configurations %d and %d are out of order", i-1, i)
		}
	}
	return ""
}

// TestPropertyCertificate re-checks the certificate independently of the
// column generation: the best dual point, scaled by its ρ, is feasible
// for every pattern of every (pool, type, offering) of the input (not only
// the columns the model kept), enumerated in full over the pods' own
// classes and requests (not the model's merged, rounded-down ones: each
// pod is worth its merged class's dual), and for every pattern of every
// existing node; and its objective is the bound reported. It runs with
// the default MaxClasses and with 2, which merges classes on coarse grids,
// and with no search at all, so that every room is priced by its
// Lagrangian and dynamic-programming bounds alone.
func TestPropertyCertificate(t *testing.T) {
	props := problemgen.Properties(2103, 150)
	merged := 0
	props.Property("the certified dual is feasible", prop.ForAll(func(s problemgen.Seeded) string {
		return certified(s.Problem, &merged)
	}, problemgen.GenSeeded(problemgen.Size{Pods: 8, Types: 6, Nodes: 2})))
	props.Property("the certified dual is feasible for the pods of merged classes", prop.ForAll(func(tn tiny) string {
		return certified(tn.p, &merged)
	}, genTiny()))
	props.TestingRun(t)
	if merged == 0 {
		t.Fatal("no model merged classes: the check of merging saw nothing")
	}
	t.Logf("models that merged classes: %d", merged)
}

// certified runs the column generation on p with the default MaxClasses
// and with 2, checks each certificate (checkCert) and counts in merged the
// models that merged classes.
func certified(p packing.Problem, merged *int) string {
	c, err := packing.GroupClasses(p)
	if err != nil {
		return ""
	}
	for _, r := range []struct {
		o          Options
		searchless bool
	}{{}, {o: Options{MaxClasses: 2}}, {searchless: true}} {
		o := r.o
		m := build(&c, nil, o)
		g := &colgen{m: &m, o: o, searchless: r.searchless}
		g.run()
		if g.best <= 0 {
			continue
		}
		if kept := slices.DeleteFunc(slices.Clone(m.of), func(j int) bool { return j < 0 }); len(kept) > len(m.count) {
			*merged++
		}
		if msg := checkCert(&c, &m, g.cert, g.best); msg != "" {
			return fmt.Sprintf("MaxClasses %d, searchless %v: %s\n%s", o.MaxClasses, r.searchless, msg, problemgen.Dump(p))
		}
	}
	return ""
}

// patterns are classes as bestPattern enumerates them: per class its
// requests (over the model's dimensions), its pod count and its dense
// anti-affinity group (-1 none).
type patterns struct {
	req   [][]int64
	count []float64
	group []int
}

// podPatterns are c's own classes, those the model kept, with their exact
// requests and counts, and y mapped onto them: each worth its merged
// class's dual.
func podPatterns(c *packing.Classes, m *model, y []float64) (patterns, []float64) {
	var ps patterns
	yk := make([]float64, len(c.Classes))
	for k, cl := range c.Classes {
		req := make([]int64, len(m.names))
		for d, n := range m.names {
			req[d] = cl.Requests.Get(n)
		}
		ps.req = append(ps.req, req)
		ps.count = append(ps.count, float64(len(cl.Pods)))
		ps.group = append(ps.group, cl.Group)
		if j := m.of[k]; j >= 0 {
			yk[k] = y[j]
		}
	}
	return ps, yk
}

// checkCert checks certificate ct of model m, built from c: every offer
// of c within its pool's limits (an integer test of its own, not the
// model's limitUse), whatever columns the model kept, over c's own
// classes.
func checkCert(c *packing.Classes, m *model, ct cert, best float64) string {
	k := len(m.count)
	y, z := ct.v[:k], ct.v[k:k+m.nz]
	pods, yPods := podPatterns(c, m, y)
	for pl, pr := range c.Pools {
		if pr.NodesLeft <= 0 {
			continue
		}
		pv := m.pools[pl]
		for o, off := range pr.Offers {
			tr := pr.Types[off.Type]
			if slices.ContainsFunc(pr.Limits, func(l resources.Amount) bool { return tr.Capacity.Get(l.Name) > max(l.Value, 0) }) {
				continue // beyond a limit, in integers as packing charges it
			}
			use := make([]float64, len(pv.names))
			for i, n := range pv.names {
				use[i] = 1 // the node count
				if n != packing.LimitNodes {
					use[i] = float64(tr.Capacity.Get(n)) / pv.scale[i]
				}
			}
			var admitted []int32
			for j, cl := range c.Classes {
				if m.of[j] >= 0 && c.Admits(cl.Rules, pl, o) {
					admitted = append(admitted, int32(j))
				}
			}
			alloc := make([]int64, len(m.names))
			for d, n := range m.names {
				alloc[d] = tr.Alloc.Get(n)
			}
			charge := 0.0
			for i, u := range use {
				charge += u * z[pv.first+i]
			}
			limit := off.Price.Dollars() * ct.rho
			if v := bestPattern(pods, yPods, admitted, alloc); v-charge > limit*(1+1e-12)+1e-15 {
				return fmt.Sprintf("pool %s type %s offer %d: pattern worth %v − %v > %v·ρ", pr.Name, tr.Name, o, v, charge, off.Price.Dollars())
			}
		}
	}
	if msg := checkNodes(c, m, ct.w, pods, yPods); msg != "" {
		return msg
	}
	obj := 0.0
	for j, n := range m.count {
		obj += n * y[j]
	}
	for _, pv := range m.pools {
		for i, r := range pv.rhs {
			obj -= r * z[pv.first+i]
		}
	}
	for _, w := range ct.w {
		obj -= w
	}
	if best > obj/ct.rho*(1+1e-9) {
		return fmt.Sprintf("bound %v above the certificate's objective %v", best, obj/ct.rho)
	}
	return ""
}

// checkNodes checks the certificate's w against every existing node of c
// that admits some pod the model kept (those the model has, in c's
// order): no pattern of those pods in the node's free room is worth more
// than its w.
func checkNodes(c *packing.Classes, m *model, w []float64, pods patterns, yPods []float64) string {
	i := 0
	for n, nd := range c.Nodes {
		var admitted []int32
		for k, cl := range c.Classes {
			if m.of[k] >= 0 && c.AdmitsNode(cl.Rules, n) {
				admitted = append(admitted, int32(k))
			}
		}
		if len(admitted) == 0 {
			continue
		}
		if i == len(w) {
			return fmt.Sprintf("node %s admits pods but the certificate has only %d nodes", nd.Name, len(w))
		}
		alloc := make([]int64, len(m.names))
		for d, name := range m.names {
			alloc[d] = nd.Free.Get(name)
		}
		if v := bestPattern(pods, yPods, admitted, alloc); v > w[i]*(1+1e-12)+1e-15 {
			return fmt.Sprintf("node %s: pattern worth %v > w %v", nd.Name, v, w[i])
		}
		i++
	}
	if i != len(w) {
		return fmt.Sprintf("%d nodes admit pods, the certificate has %d", i, len(w))
	}
	return ""
}

// bestPattern enumerates every pattern of the admitted classes in alloc
// (each class at most its count, one for a group's and at most one per
// group) and returns the best value at y.
func bestPattern(m patterns, y []float64, admitted []int32, alloc []int64) float64 {
	left := append([]int64(nil), alloc...)
	used := map[int]bool{}
	var rec func(i int) float64
	rec = func(i int) float64 {
		if i == len(admitted) {
			return 0
		}
		k := admitted[i]
		best := rec(i + 1)
		g := m.group[k]
		if g >= 0 && used[g] {
			return best
		}
		limit := int64(m.count[k])
		if g >= 0 {
			limit = 1
		}
		for n := int64(1); n <= limit; n++ {
			fits := true
			for d, r := range m.req[k] {
				fits = fits && r*n <= left[d]
			}
			if !fits {
				break
			}
			for d, r := range m.req[k] {
				left[d] -= r * n
			}
			if g >= 0 {
				used[g] = true
			}
			best = max(best, float64(n)*max(y[k], 0)+rec(i+1))
			if g >= 0 {
				used[g] = false
			}
			for d, r := range m.req[k] {
				left[d] += r * n
			}
		}
		return best
	}
	return rec(0)
}

// tiny is a problem brute force solves: one pool, up to 6 pods (some in a
// hostname anti-affinity group), up to 3 types in one zone, maybe a
// daemonset.
type tiny struct {
	p     packing.Problem
	kinds []kind
	ds    int64
}

func genTiny() gopter.Gen {
	return gen.UInt64().Map(func(seed uint64) tiny {
		r := rand.New(rand.NewPCG(seed, 21))
		var tn tiny
		for i := range 1 + r.IntN(3) {
			tn.kinds = append(tn.kinds, kind{name: fmt.Sprintf("t%d", i), cpu: 1000 * int64(1+r.IntN(6)), mem: int64(1 + r.IntN(8)),
				pods: int64(2 + r.IntN(6)), priceA: float64(1+r.IntN(40)) / 100})
		}
		var ps []packing.Pod
		for i := range 1 + r.IntN(6) {
			p := pod(fmt.Sprintf("p%d", i), 100*int64(1+r.IntN(30)), 256*int64(1+r.IntN(16)))
			if r.IntN(3) == 0 {
				p = anti(p, "x")
			}
			ps = append(ps, p)
		}
		tn.p = packing.Problem{Pods: ps, NodePools: []packing.NodePool{pool("default")}, Catalog: catalogOf(tn.kinds)}
		if r.IntN(2) == 0 {
			tn.ds = 100 * int64(r.IntN(10))
			tn.p.DaemonSets = []packing.DaemonSet{{Name: "ds", Requests: resources.List{CPU: tn.ds}}}
		}
		return tn
	})
}

func catalogOf(kinds []kind) *instancetypes.Catalog {
	types := make([]instancetypes.InstanceType, len(kinds))
	for i, k := range kinds {
		types[i] = k.build()
	}
	c, err := instancetypes.New(types)
	if err != nil {
		panic(err)
	}
	return c
}

// bruteForce is the cheapest plan of tn: every partition of the pods into
// nodes, each node the cheapest type that holds its pods (with the
// daemonset and one pod slot each, at most one pod of the group); +Inf
// when some pod fits no type.
func bruteForce(tn tiny) float64 {
	n := len(tn.p.Pods)
	bins := make([]int, n)
	best := math.Inf(1)
	var rec func(i, used int)
	rec = func(i, used int) {
		if i == n {
			total := 0.0
			for b := range used {
				total += tn.nodeCost(bins, b)
			}
			best = min(best, total)
			return
		}
		for b := 0; b <= used; b++ {
			bins[i] = b
			rec(i+1, max(used, b+1))
		}
	}
	rec(0, 0)
	return best
}

func (tn tiny) nodeCost(bins []int, b int) float64 {
	var cpu, mem, pods int64
	group := 0
	for i, p := range tn.p.Pods {
		if bins[i] == b {
			cpu, mem, pods = cpu+p.Requests.CPU, mem+p.Requests.Memory, pods+1
			if len(p.AntiAffinity) > 0 {
				group++
			}
		}
	}
	if group > 1 {
		return math.Inf(1)
	}
	best := math.Inf(1)
	for _, k := range tn.kinds {
		dsPods := int64(len(tn.p.DaemonSets)) // a daemonset takes a pod slot, whatever it requests
		if cpu+tn.ds <= k.cpu && mem <= k.mem*gib && pods+dsPods <= k.pods {
			best = min(best, k.priceA)
		}
	}
	return best
}

// TestPropertyBelowBruteForce: on tiny problems the bound never exceeds
// the optimum found by brute force.
func TestPropertyBelowBruteForce(t *testing.T) {
	props := problemgen.Properties(2104, 300)
	props.Property("Of(p) ≤ the optimum", prop.ForAll(func(tn tiny) string {
		opt := bruteForce(tn)
		b, err := Of(tn.p, Options{})
		switch {
		case err != nil:
			return err.Error()
		case b.Unplaceable > 0 || math.IsInf(opt, 1):
			return ""
		case b.Dollars > opt*(1+1e-9):
			return fmt.Sprintf("bound %+v above the optimum %v of %s", b, opt, problemgen.Dump(tn.p))
		}
		return ""
	}, genTiny()))
	props.TestingRun(t)
}
