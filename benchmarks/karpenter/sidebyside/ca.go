package sidebyside

import (
	"cmp"
	"fmt"
	"slices"
	"time"

	"github.com/nodeplan/nodeplan/benchmarks/workload"
	"github.com/nodeplan/nodeplan/instancetypes"
	"github.com/nodeplan/nodeplan/packing"
	"github.com/nodeplan/nodeplan/requirements"
	"github.com/nodeplan/nodeplan/resources"
)

// Expander is the Cluster Autoscaler expander of the model. The zero
// Expander is ExpanderLeastWaste.
type Expander uint8

const (
	// ExpanderLeastWaste picks the option wasting the least cpu plus memory.
	ExpanderLeastWaste Expander = iota
	// ExpanderPrice picks the option with the lowest $/h per pod it helps.
	ExpanderPrice
)

// String returns CA's name of the expander: "least-waste" or "price".
func (e Expander) String() string {
	switch e {
	case ExpanderLeastWaste:
		return "least-waste"
	case ExpanderPrice:
		return "price"
	}
	return fmt.Sprintf("Expander(%d)", uint8(e))
}

// CAOptions configure the Cluster Autoscaler model. The zero value uses the
// least-waste expander and [DefaultNodeGroups].
type CAOptions struct {
	Expander Expander
	// NodeGroups are the instance types that get a node group; names the
	// catalog lacks are an error. Nil means DefaultNodeGroups.
	NodeGroups []string
}

// defaultAWSGroups are the node groups of AWS workloads: the general
// purpose, compute and memory families of the current and previous Intel
// generations from large to 4xlarge, and two NVIDIA T4 sizes, as a
// cluster's hand-made node groups typically are.
var defaultAWSGroups = []string{
	"m5.large", "m5.xlarge", "m5.2xlarge", "m5.4xlarge",
	"m6i.large", "m6i.xlarge", "m6i.2xlarge", "m6i.4xlarge",
	"c5.large", "c5.xlarge", "c5.2xlarge", "c5.4xlarge",
	"c6i.large", "c6i.xlarge", "c6i.2xlarge", "c6i.4xlarge",
	"r5.large", "r5.xlarge", "r5.2xlarge", "r5.4xlarge",
	"r6i.large", "r6i.xlarge", "r6i.2xlarge", "r6i.4xlarge",
	"g4dn.xlarge", "g4dn.2xlarge",
}

// DefaultNodeGroups returns the node groups the model uses for w: for
// workloads on the embedded AWS catalog a fixed list of 26 common types (m5,
// m6i, c5, c6i, r5 and r6i in large, xlarge, 2xlarge and 4xlarge, and
// g4dn.xlarge and g4dn.2xlarge); for workloads that carry their own
// instance types, those at positions 1, 2, 4, 8, … of w.InstanceTypes (on
// the fake catalog: 1, 2, 4, … 256 cores, nine groups), as hand-made node
// groups commonly double in size — a group per type of a 400-type catalog
// is neither what clusters run nor fast to simulate. The result is a new
// slice.
func DefaultNodeGroups(w workload.Workload) []string {
	if w.Catalog == workload.CatalogAWS {
		return slices.Clone(defaultAWSGroups)
	}
	var names []string
	for i := 1; i <= len(w.InstanceTypes); i *= 2 {
		names = append(names, w.InstanceTypes[i-1].Name)
	}
	return names
}

// CARun is a prepared Cluster Autoscaler model of one workload. It is
// single-use in the sense that Solve may be called again and recomputes from
// scratch; it is not safe for concurrent use.
type CARun struct {
	pods     []caPod
	groups   []caGroup
	expander Expander
}

// caGroup is one node group: the template's allocatable and capacity, its
// labels, taints and price.
type caGroup struct {
	name     string
	reqs     requirements.Set
	taints   []requirements.Taint
	alloc    resources.List
	capacity resources.List
	price    instancetypes.Price
}

// caPod is a pending pod with what the predicates need precomputed: its
// requests plus its pod slot, and which groups admit it.
type caPod struct {
	pod    *packing.Pod
	need   resources.List
	admits []bool // by group
	anti   []packing.PodAffinityTerm
	spread []packing.TopologySpread
}

// caNode is a node of the model: its group, its used resources and pods.
type caNode struct {
	group int
	used  resources.List
	pods  []int
	anti  bool // some pod on it has a required hostname anti-affinity
}

