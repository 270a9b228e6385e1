package packing

import (
	"github.com/nodeplan/nodeplan/instancetypes"
	"github.com/nodeplan/nodeplan/internal/bitset"
	"github.com/nodeplan/nodeplan/requirements"
)

// compatibleTypes is the set of pool pl's types a pod with node
// requirements reqs may land on: the pool admits reqs, a new node's
// hostname does, and the type defines, or the pool fixes, every label
// reqs ask a value of, with an offering reqs allow. signature computes it
// once per requirement set and pool.
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
