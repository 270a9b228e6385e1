package packing

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/nodeplan/nodeplan/instancetypes"
	"github.com/nodeplan/nodeplan/internal/bitset"
	"github.com/nodeplan/nodeplan/requirements"
	"github.com/nodeplan/nodeplan/resources"
)

// run is one first-fit-decreasing pass over the pods with one claim-choice
// strategy. Runs of one Solve share a static, read-only.
type run struct {
	s      *static
	cost   bool // choose claims by marginal cost, not fewest pods first
	nodes  []*nodeT
	free   *freeTree // the nodes' free cpu and memory, for first fit
	claims []*claim
	byPods []*claim // Plain only: claims in Karpenter's order (see place)
	slack  *slackIndex
	// dcounts and others count, per counter, the pods it counts in each
	// domain, each domain in one of them (see tally): dcounts the known
	// domains of a key other than the hostname, by their index in
	// static.domains; others, a map made on first use, the rest. total
	// is their sum per counter, kept so that "does any pod count" is O(1).
	dcounts [][]int32
	others  []map[string]int32
	total   []int32
	anti    []map[string]int32 // per counter: domain -> pods whose required anti-affinity uses it
	states  []podState
	where   []int // per pod: node index, or -(claim index)-2; -1 unplaced
	order   []int
	usedLim [][]int64 // per pool: capacity committed in each limited resource
	count   []int64   // per pool: nodes
	*memo
	fails []Reason
	held  map[reservation]int // claims holding each reservation
	fresh []claim             // per pool: scratch for trying a new claim
	// hostTaken counts, per counter, the claims holding a pod it counts.
	hostTaken []int32
	seq       sequence // the order pods are taken in
	// tie breaks ties at random in a restart (nil in a greedy pass);
	// ties counts the random choices among two or more.
	tie  *rand.Rand
	ties int
	// gen changes whenever a memoized minCount may change: at every
	// placement attempt and every recorded pod. minMemo holds, per
	// counter, the last minCount computed.
	gen     uint64
	minMemo []minEntry
	// work counts the domains and types the topology checks visit, so
	// that a test can bound their cost without a clock.
	work int
}

// podState is how far a pod's preferences have been relaxed.
type podState struct {
	alt, pref    int
	drop         [kindCount]int
	tolerateSoft bool
}

// nodeT is an existing node during a run.
type nodeT struct {
	n      *Node
	labels map[string]string // static.labels of n: shared by the passes, read-only
	taints []requirements.Taint
	free   resources.List
	ports  []HostPort
	pods   []int
}

// claim is a NodeClaim being built.
type claim struct {
	id       int
	name     string
	pl       *pool
	pi       int
	reqs     requirements.Set
	sigs     []int32
	cand     bitset.Set
	cheap    int
	used     resources.List
	maxAlloc resources.List
	maxCount int // candidates when maxAlloc was computed
	pos      int // index in run.byPods
	// cut counts, per core dimension, the pool's smallest types trim has
	// removed; pinned lists the pins folded into reqs.
	cut    [dims]int
	pinned []pin
	pods   []int
	ports  []HostPort
	// hostCounts counts, per hostname-keyed counter, the pods on c it counts.
	hostCounts map[int32]int32
	// resv is the capacity reservation c's committed type launches on.
	resv      reservation
	hasResv   bool
	resvUnits int
	gone      bool      // merged into another claim (see merge)
	mv        mergeView // set and kept by merge
}

// memo is what runs of one solve may share when they run one after
// another: it depends on the problem alone, not on the placements.
// Its scratch buffers serve one pass at a time.
type memo struct {
	sigs   map[string]int32
	bits   [][]bitset.Set // per signature, per pool: compatible types
	reqsOf []requirements.Set
	prices map[priceKey][]option // see priced
	names  map[[2]int]string     // claim names by (pool, claim index)
	pins   []pin                 // scratch
	cands  []int                 // scratch
	pinBuf []pin                 // scratch for freshPins
	fit    bitset.Set            // scratch for pinnedCand
	gaps   map[gapKey]bool       // see labelGap and resourceGap
}

func newMemo() *memo {
	return &memo{sigs: map[string]int32{}, prices: map[priceKey][]option{}, names: map[[2]int]string{}, gaps: map[gapKey]bool{}}
}

// claimName names the claim at index id of a run, from pool pi: its
// pool's name and its position, from 1.
func (m *memo) claimName(pl *pool, pi, id int) string {
	k := [2]int{pi, id}
	name, ok := m.names[k]
	if !ok {
		name = fmt.Sprintf("%s-%d", pl.np.Name, id+1)
		m.names[k] = name
	}
	return name
}

