// Package bitset is a dense set of small non-negative integers, one bit
// each, used for sets of instance-type indexes. Sets meant to be combined
// must have the same length. The zero Set is empty and has length 0.
package bitset

import "math/bits"

// Set holds the integers whose bits are set.
type Set []uint64

// New returns an empty set able to hold 0..n-1.
func New(n int) Set { return make(Set, (n+63)/64) }

// Full returns the set of 0..n-1.
func Full(n int) Set {
	s := New(n)
	for i := range n {
		s.Add(i)
	}
	return s
}

// Add puts i in s.
func (s Set) Add(i int) { s[i>>6] |= 1 << (uint(i) & 63) }

// Has reports whether i is in s.
func (s Set) Has(i int) bool { return i>>6 < len(s) && s[i>>6]&(1<<(uint(i)&63)) != 0 }

// Remove takes i out of s.
func (s Set) Remove(i int) { s[i>>6] &^= 1 << (uint(i) & 63) }

// And sets s to s ∩ o.
func (s Set) And(o Set) {
	for i := range s {
		s[i] &= o[i]
	}
}

// Or sets s to s ∪ o.
func (s Set) Or(o Set) {
	for i := range s {
		s[i] |= o[i]
	}
}

// AndNot sets s to s \ o.
func (s Set) AndNot(o Set) {
	for i := range s {
		s[i] &^= o[i]
	}
}

// OrNot sets s to s ∪ (all \ o), all being the set of every element.
func (s Set) OrNot(o, all Set) {
	for i := range s {
		s[i] |= all[i] &^ o[i]
	}
}

// Intersects reports whether s and o share an element.
func (s Set) Intersects(o Set) bool {
	for i := range s {
		if s[i]&o[i] != 0 {
			return true
		}
	}
	return false
}

// Clear removes every element.
func (s Set) Clear() { clear(s) }

// Len returns the number of elements.
func (s Set) Len() int {
	n := 0
	for _, w := range s {
		n += bits.OnesCount64(w)
	}
	return n
}

// Empty reports whether s has no element.
func (s Set) Empty() bool {
	for _, w := range s {
		if w != 0 {
			return false
		}
	}
	return true
}

// Next returns the smallest element ≥ i, or -1.
func (s Set) Next(i int) int {
	for w := i >> 6; w < len(s); w++ {
		word := s[w]
		if w == i>>6 {
			word &= ^uint64(0) << (uint(i) & 63)
		}
		if word != 0 {
			return w<<6 + bits.TrailingZeros64(word)
		}
	}
	return -1
}

// Clone returns a copy of s.
func (s Set) Clone() Set { return append(Set(nil), s...) }

// CopyFrom overwrites s with o.
func (s Set) CopyFrom(o Set) { copy(s, o) }
