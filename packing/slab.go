package packing

import "github.com/nodeplan/nodeplan/internal/bitset"

// slab hands out a run's claims, candidate sets and pod lists from blocks
// instead of one allocation each: a large pass opens tens of thousands of
// claims. Each kind's blocks start small and double up to a cap, so that a
// small solve allocates little more than it uses. What it hands out lives
// as long as any part of its block is referenced, so only what lives as
// long as the run is taken from it. The zero slab is ready to use.
type slab struct {
	claims []claim
	words  []uint64
	pods   []int
	// the sizes of the last blocks
	nClaims, nWords, nPods int
}

const (
	slabClaims = 256  // claims a block, at most
	slabWords  = 8192 // set words a block, at most (but one set's)
	slabPods   = 4096 // pod indexes a block, at most
	claimPods  = 4    // room a claim's pod list starts with
)

// grow is the size of a kind's next block: twice the last, from 4 up to
// most, and at least need.
func grow(last *int, most, need int) int {
	*last = min(most, max(4, 2**last))
	return max(*last, need)
}

// claim returns a zero claim.
func (s *slab) claim() *claim {
	if len(s.claims) == 0 {
		s.claims = make([]claim, grow(&s.nClaims, slabClaims, 1))
	}
	c := &s.claims[0]
	s.claims = s.claims[1:]
	return c
}

// bits returns a copy of b whose appends cannot reach the block's next
// set (its capacity is its length).
func (s *slab) bits(b bitset.Set) bitset.Set {
	n := len(b)
	if len(s.words) < n {
		s.words = make([]uint64, grow(&s.nWords, slabWords, n))
	}
	out := bitset.Set(s.words[:n:n])
	s.words = s.words[n:]
	copy(out, b)
	return out
}

// ints returns an empty list with room for n (capacity n: an append past
// it moves the list out of the block).
func (s *slab) ints(n int) []int {
	if len(s.pods) < n {
		s.pods = make([]int, grow(&s.nPods, slabPods, n))
	}
	out := s.pods[:0:n]
	s.pods = s.pods[n:]
	return out
}