// newRun starts a pass; m may come from an earlier pass of the same
// goroutine, or be nil.
func newRun(s *static, spec passSpec, m *memo) *run {
	if m == nil {
		m = newMemo()
	}
	r := &run{s: s, cost: spec.cost, seq: spec.seq, tie: spec.tie, memo: m, held: map[reservation]int{}}
	r.states = make([]podState, len(s.pods))
	r.where = slices.Repeat([]int{-1}, len(s.pods))
	r.fails = make([]Reason, len(s.pods))
	r.others = make([]map[string]int32, len(s.counters))
	r.hostTaken = make([]int32, len(s.counters))
	r.minMemo = make([]minEntry, len(s.counters))
	r.total = make([]int32, len(s.counters))
	r.dcounts = make([][]int32, len(s.counters))
	for i, c := range s.counters {
		if c.key != requirements.LabelHostname {
			r.dcounts[i] = make([]int32, len(s.domains[c.key]))
		}
	}
	r.anti = make([]map[string]int32, len(s.counters)) // each made on first use (markAnti)
	r.usedLim = make([][]int64, len(s.pools))
	r.fresh = make([]claim, len(s.pools))
	for pi, pl := range s.pools {
		r.usedLim[pi] = make([]int64, len(pl.limits))
	}
	r.count = make([]int64, len(s.pools))
	r.slack = newSlackIndex()
	r.addNodes()
	r.free = newFreeTree(r.nodes)
	return r
}

// addNodes registers the existing nodes, their pods' topology counts and
// their pools' usage. Initialized nodes come first, then by name.
func (r *run) addNodes() {
	nodes := r.s.prob.Nodes
	idx := indexes(len(nodes))
	slices.SortStableFunc(idx, func(a, b int) int {
		return cmpNodes(&nodes[a], &nodes[b])
	})
	for _, i := range idx {
		r.addNode(&nodes[i], r.s.labels[i])
	}
}

func cmpNodes(a, b *Node) int {
	switch {
	case a.Initialized != b.Initialized && a.Initialized:
		return -1
	case a.Initialized != b.Initialized:
		return 1
	}
	return strings.Compare(a.Name, b.Name)
}

// addNode registers a node with its labels (see nodeLabels). One marked
// for deletion takes no new pods, but until it is gone its pods still
// count for topology and its capacity for its pool's limits.
func (r *run) addNode(n *Node, labels map[string]string) {
	nd := &nodeT{n: n, labels: labels, taints: effectiveTaints(n, r.s), free: n.Allocatable}
	for j := range n.Pods {
		p := &n.Pods[j]
		nd.free = nd.free.Sub(podRequests(p.Requests))
		nd.ports = append(nd.ports, p.HostPorts...)
		r.recordExisting(p, nd)
	}
	nd.free = nd.free.Sub(r.s.pendingDaemons(n, nd))
	if !n.MarkedForDeletion {
		r.nodes = append(r.nodes, nd)
	}
	for pi, pl := range r.s.pools {
		if pl.np.Name == n.NodePool {
			capacity := r.nodeCapacity(n, pl)
			for i, lim := range pl.limits {
				// Clamped above every limit, so that the sums of a few
				// capacities the solver adds to it never overflow.
				r.usedLim[pi][i] = min(r.usedLim[pi][i]+capacity.Get(lim.Name), MaxLimit+1)
			}
			r.count[pi]++
		}
	}
}

// pendingDaemons is the room a node keeps for the daemonsets that will run
// there but own no pod on it yet ([DaemonSet.Owns]),
// as Karpenter reserves it: the daemonset tolerates the node's taints and its
// node affinity matches the node's labels.
func (s *static) pendingDaemons(n *Node, nd *nodeT) resources.List {
	var sum resources.List
	matches := func(alt requirements.Set) bool { return alt.Matches(nd.labels) == nil }
	for i := range s.prob.DaemonSets {
		ds := &s.prob.DaemonSets[i]
		if !daemonBound(n, ds) && daemonRuns(ds, nd.taints, matches) {
			sum = sum.Add(podRequests(ds.Requests))
		}
	}
	return sum
}

func daemonBound(n *Node, ds *DaemonSet) bool {
	for i := range n.Pods {
		if ds.Owns(&n.Pods[i]) {
			return true
		}
	}
	return false
}

// nodeCapacity is what a node counts against its pool's limits: the
// capacity of its instance type when the pool's catalog knows it, else its
// allocatable.
func (r *run) nodeCapacity(n *Node, pl *pool) resources.List {
	if t, ok := r.s.prob.PoolCatalog(pl.np).Get(n.InstanceType); ok {
		return t.Capacity
	}
	return n.Allocatable
}

