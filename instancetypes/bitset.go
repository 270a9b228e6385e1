package instancetypes

import "math/bits"

// bitset is a set of instance-type indexes, one bit per type. The bitsets
// of one catalog all have the same length.
type bitset []uint64

func newBitset(n int) bitset { return make(bitset, (n+63)/64) }

func (b bitset) set(i int)      { b[i>>6] |= 1 << (uint(i) & 63) }
func (b bitset) has(i int) bool { return b[i>>6]&(1<<(uint(i)&63)) != 0 }

func (b bitset) clear(i int) { b[i>>6] &^= 1 << (uint(i) & 63) }

// or sets b to b ∪ o.
func (b bitset) or(o bitset) {
	for i := range b {
		b[i] |= o[i]
	}
}

// and sets b to b ∩ o.
func (b bitset) and(o bitset) {
	for i := range b {
		b[i] &= o[i]
	}
}

// orNot sets b to b ∪ (all \ o), all being the set of every index.
func (b bitset) orNot(o, all bitset) {
	for i := range b {
		b[i] |= all[i] &^ o[i]
	}
}

func (b bitset) reset() {
	for i := range b {
		b[i] = 0
	}
}

func (b bitset) count() int {
	n := 0
	for _, w := range b {
		n += bits.OnesCount64(w)
	}
	return n
}

// next returns the smallest index ≥ i in b, or -1.
func (b bitset) next(i int) int {
	for w := i >> 6; w < len(b); w++ {
		word := b[w]
		if w == i>>6 {
			word &= ^uint64(0) << (uint(i) & 63)
		}
		if word != 0 {
			return w<<6 + bits.TrailingZeros64(word)
		}
	}
	return -1
}

func (b bitset) clone() bitset { return append(bitset(nil), b...) }
