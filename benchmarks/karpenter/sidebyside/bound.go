package sidebyside

import (
	"errors"
	"fmt"
	"maps"
	"math"
	"slices"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/optimize/convex/lp"

	"github.com/nodeplan/nodeplan/benchmarks/workload"
	"github.com/nodeplan/nodeplan/instancetypes"
	"github.com/nodeplan/nodeplan/packing"
	"github.com/nodeplan/nodeplan/requirements"
	"github.com/nodeplan/nodeplan/resources"
)

// ErrBound is returned when the cutting-plane loop of [LowerBound] does not
// converge or gonum's simplex fails.
var ErrBound = errors.New("sidebyside: lower bound")

// Bound is a certified lower bound on the $/h of any plan that places every
// pod of a workload some node could hold. PricePerHour is the largest of
// the three bounds below; Unplaceable counts the pods no instance type of
// any NodePool fits alone, left out of every bound. The zero Bound is the
// bound of an empty workload.
type Bound struct {
	PricePerHour float64
	// LP is the LP relaxation of covering the summed demand; see LowerBound.
	LP float64
	// AntiAffinity is the largest, over groups of pods that exclude each
	// other by required hostname anti-affinity, of the summed cheapest node
	// each member fits alone.
	AntiAffinity float64
	// SinglePod is the price of the cheapest node the most demanding pod
	// fits alone.
	SinglePod float64
	// MinNodes is the size of the largest anti-affinity group: any plan has
	// at least that many nodes.
	MinNodes    int
	Unplaceable int
}

// LowerBound returns a lower bound on the hourly price of any plan for w, as
// the largest of three bounds, each of which every feasible plan P (every
// pod placed on one node of a type and offering its NodePool admits, no
// node over allocatable) must pay:
//
//   - SinglePod: some node of P holds pod p, so P costs at least the
//     cheapest (type, NodePool) offering that fits p alone and admits it.
//   - AntiAffinity: the k members of an anti-affinity group (pods carrying
//     the same required hostname anti-affinity term and matching its
//     selector) sit on k distinct nodes, node i holding member i, so P costs
//     at least the sum of each member's SinglePod price.
//   - LP: let x_t be the number of nodes of type t in P, and c_t the
//     cheapest offering of t any NodePool admits. Since each pod sits on
//     one node and no node is over allocatable, Σ_t alloc_{t,r}·x_t ≥ d_r
//     for r in cpu, memory, pods (one per pod), each extended resource, and
//     Σ_t x_t ≥ MinNodes; P costs at least Σ_t c_t·x_t. Relaxing x to reals
//     gives the LP  min Σ c_t x_t  s.t.  A x ≥ d, x ≥ 0, and any plan costs
//     at least its optimum. Only types that fit some pod alone enter (a
//     node holding no pod can be dropped from P at no loss). The value
//     reported is not the simplex's primal objective but dᵀy for a dual
//     vector y ≥ 0 checked, type by type, to satisfy Aᵀy ≤ c (scaled down
//     until it does): by weak duality dᵀy ≤ c·x for every x ≥ 0 with
//     A x ≥ d, so the bound holds whatever the solver's rounding.
//
// The dual is solved by cutting planes: gonum's simplex on the dual
// restricted to a few types, adding the most violated type until none is.
// Demands here are sums, so the LP ignores fragmentation, node selectors
// per pod and topology; it is weakest on workloads of mixed shapes. The
// complexity is O(pods × types) for the fit checks plus a few small LPs.
func LowerBound(w workload.Workload) (Bound, error) {
	p, err := nodeplanProblem(w)
	if err != nil {
		return Bound{}, err
	}
	e := newBoundEnv(p)
	var b Bound
	single, ok := e.singlePodPrices()
	b.Unplaceable = len(p.Pods) - len(single)
	for _, price := range single {
		b.SinglePod = max(b.SinglePod, price)
	}
	b.AntiAffinity, b.MinNodes = e.antiAffinity(single)
	b.LP, err = e.cover(ok, single, b.MinNodes)
	b.PricePerHour = max(b.LP, b.AntiAffinity, b.SinglePod)
	return b, err
}

