package packing

import (
	"math/rand/v2"
	"slices"

	"github.com/nodeplan/nodeplan/requirements"
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
	where   []placement // per pod: where it is
	order   []int
	use     usage // the NodePools' use, for their limits
	*memo
	fails []Reason
	held  map[reservation]int // claims holding each reservation
	fresh []claim             // per pool: scratch for trying a new claim
	moves moves               // the buffers of the moves place weighs
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

// placeKind says where a pod of a run is.
type placeKind uint8

const (
	unplaced placeKind = iota // nowhere (yet): the zero placement
	onNode                    // on the existing node run.nodes[index]
	onClaim                   // on the claim run.claims[index]
)

// placement is where a pod of a run is: its kind, and the index of its
// node or claim. The zero placement is unplaced.
type placement struct {
	kind  placeKind
	index int32
}

// newRun starts a pass; m may come from an earlier pass of the same
// goroutine, or be nil.
func newRun(s *static, spec passSpec, m *memo) *run {
	if m == nil {
		m = newMemo()
	}
	r := &run{s: s, cost: spec.cost, seq: spec.seq, tie: spec.tie, memo: m, held: map[reservation]int{}}
	r.states = make([]podState, len(s.pods))
	r.where = make([]placement, len(s.pods))
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
	r.use = newUsage(s.pools)
	r.fresh = make([]claim, len(s.pools))
	r.slack = newSlackIndex()
	r.addNodes()
	r.free = newFreeTree(r.nodes)
	return r
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

// placed records that pod i is at a, and appends it to the order of
// placement.
func (r *run) placed(i int, a placement) {
	r.where[i] = a
	r.order = append(r.order, i)
}

// moved records that pod i, placed before, is now at a: its claim was
// renumbered.
func (r *run) moved(i int, a placement) { r.where[i] = a }
