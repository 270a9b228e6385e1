package packing

import (
	"github.com/nodeplan/nodeplan/internal/bitset"
	"github.com/nodeplan/nodeplan/requirements"
)

// satisfiesMinValues reports whether the types cand lists, of pool pl,
// offer every requirement of reqs with minValues that many distinct
// values it allows.
func satisfiesMinValues(pl *pool, reqs requirements.Set, cand bitset.Set) bool {
	for req := range reqs.All() {
		if req.MinValues() == 0 {
			continue
		}
		seen := map[string]bool{}
		for t := cand.Next(0); t >= 0; t = cand.Next(t + 1) {
			for _, val := range pl.types[t].Requirements.Get(req.Key()).Values() {
				if req.Has(val) {
					seen[val] = true
				}
			}
		}
		if len(seen) < req.MinValues() {
			return false
		}
	}
	return true
}