// effectiveTaints leaves out, on a node not yet initialized, the startup
// taints of its pool and the taints Kubernetes puts on every new node, as
// Karpenter assumes pods will land once the node is ready.
func effectiveTaints(n *Node, s *static) []requirements.Taint {
	if n.Initialized {
		return n.Taints
	}
	var startup []requirements.Taint
	for i := range s.prob.NodePools {
		if s.prob.NodePools[i].Name == n.NodePool {
			startup = s.prob.NodePools[i].StartupTaints
		}
	}
	return slices.DeleteFunc(slices.Clone(n.Taints), func(t requirements.Taint) bool {
		return slices.Contains(startup, t) || ephemeralTaint(t.Key)
	})
}

func ephemeralTaint(key string) bool {
	switch key {
	case "node.kubernetes.io/not-ready", "node.kubernetes.io/unreachable",
		"node.cloudprovider.kubernetes.io/uninitialized", "karpenter.sh/unregistered":
		return true
	}
	return false
}

// recordExisting counts a pod already bound to a node: a terminating one
// only for its own required anti-affinity, as Karpenter ignores
// terminating pods for topology (IgnoredForTopology) but tracks every
// bound pod's anti-affinity.
func (r *run) recordExisting(p *Pod, nd *nodeT) {
	for _, c := range r.s.matching(p) {
		if d, ok := nd.labels[r.s.counters[c].key]; ok && !p.Terminating {
			r.tally(c, d)
		}
	}
	for _, t := range p.AntiAffinity {
		if t.Weight != 0 {
			continue
		}
		if c := r.s.lookupCounter(antiCounter(p, t)); c >= 0 {
			if d, ok := nd.labels[r.s.counters[c].key]; ok {
				r.markAnti(c, d)
			}
		}
	}
}

func (s *static) lookupCounter(c counterDef) int32 {
	if i, ok := s.counterIndex[c.signature()]; ok {
		return i
	}
	return -1
}

// solve places every pod, retrying failed pods while a pass makes progress.
// It stops early, leaving the rest unplaced, when the solve is halted (see
// static.halted), which it checks every haltEvery pods.
func (r *run) solve() {
	queue := slices.Clone(r.s.order)
	r.reorder(queue)
	for len(queue) > 0 {
		var next []int
		for k, i := range queue {
			if k%haltEvery == 0 && r.s.halted() {
				return
			}
			if !r.attempt(i) {
				next = append(next, i)
			}
		}
		if len(next) == len(queue) {
			break
		}
		queue = next
	}
}

// attempt tries to place pod i, relaxing its preferences one step at a time
// from the full set, as Karpenter does on every try.
func (r *run) attempt(i int) bool {
	r.states[i] = podState{}
	if len(r.s.pods[i].alts) == 0 {
		r.fails[i] = Reason{Kind: Incompatible, Message: fmt.Sprintf(
			"pod %s: every required node-affinity term contradicts itself or the nodeSelector, so no node can match", r.s.pods[i].pod.Key())}
		return false
	}
	for {
		v := r.view(i)
		if r.place(v) {
			return true
		}
		if !r.relax(i) {
			r.fails[i] = r.diagnose(v)
			return false
		}
	}
}

// relax applies the next of Karpenter's relaxations: drop a required
// node-affinity alternative (never the last), a preferred pod affinity term,
// a preferred anti-affinity term, a preferred node-affinity term, a
// ScheduleAnyway spread, then tolerate PreferNoSchedule taints.
func (r *run) relax(i int) bool {
	st, info := &r.states[i], &r.s.pods[i]
	switch {
	case st.alt < len(info.alts)-1:
		st.alt++
	case st.drop[affinityKind] < info.soft[affinityKind]:
		st.drop[affinityKind]++
	case st.drop[antiKind] < info.soft[antiKind]:
		st.drop[antiKind]++
	case st.pref < len(info.prefs):
		st.pref++
	case st.drop[spreadKind] < info.soft[spreadKind]:
		st.drop[spreadKind]++
	case r.s.softTaints && !st.tolerateSoft:
		st.tolerateSoft = true
	default:
		return false
	}
	return true
}

// view is a pod as its current relaxation state presents it.
type view struct {
	i      int
	info   *podInfo
	reqs   requirements.Set // node requirements, preference included
	strict requirements.Set // without the preference
	sig    int32
	cons   []constraint
	tols   []requirements.Toleration
	// hostCons are the active anti-affinity and spread constraints on the
	// hostname, checked first.
	hostCons []constraint
}