// boundType is one instance type a NodePool admits: the pool's merged
// requirements and taints, and the cheapest offering it allows.
type boundType struct {
	t      *instancetypes.InstanceType
	reqs   requirements.Set
	taints []requirements.Taint
	price  float64
}

type boundEnv struct {
	p     packing.Problem
	types []boundType // (type, pool) pairs with a usable offering
}

func newBoundEnv(p packing.Problem) *boundEnv {
	e := &boundEnv{p: p}
	for _, t := range p.Catalog.Types() {
		for _, pool := range p.NodePools {
			if t.Requirements.Intersects(pool.Requirements) != nil {
				continue
			}
			reqs := t.Requirements.Intersect(pool.Requirements)
			if o, ok := t.Cheapest(reqs); ok {
				e.types = append(e.types, boundType{t: t, reqs: reqs, taints: pool.Taints, price: o.Price.Dollars()})
			}
		}
	}
	return e
}

// singlePodPrices maps each placeable pod to its cheapest single-pod node,
// and reports which boundTypes fit at least one pod.
func (e *boundEnv) singlePodPrices() (map[int]float64, []bool) {
	used := make([]bool, len(e.types))
	out := map[int]float64{}
	for i := range e.p.Pods {
		pod := &e.p.Pods[i]
		need := pod.Requests.Add(resources.List{Pods: 1})
		for j := range e.types {
			bt := &e.types[j]
			if !need.Fits(bt.t.Allocatable) || !admits(bt.reqs, bt.taints, pod) {
				continue
			}
			used[j] = true
			if v, ok := out[i]; !ok || bt.price < v {
				out[i] = bt.price
			}
		}
	}
	return out, used
}

func admits(reqs requirements.Set, taints []requirements.Taint, p *packing.Pod) bool {
	if requirements.Tolerates(p.Tolerations, taints) != nil {
		return false
	}
	for _, alt := range p.NodeAffinity.Alternatives() {
		if reqs.Compatible(alt) == nil {
			return true
		}
	}
	return false
}

// antiAffinity returns the best anti-affinity group bound and the largest
// group's size. A group is the placeable pods that carry one same required
// hostname anti-affinity term and match its selector: each selects all the
// others, so no two share a node.
func (e *boundEnv) antiAffinity(single map[int]float64) (float64, int) {
	sums, sizes := map[string]float64{}, map[string]int{}
	for _, i := range slices.Sorted(maps.Keys(single)) {
		pod := &e.p.Pods[i]
		for _, t := range hostnameTerms(pod.AntiAffinity) {
			if inNamespaces(t, pod, pod) && t.Selector.Matches(pod.Labels) == nil {
				key := fmt.Sprint(pod.Namespace, t.Namespaces, t.AllNamespaces, t.Selector.String())
				sums[key] += single[i]
				sizes[key]++
			}
		}
	}
	best, nodes := 0.0, 0
	for _, k := range slices.Sorted(maps.Keys(sums)) {
		best, nodes = max(best, sums[k]), max(nodes, sizes[k])
	}
	return best, nodes
}

// lpRow is one covering constraint: the demand and each type's supply.
type lpRow struct {
	demand float64
	supply func(bt *boundType) float64
}

// cover builds the covering rows for the types in use and solves their dual.
func (e *boundEnv) cover(used []bool, single map[int]float64, minNodes int) (float64, error) {
	var types []*boundType
	for j := range e.types {
		if used[j] {
			types = append(types, &e.types[j])
		}
	}
	rows := e.rows(single, minNodes)
	if len(types) == 0 || len(rows) == 0 {
		return 0, nil
	}
	return solveDual(types, rows)
}