// RunClusterAutoscaler models how Cluster Autoscaler (CA) scales up an
// empty cluster for the same pending pods, given predefined node groups.
//
// Modelled:
//   - Node groups: one per instance type of [CAOptions.NodeGroups] (default
//     [DefaultNodeGroups]). A group belongs to the heaviest NodePool (ties by
//     name) whose requirements the type meets with a compatible offering; its
//     template node is that type with the pool's requirements and taints, and
//     its price the cheapest such offering (on-demand for on-demand pools).
//     Types no NodePool admits form no group. Group size limits are
//     unbounded.
//   - Filter-out-schedulable: at the start of every loop the pending pods,
//     in input order, first fit onto the free space of the nodes already
//     added, as CA lets the scheduler use upcoming nodes.
//   - Estimator: per group, CA's binpacking estimator — the pending pods that
//     pass the group's predicates, sorted by cpu/allocatable +
//     memory/allocatable of the template (decreasing, ties by input order),
//     each placed on the first estimated node it fits, else on a new node of
//     the template; a pod that does not fit an empty template is not helped
//     by the group.
//   - Predicates: resources (cpu, memory, extended resources such as GPUs,
//     one pod slot each) against allocatable, the required node affinity
//     and nodeSelector against the template's labels, the NodePool taints
//     against the pod's tolerations, required pod anti-affinity on
//     kubernetes.io/hostname in both directions, and hostname topology spread
//     (DoNotSchedule) as "at most MaxSkew matching pods per node", the
//     minimum being a node with none.
//   - Expanders, choosing ONE group per loop: least-waste (lowest
//     (capacity − requested)/capacity summed over cpu and memory for the
//     option's nodes, as CA's least-waste reads the template's capacity) or
//     price (lowest option $/h per pod it helps). CA breaks remaining ties at
//     random; the model breaks them by more pods helped, then lower option
//     $/h, then group name. The chosen group grows by the estimate and its
//     pods count as placed; loops repeat until no group helps a pending pod,
//     and what is left is unschedulable.
//
// Not modelled: zone-level constraints (zone topology spread, zone pod
// affinity and anti-affinity) are taken as satisfied — the model's groups
// span the zones, whereas a real CA group template carries one zone and
// needs one group per zone with balance-similar-node-groups; required pod
// affinity on hostname; preferences (CA's estimator runs filters only);
// NodePool limits (CA's --cores-total/--memory-total); the price expander's
// node-size unfitness penalty and GCE-only pricing model; the 10 s loop, the
// node provisioning delay and scale-up caps (--max-nodes-total,
// --max-node-group-binpacking-duration); daemonsets; existing nodes.
// ScheduleAnyway spreads and preferred terms are ignored.
//
// It prepares and solves w once; see [PrepareClusterAutoscaler].
func RunClusterAutoscaler(w workload.Workload, opts CAOptions) (Result, error) {
	r, err := PrepareClusterAutoscaler(w, opts)
	if err != nil {
		return Result{}, err
	}
	return r.Solve()
}

// PrepareClusterAutoscaler converts w as for nodeplan and builds the node
// groups and the pod × group predicate table. It does not modify w. The
// complexity is O(groups × distinct pod constraints + pods × groups).
func PrepareClusterAutoscaler(w workload.Workload, opts CAOptions) (*CARun, error) {
	p, err := nodeplanProblem(w)
	if err != nil {
		return nil, err
	}
	names := opts.NodeGroups
	if names == nil {
		names = DefaultNodeGroups(w)
	}
	groups, err := caGroups(p, names)
	if err != nil {
		return nil, fmt.Errorf("workload %q: %w", w.Name, err)
	}
	return &CARun{pods: caPods(p, groups), groups: groups, expander: opts.Expander}, nil
}

// caGroups builds the node groups of the named types, sorted by name.
func caGroups(p packing.Problem, names []string) ([]caGroup, error) {
	pools := slices.Clone(p.NodePools)
	slices.SortStableFunc(pools, func(a, b packing.NodePool) int {
		return cmp.Or(cmp.Compare(b.Weight, a.Weight), cmp.Compare(a.Name, b.Name))
	})
	sorted := slices.Sorted(slices.Values(names))
	var groups []caGroup
	for _, name := range slices.Compact(sorted) {
		t, ok := p.Catalog.Get(name)
		if !ok {
			return nil, fmt.Errorf("node group %q: %w", name, ErrUnknownInstanceType)
		}
		if g, ok := caGroupOf(t, pools); ok {
			groups = append(groups, g)
		}
	}
	return groups, nil
}

func caGroupOf(t *instancetypes.InstanceType, pools []packing.NodePool) (caGroup, bool) {
	for _, pool := range pools {
		if t.Requirements.Intersects(pool.Requirements) != nil {
			continue
		}
		reqs := t.Requirements.Intersect(pool.Requirements)
		if o, ok := t.Cheapest(reqs); ok {
			return caGroup{name: t.Name, reqs: reqs, taints: pool.Taints, alloc: t.Allocatable,
				capacity: t.Capacity, price: o.Price}, true
		}
	}
	return caGroup{}, false
}