func (r *run) view(i int) view {
	info, st := &r.s.pods[i], &r.states[i]
	if *st == (podState{}) { // the common case, compiled once per solve
		return view{i: i, info: info, strict: info.alts[0], reqs: info.reqs0, sig: r.intern(info.key0, info.reqs0),
			cons: info.cons, hostCons: info.hostCons0, tols: info.pod.Tolerations}
	}
	v := view{i: i, info: info, strict: info.alts[st.alt], tols: info.pod.Tolerations}
	v.reqs = v.strict
	if st.pref < len(info.prefs) {
		v.reqs = withPreference(v.strict, info.prefs[st.pref].Terms)
	}
	v.sig = r.signature(v.reqs)
	for _, c := range info.cons {
		if !c.soft || c.rank >= st.drop[c.kind] {
			v.cons = append(v.cons, c)
			if c.kind != affinityKind && r.s.counters[c.counter].key == requirements.LabelHostname {
				v.hostCons = append(v.hostCons, c)
			}
		}
	}
	if st.tolerateSoft {
		v.tols = tolerateSoft(v.tols)
	}
	return v
}

// withPreference is the pod's requirements with a preferred term treated as
// required, as Karpenter does until it relaxes the term. A term that
// contradicts a requirement is left out: the intersection would turn "In
// [b]" into "DoesNotExist", which a node without the label satisfies.
func withPreference(strict, pref requirements.Set) requirements.Set {
	if merged := strict.Intersect(pref); !requirements.Contradicts(merged, strict) {
		return merged
	}
	return strict
}

// signature interns a requirement set and computes, once, the types of each
// pool it is compatible with.
func (r *run) signature(reqs requirements.Set) int32 { return r.intern(reqs.String(), reqs) }

// intern is signature with the set's key already formatted.
func (r *run) intern(key string, reqs requirements.Set) int32 {
	if id, ok := r.sigs[key]; ok {
		return id
	}
	id := int32(len(r.bits))
	r.sigs[key] = id
	per := make([]bitset.Set, len(r.s.pools))
	for pi, pl := range r.s.pools {
		per[pi] = compatibleTypes(pl, reqs)
	}
	r.bits = append(r.bits, per)
	r.reqsOf = append(r.reqsOf, reqs)
	return id
}

func compatibleTypes(pl *pool, reqs requirements.Set) bitset.Set {
	b := bitset.New(len(pl.types))
	if pl.compatible(pl.reqs, reqs) != nil || !admitsNewHost(reqs) {
		return b
	}
	merged := pl.reqs.Intersect(reqs)
	// A label the type does not define reaches the node only through the
	// claim's labels: the pool's custom (not well-known) keys and its name,
	// and the hostname every node gets (see admitsNewHost).
	definedByPool := func(k string) bool {
		return k == requirements.LabelHostname || pl.reqs.Has(k) && (!requirements.IsWellKnown(k) || k == requirements.LabelNodePool)
	}
	scan := pl.pinnedBy(merged)
	for i := scan.Next(0); i >= 0; i = scan.Next(i + 1) {
		t := pl.types[i]
		// The type must define, or the pool fix, every label the pod asks a value of.
		if t.Requirements.Intersects(merged) == nil && t.Requirements.CompatibleWith(reqs, definedByPool) == nil && hasOffering(t, merged) {
			b.Add(i)
		}
	}
	return b
}

// pinnedBy is the set of the pool's types that admit every single value
// reqs fixes on a topology key (see pinBits): only they can be compatible
// with reqs. A claim pinned to one of many domains, such as an instance
// type, is then checked against the few types of its domain, not all.
func (pl *pool) pinnedBy(reqs requirements.Set) bitset.Set {
	scan, own := pl.all, false
	for r := range reqs.All() {
		v, ok := r.Any()
		if !ok || r.Operator() != requirements.In || r.Len() != 1 {
			continue
		}
		if b, ok := pl.pins[pin{r.Key(), v}]; ok {
			if !own {
				scan, own = pl.all.Clone(), true
			}
			scan.And(b)
		}
	}
	return scan
}

func hasOffering(t *instancetypes.InstanceType, reqs requirements.Set) bool {
	_, ok := t.Cheapest(reqs)
	return ok
}

// freshHostname stands for the hostname of a node not launched yet: it is
// not a valid label value, so no selector lists it, and not a number.
const freshHostname = "-new-node-"

// admitsNewHost reports whether reqs let a pod on a new claim. A new
// node's hostname is unknown until it launches (Karpenter gives a new
// NodeClaim the requirement hostname In [a placeholder]) and every node has
// one, so only Exists or NotIn on kubernetes.io/hostname admit it; In,
// DoesNotExist and bounds take existing nodes only.
func admitsNewHost(reqs requirements.Set) bool {
	return !reqs.Has(requirements.LabelHostname) || reqs.Get(requirements.LabelHostname).Has(freshHostname)
}
