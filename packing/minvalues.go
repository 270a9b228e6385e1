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
		vals := pl.typeValues(req.Key())
		var buf [16]string // on the stack for the usual minValues
		seen := buf[:0]
		for t := cand.Next(0); t >= 0 && len(seen) < n; t = cand.Next(t + 1) {
			for _, val := range vals[t] {
				if !slices.Contains(seen, val) && req.Has(val) {
					seen = append(seen, val)
				}
			}
		}
		if len(seen) < n {
			return false
		}
	}
	return true
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