// rows are the demands of the placeable pods with a positive total.
func (e *boundEnv) rows(single map[int]float64, minNodes int) []lpRow {
	var total resources.List
	for i := range single {
		total = total.Add(e.p.Pods[i].Requests)
	}
	total.Pods = int64(len(single))
	rows := []lpRow{
		{float64(total.CPU), func(bt *boundType) float64 { return float64(bt.t.Allocatable.CPU) }},
		{float64(total.Memory), func(bt *boundType) float64 { return float64(bt.t.Allocatable.Memory) }},
		{float64(total.Pods), func(bt *boundType) float64 { return float64(bt.t.Allocatable.Pods) }},
		{float64(minNodes), func(*boundType) float64 { return 1 }},
	}
	for name, v := range total.Extended() {
		rows = append(rows, lpRow{float64(v), func(bt *boundType) float64 { return float64(bt.t.Allocatable.Get(name)) }})
	}
	return slices.DeleteFunc(rows, func(r lpRow) bool { return r.demand <= 0 })
}

// solveDual maximises dᵀy over y ≥ 0 with supply_tᵀy ≤ c_t for every type,
// by cutting planes, and returns dᵀy for a y verified feasible.
func solveDual(types []*boundType, rows []lpRow) (float64, error) {
	supply := make([][]float64, len(types))
	for j, bt := range types {
		supply[j] = make([]float64, len(rows))
		for r := range rows {
			supply[j][r] = rows[r].supply(bt) / rows[r].demand // rows scaled to demand 1
		}
	}
	active := seedCuts(types, supply)
	for range 200 {
		y, err := restrictedDual(types, supply, active)
		if err != nil {
			return 0, err
		}
		j, scale := mostViolated(types, supply, y)
		if scale >= 1-1e-9 || slices.Contains(active, j) {
			return certified(y, scale), nil
		}
		active = append(active, j)
	}
	return 0, fmt.Errorf("%w: cutting planes did not converge", ErrBound)
}

// seedCuts starts with, per row, the type of the lowest price per unit of
// supply, which bounds every dual variable.
func seedCuts(types []*boundType, supply [][]float64) []int {
	var active []int
	for r := range supply[0] {
		best := -1
		for j := range types {
			if supply[j][r] > 0 && (best < 0 || types[j].price/supply[j][r] < types[best].price/supply[best][r]) {
				best = j
			}
		}
		if best >= 0 && !slices.Contains(active, best) {
			active = append(active, best)
		}
	}
	return active
}

// restrictedDual solves max Σ y_r s.t. supply_jᵀy ≤ c_j (j active), y ≥ 0,
// in gonum's standard form: min −1ᵀy s.t. [S I][y; u] = c, y, u ≥ 0, with
// the slack basis (y = 0) as the starting point.
func restrictedDual(types []*boundType, supply [][]float64, active []int) ([]float64, error) {
	m, n := len(active), len(supply[0])
	a := mat.NewDense(m, n+m, nil)
	b := make([]float64, m)
	basic := make([]int, m)
	for i, j := range active {
		for r := range n {
			a.Set(i, r, supply[j][r])
		}
		a.Set(i, n+i, 1)
		b[i], basic[i] = types[j].price, n+i
	}
	c := make([]float64, n+m)
	for r := range n {
		c[r] = -1
	}
	_, x, err := lp.Simplex(c, a, b, 1e-12, basic)
	if err != nil {
		return nil, fmt.Errorf("%w: simplex: %w", ErrBound, err)
	}
	y := x[:n]
	for r := range y {
		y[r] = max(y[r], 0)
	}
	return y, nil
}

// mostViolated returns the type whose constraint y violates most and the
// factor (≤ 1) that makes y feasible for every type.
func mostViolated(types []*boundType, supply [][]float64, y []float64) (int, float64) {
	worst, scale := 0, 1.0
	for j := range types {
		used := 0.0
		for r, v := range y {
			used += supply[j][r] * v
		}
		if used > 0 && types[j].price/used < scale {
			worst, scale = j, types[j].price/used
		}
	}
	return worst, scale
}

// certified is dᵀ(scale·y) in the scaled rows (every demand 1), shaved by a
// relative 1e-12 for the rounding of the feasibility check itself.
func certified(y []float64, scale float64) float64 {
	sum := 0.0
	for _, v := range y {
		sum += v
	}
	return math.Max(0, sum*scale*(1-1e-12))
}
