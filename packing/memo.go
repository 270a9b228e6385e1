package packing

import (
	"fmt"

	"github.com/nodeplan/nodeplan/instancetypes"
	"github.com/nodeplan/nodeplan/internal/bitset"
	"github.com/nodeplan/nodeplan/requirements"
)

// memo is what runs of one solve may share when they run one after
// another: it depends on the problem alone, not on the placements.
// Its scratch buffers serve one pass at a time. Each field has one
// writer, named beside it.
type memo struct {
	sigs   map[string]int32      // signatures by requirement key (intern)
	bits   [][]bitset.Set        // per signature, per pool: compatible types (intern)
	reqsOf []requirements.Set    // per signature: its requirements (intern)
	names  map[[2]int]string     // claim names by (pool, claim index) (claimName)
	prices map[priceKey][]option // pricing.go: pricedBy
	gaps   map[gapKey]bool       // gaps.go: labelGap and resourceGap
	pins   []pin                 // scratch of topology.go: topology
	cands  []int                 // scratch of topology.go: candidates
	pinBuf []pin                 // scratch of narrow.go: freshPins
	fit    bitset.Set            // scratch of place.go: pinnedCand
}

// newMemo is an empty memo, for the first pass of a goroutine.
func newMemo() *memo {
	return &memo{sigs: map[string]int32{}, prices: map[priceKey][]option{}, names: map[[2]int]string{}, gaps: map[gapKey]bool{}}
}

// claimName names the claim at index id of a run, from pool pi: its
// pool's name and its position, from 1.
func (m *memo) claimName(pl *pool, pi, id int) string {
	k := [2]int{pi, id}
	name, ok := m.names[k]
	if !ok {
		name = fmt.Sprintf("%s-%d", pl.np.Name, id+1)
		m.names[k] = name
	}
	return name
}

// signature interns a requirement set and computes, once, the types of each
// pool it is compatible with.
func (r *run) signature(reqs requirements.Set) int32 { return r.intern(reqs.String(), reqs) }

// intern is signature with the set's key already formatted.
func (r *run) intern(key string, reqs requirements.Set) int32 {
	if id, ok := r.memo.sigs[key]; ok {
		return id
	}
	id := int32(len(r.memo.bits))
	r.memo.sigs[key] = id
	per := make([]bitset.Set, len(r.s.pools))
	for pi, pl := range r.s.pools {
		per[pi] = compatibleTypes(pl, reqs)
	}
	r.memo.bits = append(r.memo.bits, per)
	r.memo.reqsOf = append(r.memo.reqsOf, reqs)
	return id
}

func compatibleTypes(pl *pool, reqs requirements.Set) bitset.Set {
	b := bitset.New(len(pl.types))
	if pl.compatible(pl.reqs, reqs) != nil || !admitsNewHost(reqs) {
		return b
	}
	merged := pl.reqs.Intersect(reqs)
	// A label the type does not define reaches the node only through the
	// claim's labels: the pool's custom (not well-known) keys and its name,
	// and the hostname every node gets (see admitsNewHost).
	definedByPool := func(k string) bool {
		return k == requirements.LabelHostname || pl.reqs.Has(k) && (!requirements.IsWellKnown(k) || k == requirements.LabelNodePool)
	}
	scan := pl.pinnedBy(merged)
	for i := scan.Next(0); i >= 0; i = scan.Next(i + 1) {
		t := pl.types[i]
		// The type must define, or the pool fix, every label the pod asks a value of.
		if t.Requirements.Intersects(merged) == nil && t.Requirements.CompatibleWith(reqs, definedByPool) == nil && hasOffering(t, merged) {
			b.Add(i)
		}
	}
	return b
}

// pinnedBy is the set of the pool's types that admit every single value
// reqs fixes on a topology key (see pinBits): only they can be compatible
// with reqs. A claim pinned to one of many domains, such as an instance
// type, is then checked against the few types of its domain, not all.
func (pl *pool) pinnedBy(reqs requirements.Set) bitset.Set {
	scan, own := pl.all, false
	for r := range reqs.All() {
		v, ok := r.Any()
		if !ok || r.Operator() != requirements.In || r.Len() != 1 {
			continue
		}
		if b, ok := pl.pins[pin{r.Key(), v}]; ok {
			if !own {
				scan, own = pl.all.Clone(), true
			}
			scan.And(b)
		}
	}
	return scan
}

func hasOffering(t *instancetypes.InstanceType, reqs requirements.Set) bool {
	_, ok := t.Cheapest(reqs)
	return ok
}

// freshHostname stands for the hostname of a node not launched yet: it is
// not a valid label value, so no selector lists it, and not a number.
const freshHostname = "-new-node-"

// admitsNewHost reports whether reqs let a pod on a new claim. A new
// node's hostname is unknown until it launches (Karpenter gives a new
// NodeClaim the requirement hostname In [a placeholder]) and every node has
// one, so only Exists or NotIn on kubernetes.io/hostname admit it; In,
// DoesNotExist and bounds take existing nodes only.
func admitsNewHost(reqs requirements.Set) bool {
	return !reqs.Has(requirements.LabelHostname) || reqs.Get(requirements.LabelHostname).Has(freshHostname)
}