// caPods precomputes the predicates; pods of equal node affinity and
// tolerations share one check per group.
func caPods(p packing.Problem, groups []caGroup) []caPod {
	cache := map[string][]bool{}
	out := make([]caPod, len(p.Pods))
	for i := range p.Pods {
		pod := &p.Pods[i]
		key := constraintKey(pod)
		admits, ok := cache[key]
		if !ok {
			admits = make([]bool, len(groups))
			for g := range groups {
				admits[g] = groupAdmits(&groups[g], pod)
			}
			cache[key] = admits
		}
		out[i] = caPod{pod: pod, need: pod.Requests.Add(resources.List{Pods: 1}), admits: admits,
			anti: hostnameTerms(pod.AntiAffinity), spread: hostnameSpreads(pod.TopologySpread)}
	}
	return out
}

func constraintKey(p *packing.Pod) string {
	key := fmt.Sprint(p.Tolerations, "|")
	for _, alt := range p.NodeAffinity.Alternatives() {
		key += alt.String() + "|"
	}
	return key
}

// groupAdmits checks the template-level predicates: node affinity, taints.
// Resources are checked per pod when placing.
func groupAdmits(g *caGroup, p *packing.Pod) bool {
	if requirements.Tolerates(p.Tolerations, g.taints) != nil {
		return false
	}
	for _, alt := range p.NodeAffinity.Alternatives() {
		if g.reqs.Compatible(alt) == nil {
			return true
		}
	}
	return false
}

func hostnameTerms(ts []packing.PodAffinityTerm) []packing.PodAffinityTerm {
	var out []packing.PodAffinityTerm
	for _, t := range ts {
		if t.Weight == 0 && t.TopologyKey == requirements.LabelHostname {
			out = append(out, t)
		}
	}
	return out
}

func hostnameSpreads(ss []packing.TopologySpread) []packing.TopologySpread {
	var out []packing.TopologySpread
	for _, s := range ss {
		if s.WhenUnsatisfiable == packing.DoNotSchedule && s.TopologyKey == requirements.LabelHostname {
			out = append(out, s)
		}
	}
	return out
}

// Solve runs the scale-up loop and reports the nodes added, their price and
// the pods they hold. Duration covers the loop only. The complexity is
// O(loops × groups × pods × nodes) in the worst case.
func (r *CARun) Solve() (Result, error) {
	start := time.Now()
	sim := caSim{run: r, placed: make([]bool, len(r.pods))}
	for {
		sim.filterOutSchedulable()
		opt, ok := sim.bestOption()
		if !ok {
			break
		}
		sim.commit(opt)
	}
	res := Result{Pods: len(r.pods), NodeClaims: len(sim.nodes), Duration: time.Since(start)}
	for _, n := range sim.nodes {
		res.Scheduled += len(n.pods)
		res.PricePerHour += r.groups[n.group].price.Dollars()
	}
	return res, nil
}

// caSim is the state of one Solve: the nodes added and the pods placed.
type caSim struct {
	run    *CARun
	nodes  []caNode
	placed []bool
}

// caOption is one group's estimate: the new nodes and the pods they help.
type caOption struct {
	group  int
	nodes  []caNode
	helped int
}

func (s *caSim) filterOutSchedulable() {
	for i := range s.run.pods {
		if !s.placed[i] {
			s.placed[i] = s.firstFit(s.nodes, i)
		}
	}
}

// firstFit places pod i on the first node of nodes it fits and reports
// whether it did.
func (s *caSim) firstFit(nodes []caNode, i int) bool {
	for k := range nodes {
		if s.fits(&nodes[k], i) {
			s.place(&nodes[k], i)
			return true
		}
	}
	return false
}

func (s *caSim) place(n *caNode, i int) {
	p := &s.run.pods[i]
	n.used = n.used.Add(p.need)
	n.pods = append(n.pods, i)
	n.anti = n.anti || len(p.anti) > 0
}

// fits checks the node-level predicates for pod i on n.
func (s *caSim) fits(n *caNode, i int) bool {
	p := &s.run.pods[i]
	if !p.admits[n.group] || !n.used.Add(p.need).Fits(s.run.groups[n.group].alloc) {
		return false
	}
	if len(p.anti) == 0 && len(p.spread) == 0 && !n.anti {
		return true
	}
	return s.antiAffinityOK(n, p) && s.spreadOK(n, p)
}

