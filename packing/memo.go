package packing

import (
	"github.com/nodeplan/nodeplan/internal/bitset"
	"github.com/nodeplan/nodeplan/requirements"
)

// memo is what runs of one solve may share when they run one after
// another: it depends on the problem alone, not on the placements (a
// pass's scratch buffers are its own: see scratch). Each field has one
// writer, named beside it.
type memo struct {
	sigs   map[string]int32    // signatures by requirement set (setKey; intern)
	bits   [][]bitset.Set      // per signature, per pool: compatible types (intern)
	reqsOf []requirements.Set  // per signature: its requirements (intern)
	pairs  [][]uint64          // per signature, per pool: the offerPairs it allows (intern)
	names  map[[2]int]string   // claim names by (pool, claim index) (claimName)
	prices map[string][]option // pricing.go: pricedBy, by priceKey
	gaps   map[gapKey]bool     // gaps.go: labelGap and resourceGap
	// ladders are merge.go's (ladderOf), by the first option of their list.
	ladders map[*option]ladder
}

// newMemo is an empty memo, for the first pass of a goroutine.
func newMemo() *memo {
	return &memo{sigs: map[string]int32{}, prices: map[string][]option{}, names: map[[2]int]string{},
		gaps: map[gapKey]bool{}, ladders: map[*option]ladder{}}
}

// claimName names the claim at index id of a run, from pool pi: its
// pool's name and its position, from 1.
func (m *memo) claimName(pl *pool, pi, id int) string {
	k := [2]int{pi, id}
	name, ok := m.names[k]
	if !ok {
		name = nameOf(pl, id)
		m.names[k] = name
	}
	return name
}

// signature interns a requirement set and computes, once, the types of each
// pool it is compatible with.
func (r *run) signature(reqs requirements.Set) int32 {
	r.scratch.key, _ = reqs.AppendBinary(r.scratch.key[:0])
	if id, ok := r.memo.sigs[string(r.scratch.key)]; ok {
		return id
	}
	return r.intern(string(r.scratch.key), reqs)
}

// intern is signature with the set's key (setKey) already made.
func (r *run) intern(key string, reqs requirements.Set) int32 {
	if id, ok := r.memo.sigs[key]; ok {
		return id
	}
	id := int32(len(r.memo.bits))
	r.memo.sigs[key] = id
	per, pairs := make([]bitset.Set, len(r.s.pools)), make([]uint64, len(r.s.pools))
	for pi, pl := range r.s.pools {
		per[pi], pairs[pi] = compatibleTypes(pl, reqs), pl.allowedBy(reqs)
	}
	r.memo.bits, r.memo.pairs = append(r.memo.bits, per), append(r.memo.pairs, pairs)
	r.memo.reqsOf = append(r.memo.reqsOf, reqs)
	return id
}
