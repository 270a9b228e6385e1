package packing

import (
	"slices"

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
		if ids, ok := pl.minIDs[req.Key()]; ok {
			if !ids.enough(req, cand, n) {
				return false
			}
			continue
		}
		if !enoughValues(pl.typeValues(req.Key()), req, cand, n) {
			return false
		}
	}
	return true
}

// enoughValues reports whether the types cand lists, whose values of req's
// key are vals, offer n distinct values req allows.
func enoughValues(vals [][]string, req requirements.Requirement, cand bitset.Set, n int) bool {
	var buf [16]string // on the stack for the usual minValues
	seen := buf[:0]
	for t := cand.Next(0); t >= 0 && len(seen) < n; t = cand.Next(t + 1) {
		for _, val := range vals[t] {
			if !slices.Contains(seen, val) && req.Has(val) {
				seen = append(seen, val)
			}
		}
	}
	return len(seen) >= n
}

// valueIDs are, for one key, each type's values of it as numbers, and the
// value of each number: enough's distinct values are a set of numbers,
// not a list of strings searched.
type valueIDs struct {
	ids    [][]int32
	values []string
}

// numberValues numbers vals, each type's values of one key, in order of
// first appearance.
func numberValues(vals [][]string) valueIDs {
	index := map[string]int32{}
	v := valueIDs{ids: make([][]int32, len(vals))}
	for t, vs := range vals {
		for _, s := range vs {
			id, ok := index[s]
			if !ok {
				id = int32(len(v.values))
				index[s] = id
				v.values = append(v.values, s)
			}
			v.ids[t] = append(v.ids[t], id)
		}
	}
	return v
}

// enough is enoughValues by numbers: whether the types cand lists offer n
// distinct values req allows. Each value is asked of req once.
func (v valueIDs) enough(req requirements.Requirement, cand bitset.Set, n int) bool {
	var stack [32]uint64
	seen := bitset.Set(stack[:])
	if w := (len(v.values) + 63) / 64; w > len(stack) {
		seen = bitset.New(len(v.values))
	} else {
		seen = seen[:w]
	}
	count := 0
	for t := cand.Next(0); t >= 0 && count < n; t = cand.Next(t + 1) {
		for _, id := range v.ids[t] {
			if seen.Has(int(id)) {
				continue
			}
			seen.Add(int(id))
			if req.Has(v.values[id]) {
				count++
			}
		}
	}
	return count >= n
}

// hasMinValues reports whether some requirement of the pool has
// minValues.
func (pl *pool) hasMinValues() bool { return pl.minVals != nil }

// typeValues are the values each type of pl has for key: compiled with the
// pool for the keys of its own requirements with minValues, else computed.
func (pl *pool) typeValues(key string) [][]string {
	if vals, ok := pl.minVals[key]; ok {
		return vals
	}
	return pl.keyValues(key)
}

// keyValues lists, per type of pl, the values of its requirement on key.
func (pl *pool) keyValues(key string) [][]string {
	out := make([][]string, len(pl.types))
	for t, it := range pl.types {
		out[t] = it.Requirements.Get(key).Values()
	}
	return out
}