func (s *caSim) antiAffinityOK(n *caNode, p *caPod) bool {
	for _, j := range n.pods {
		q := &s.run.pods[j]
		if termsSelect(p.anti, p.pod, q.pod) || termsSelect(q.anti, q.pod, p.pod) {
			return false
		}
	}
	return true
}

// termsSelect reports whether one of owner's terms selects target.
func termsSelect(terms []packing.PodAffinityTerm, owner, target *packing.Pod) bool {
	for _, t := range terms {
		if inNamespaces(t, owner, target) && t.Selector.Matches(target.Labels) == nil {
			return true
		}
	}
	return false
}

func inNamespaces(t packing.PodAffinityTerm, owner, target *packing.Pod) bool {
	if t.AllNamespaces {
		return true
	}
	if len(t.Namespaces) == 0 {
		return owner.Namespace == target.Namespace
	}
	return slices.Contains(t.Namespaces, target.Namespace)
}

// spreadOK allows at most MaxSkew pods matching each hostname spread on a
// node, counting p itself when it matches.
func (s *caSim) spreadOK(n *caNode, p *caPod) bool {
	for _, c := range p.spread {
		count := 0
		if c.Selector.Matches(p.pod.Labels) == nil {
			count++
		}
		for _, j := range n.pods {
			q := s.run.pods[j].pod
			if q.Namespace == p.pod.Namespace && c.Selector.Matches(q.Labels) == nil {
				count++
			}
		}
		if count > int(c.MaxSkew) {
			return false
		}
	}
	return true
}

// bestOption estimates every group and lets the expander choose; false when
// no group helps a pending pod.
func (s *caSim) bestOption() (caOption, bool) {
	var best caOption
	found := false
	for g := range s.run.groups {
		opt := s.estimate(g)
		if opt.helped > 0 && (!found || s.better(opt, best)) {
			best, found = opt, true
		}
	}
	return best, found
}

// estimate is CA's binpacking estimator for group g over the pending pods.
func (s *caSim) estimate(g int) caOption {
	group := &s.run.groups[g]
	order := s.pending(g)
	score := func(i int) float64 {
		need := s.run.pods[i].need
		return float64(need.CPU)/float64(max(group.alloc.CPU, 1)) + float64(need.Memory)/float64(max(group.alloc.Memory, 1))
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(score(b), score(a)) })
	opt := caOption{group: g}
	for _, i := range order {
		if s.firstFit(opt.nodes, i) {
			opt.helped++
			continue
		}
		n := caNode{group: g}
		if s.fits(&n, i) {
			s.place(&n, i)
			opt.nodes = append(opt.nodes, n)
			opt.helped++
		}
	}
	return opt
}

// pending lists the unplaced pods group g admits, in input order.
func (s *caSim) pending(g int) []int {
	var out []int
	for i, p := range s.run.pods {
		if !s.placed[i] && p.admits[g] {
			out = append(out, i)
		}
	}
	return out
}

func (s *caSim) better(a, b caOption) bool {
	var c int
	switch s.run.expander {
	case ExpanderPrice:
		c = cmp.Compare(s.pricePerPod(a), s.pricePerPod(b))
	default:
		c = cmp.Compare(s.waste(a), s.waste(b))
	}
	return cmp.Or(c, cmp.Compare(b.helped, a.helped), cmp.Compare(s.optionPrice(a), s.optionPrice(b)),
		cmp.Compare(s.run.groups[a.group].name, s.run.groups[b.group].name)) < 0
}

// waste is least-waste's score: the unrequested fraction of the option's
// cpu capacity plus that of its memory capacity.
func (s *caSim) waste(o caOption) float64 {
	capacity := s.run.groups[o.group].capacity
	var cpu, memory int64
	for _, n := range o.nodes {
		for _, i := range n.pods {
			cpu += s.run.pods[i].pod.Requests.CPU
			memory += s.run.pods[i].pod.Requests.Memory
		}
	}
	nodes := float64(len(o.nodes))
	availCPU, availMemory := nodes*float64(capacity.CPU), nodes*float64(capacity.Memory)
	return (availCPU-float64(cpu))/availCPU + (availMemory-float64(memory))/availMemory
}

func (s *caSim) optionPrice(o caOption) instancetypes.Price {
	return s.run.groups[o.group].price * instancetypes.Price(len(o.nodes))
}

func (s *caSim) pricePerPod(o caOption) float64 {
	return s.optionPrice(o).Dollars() / float64(o.helped)
}

// commit adds the option's nodes and marks its pods placed.
func (s *caSim) commit(o caOption) {
	for _, n := range o.nodes {
		for _, i := range n.pods {
			s.placed[i] = true
		}
		s.nodes = append(s.nodes, n)
	}
}
