package packing

import (
	"github.com/nodeplan/nodeplan/instancetypes"
	"github.com/nodeplan/nodeplan/internal/bitset"
	"github.com/nodeplan/nodeplan/requirements"
	"github.com/nodeplan/nodeplan/resources"
)

// claim is a NodeClaim being built.
type claim struct {
	id       int
	name     string
	pl       *pool
	pi       int
	reqs     requirements.Set
	sigs     []int32
	cand     bitset.Set
	cheap    int
	used     resources.List
	maxAlloc resources.List
	maxCount int // candidates when maxAlloc was computed
	pos      int // index in run.byPods
	// cut counts, per core dimension, the pool's smallest types trim has
	// removed; pinned lists the pins folded into reqs.
	cut    [dims]int
	pinned []pin
	pods   []int
	ports  []HostPort
	// hostCounts counts, per hostname-keyed counter, the pods on c it counts.
	hostCounts map[int32]int32
	// resv is the capacity reservation c's committed type launches on.
	resv      reservation
	hasResv   bool
	resvUnits int
	gone      bool      // merged into another claim (see merge)
	mv        mergeView // set and kept by merge
}

func (c *claim) price() instancetypes.Price {
	if c.cheap < 0 {
		return 0
	}
	return c.pl.price[c.cheap]
}
