package drift

import (
	"cmp"
	"encoding/binary"
	"encoding/hex"
	"hash"
	"hash/fnv"
	"maps"
	"slices"
	"time"

	"github.com/nodeplan/nodeplan/packing"
	"github.com/nodeplan/nodeplan/requirements"
)

// HashVersion is the version of [Template.Hash]'s encoding. It changes
// whenever a field joins or leaves the hash or a default changes, so that a
// node recorded under another version is never found drifted by the change
// alone (as Karpenter's NodePoolHashVersion).
const HashVersion = "nodeplan-v1"

// Hash is [Template.Hash] of a NodePool with no template annotations and no
// nodeClassRef.
func Hash(np packing.NodePool) string { return Template{NodePool: np}.Hash() }

// Hash returns the hex FNV-64a hash of the template fields whose change
// drifts a node, as Karpenter hashes spec.template: labels, annotations,
// taints, startup taints, nodeClassRef, terminationGracePeriod and
// expireAfter (zero read as 720h). Requirements are left out: they drift
// through label matching instead. Maps are hashed in key order and taints as
// sets, so the hash does not depend on their order. The complexity is
// O(k log k) in the number of keys and taints.
func (t Template) Hash() string {
	e := newEncoder()
	np := t.NodePool
	e.strMap(np.Labels)
	e.strMap(t.Annotations)
	e.taints(np.Taints)
	e.taints(np.StartupTaints)
	e.str(t.NodeClassRef.Group)
	e.str(t.NodeClassRef.Kind)
	e.str(t.NodeClassRef.Name)
	e.num(int64(np.Disruption.TerminationGracePeriod))
	e.num(int64(expireAfter(np.Disruption)))
	return e.sum()
}

// expireAfter returns the pool's node lifetime, or -1 for Never.
func expireAfter(d packing.Disruption) time.Duration {
	switch {
	case d.ExpireNever:
		return -1
	case d.ExpireAfter == 0:
		return DefaultExpireAfter
	}
	return d.ExpireAfter
}

// encoder writes a canonical, length-prefixed encoding into a hash.
type encoder struct {
	h   hash.Hash64
	buf [8]byte
}

func newEncoder() *encoder { return &encoder{h: fnv.New64a()} }

func (e *encoder) num(v int64) {
	binary.LittleEndian.PutUint64(e.buf[:], uint64(v))
	e.h.Write(e.buf[:])
}

func (e *encoder) str(s string) {
	e.num(int64(len(s)))
	e.h.Write([]byte(s))
}

func (e *encoder) strs(ss []string) {
	e.num(int64(len(ss)))
	for _, s := range ss {
		e.str(s)
	}
}

func (e *encoder) strMap(m map[string]string) {
	e.num(int64(len(m)))
	for _, k := range slices.Sorted(maps.Keys(m)) {
		e.str(k)
		e.str(m[k])
	}
}

func (e *encoder) taints(ts []requirements.Taint) {
	sorted := slices.SortedFunc(slices.Values(ts), compareTaints)
	sorted = slices.Compact(sorted)
	e.num(int64(len(sorted)))
	for _, t := range sorted {
		e.str(t.Key)
		e.str(t.Value)
		e.num(int64(t.Effect))
	}
}

func (e *encoder) sum() string {
	binary.BigEndian.PutUint64(e.buf[:], e.h.Sum64())
	return hex.EncodeToString(e.buf[:])
}

func compareTaints(a, b requirements.Taint) int {
	return cmp.Or(cmp.Compare(a.Key, b.Key), cmp.Compare(a.Value, b.Value), cmp.Compare(a.Effect, b.Effect))
}
