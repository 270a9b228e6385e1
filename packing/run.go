package packing

import (
	"math/rand/v2"
	"slices"

	"github.com/nodeplan/nodeplan/internal/bitset"
)

// run is one first-fit-decreasing pass over the pods with one claim-choice
// strategy. Runs of one Solve share a static, read-only. Each group of its
// fields is written by the file named beside it (after newRun makes it);
// the rest of the solver only reads it.
type run struct {
	s *static
	// How the pass runs: its claim rule, its pod order and, in a restart,
	// the generator of its tie-breaks (nil in a greedy pass); ties counts
	// the random choices among two or more (search.go: tied). tie's state
	// advances with every draw, in claim.go (shuffleClaims), order.go (the
	// pod order's tie-breaks) and search.go (pick, which topology.go's
	// choice of domain calls): the draws' order is part of the pass's
	// result for a seed.
	cost bool // choose claims by marginal cost, not fewest pods first
	seq  sequence
	tie  *rand.Rand
	ties int
	// needs, in a rerun for LimitMostPods, puts the pods that need a
	// bound pool first (limitpolicy.go); nil in every other pass.
	needs *needOrder

	// The pods: where each is and the order they were placed in (run.go:
	// placed, moved); how far each is relaxed and why it last failed
	// (relax.go; fails is nil until a pod fails).
	where  []placement
	order  []int
	states []podState
	fails  []Reason

	// The existing nodes and their free cpu and memory, for first fit,
	// and the copies of the nodes the run changed (nodes.go).
	nodes []*nodeT
	free  *freeTree
	owned []nodeT

	// The claims, and Plain's order of them (claim.go); the claims by
	// room (place.go: commit), and place's scratch: an empty claim per
	// pool to try and the buffers of the moves it weighs (place.go).
	claims []*claim
	byPods []*claim
	slack  *slackIndex
	fresh  []claim
	moves  moves

	twin   twinRun             // the run of twins being placed (twins.go)
	slab   slab                // where claims and their sets are allocated (slab.go)
	counts counts              // the topology counts (topology.go)
	use    usage               // the NodePools' use, for their limits (limits.go)
	held   map[reservation]int // claims holding each reservation (offerings.go: reserve)
	memo   *memo               // what the goroutine's passes share (see memo)

	scratch *scratch // the scratch buffers, the goroutine's passes' in turn (see scratch)
}

// scratch holds the buffers a pass reuses from call to call, so that its
// hot loops allocate nothing; what one holds is valid until the next call
// of its writer, named beside it. A goroutine hands its scratch from each
// pass to the next (search), so that restarts do not grow the buffers
// again; no pass reads what an earlier one left in them.
type scratch struct {
	pins   []pin      // topology.go: topology
	cands  []int      // topology.go: candidates
	pinBuf []pin      // narrow.go: freshPins
	fit    bitset.Set // place.go: pinnedCand
	key    []byte     // memo.go: signature; pricing.go: pricedBy
	// minCand is keepsMinValues's candidate set (place.go).
	minCand bitset.Set
	merge   bitset.Set // merge.go: mergeScratch
	offer   bitset.Set // narrow.go: narrowInto's offerFilter.narrow
}

// offered is the offer scratch set, n words long, grown only when short
// (narrow clears it): pools of other sizes share it.
func (s *scratch) offered(n int) bitset.Set {
	if cap(s.offer) < n {
		s.offer = make(bitset.Set, n)
	}
	return s.offer[:n]
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

// newRun starts a pass; m and sc may come from an earlier pass of the
// same goroutine, or be nil.
func newRun(s *static, spec passSpec, m *memo, sc *scratch) *run {
	if m == nil {
		m = newMemo()
	}
	if sc == nil {
		sc = &scratch{}
	}
	r := &run{s: s, cost: spec.cost, seq: spec.seq, tie: spec.tie, needs: spec.needs, memo: m, scratch: sc, held: map[reservation]int{}}
	r.twin.off = s.hooks.noTwins
	r.states = make([]podState, len(s.pods))
	r.where = make([]placement, len(s.pods))
	r.counts = newCounts(s)
	r.fresh = make([]claim, len(s.pools))
	r.slack = newSlackIndex()
	r.addNodes()
	return r
}

// solve places every pod, retrying failed pods while a pass makes progress.
// It stops early, leaving the rest unplaced, when the solve is halted (see
// static.halted), which it checks every haltEvery pods.
func (r *run) solve() {
	defer r.twinEnd() // merge and refill change claims without commit
	queue := slices.Clone(r.s.order)
	r.reorder(queue)
	r.needyFirst(queue)
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
