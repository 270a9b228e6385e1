package packing

import (
	"github.com/nodeplan/nodeplan/internal/bitset"
	"github.com/nodeplan/nodeplan/requirements"
)

// satisfiesMinValues reports whether the types cand lists, of pool pl,
// offer every requirement of reqs with minValues that many distinct
// values it allows. It stops scanning a requirement's types as soon as
// they offer enough values.
func satisfiesMinValues(pl *pool, reqs requirements.Set, cand bitset.Set) bool {
	for req := range reqs.All() {
		n := req.MinValues()
		if n == 0 {
			continue
		}
		if !pl.valueIDs(req.Key()).enough(req, cand, n) {
			return false
		}
	}
	return true
}

// valueIDs are, for one key, each type's values of it as numbers, and the
// value of each number: enough's distinct values are a set of numbers,
// not a list of strings searched.
type valueIDs struct {
	ids    [][]int32
	values []string
}

// numberKey numbers the values each type of pl has for key, in order of
// first appearance: one map of the distinct values and one slab of
// numbers for all the types, each type's a part of it.
func (pl *pool) numberKey(key string) valueIDs {
	index := map[string]int32{}
	v := valueIDs{ids: make([][]int32, len(pl.types))}
	slab := make([]int32, 0, len(pl.types)) // most keys have one value a type
	ends := make([]int, len(pl.types))
	for t, it := range pl.types {
		for s := range it.Requirements.Get(key).All() {
			id, ok := index[s]
			if !ok {
				id = int32(len(v.values))
				index[s] = id
				v.values = append(v.values, s)
			}
			slab = append(slab, id)
		}
		ends[t] = len(slab)
	}
	start := 0
	for t, end := range ends {
		v.ids[t] = slab[start:end:end]
		start = end
	}
	return v
}

// enough reports whether the types cand lists offer n distinct values req
// allows. Each value is asked of req once.
func (v valueIDs) enough(req requirements.Requirement, cand bitset.Set, n int) bool {
	var stack [32]uint64
	seen := bitset.Set(stack[:])
	if w := (len(v.values) + 63) / 64; w > len(stack) {
		seen = bitset.New(len(v.values))
	} else {
		seen = seen[:w]
	}
	_, lower, _, upper := req.Bounds()
	all := req.Operator() == requirements.Exists && !lower && !upper // every value allowed
	count := 0
	for t := cand.Next(0); t >= 0 && count < n; t = cand.Next(t + 1) {
		for _, id := range v.ids[t] {
			if seen.Has(int(id)) {
				continue
			}
			seen.Add(int(id))
			if all || req.Has(v.values[id]) {
				count++
			}
		}
	}
	return count >= n
}

// hasMinValues reports whether some requirement of the pool has
// minValues.
func (pl *pool) hasMinValues() bool { return pl.minIDs != nil }

// valueIDs are the numbered values each type of pl has for key: compiled
// with the pool for the keys of its own requirements with minValues, else
// numbered now (a pod's minValues on a key its pool does not ask about).
func (pl *pool) valueIDs(key string) valueIDs {
	if ids, ok := pl.minIDs[key]; ok {
		return ids
	}
	return pl.numberKey(key)
}
