package consolidation

// retries is what single-node consolidation remembers of the candidates
// whose simulation failed. Karpenter simulates every candidate again on
// every pass; Plan skips a failed candidate until something happens that
// can change its outcome, so that a plan of k commands over n candidates
// costs O(n + k) single-node simulations rather than O(n·k):
//
//   - the node received displaced pods: its move is another one;
//   - a command placed pods of nodes that were already being deleted
//     (the first command does, when the snapshot has such nodes): every
//     later simulation has those pods to place no more, which can leave
//     room;
//   - for ScoreTooLow, a command disrupted a node of the candidate's
//     NodePool or moved pods onto one: the pool's price and disruption
//     totals, which the score divides by, changed.
//
// Nothing else a command does gives a candidate's pods room: deleting a
// node takes its free room away and fills others with its pods, and a
// replacement is in flight, a home for no displaced pod. A failure that
// no longer holds is what the fixpoint property of the tests would find
// (Plan run again on the cluster its commands leave finds nothing).
type retries struct {
	failed map[string]failure
	// pods counts, per node, the commands that moved pods onto it.
	pods map[string]int
	// epoch counts the commands that placed pods of deleting nodes.
	epoch int
	// pools counts, per NodePool, the commands that changed its totals.
	pools map[string]int
}

// failure is when a candidate's simulation failed: the counters then.
type failure struct {
	why         Why
	pods, epoch int
	pool        int
}

func newRetries() retries {
	return retries{failed: map[string]failure{}, pods: map[string]int{}, pools: map[string]int{}}
}

// fail records that c's simulation failed for why.
func (r *retries) fail(c candidate, why Why) {
	r.failed[c.name] = failure{why: why, pods: r.pods[c.name], epoch: r.epoch, pool: r.pools[c.pool.Name]}
}

// skip reports whether c failed before and nothing since can change that.
func (r *retries) skip(c candidate) bool {
	f, ok := r.failed[c.name]
	switch {
	case !ok || f.pods != r.pods[c.name] || f.epoch != r.epoch:
		return false
	case f.why == ScoreTooLow:
		return f.pool == r.pools[c.pool.Name]
	}
	return f.why == PodsDoNotFit || f.why == NoCheaperReplacement || f.why == SpotToSpot
}

// received records that node, of pool, took displaced pods.
func (r *retries) received(node, pool string) {
	r.pods[node]++
	r.pools[pool]++
}

// left records that a node of pool loses its movable pods: a candidate
// of the command (gone), or a node already being deleted whose pods now
// get their homes.
func (r *retries) left(pool string, gone bool, movable int) {
	if !gone && movable == 0 {
		return
	}
	r.pools[pool]++
	if !gone {
		r.epoch++
	}
}
