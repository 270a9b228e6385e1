package instancetypes

import (
	"cmp"
	"slices"
	"sort"
	"strconv"

	"github.com/nodeplan/nodeplan/internal/bitset"
	"github.com/nodeplan/nodeplan/requirements"
)

// labelIndex maps each label key the catalog's types constrain to the types
// by value, so that a requirement set selects its candidate types with a few
// bitset unions and intersections instead of a scan. It is immutable and
// shared by every catalog derived with WithAvailability; the zone and
// capacity-type keys, which availability changes, are not indexed (the
// offering check decides them).
type labelIndex struct {
	all  bitset.Set           // every type
	keys map[string]*keyIndex // by label key
}

// keyIndex is the index of one label key. Invariant: values, hasValue and
// negative cover the non-complement requirements; complement covers the
// rest; defined = hasValue ∪ negative-In ∪ complement.
type keyIndex struct {
	values     map[string]bitset.Set // types whose In-requirement lists the value
	sorted     []string              // the keys of values, sorted
	ints       []intValue            // the values that are integers, by number
	hasValue   bitset.Set            // types with a non-empty In-requirement
	complement bitset.Set            // types with a NotIn, Exists or bounded requirement
	negative   bitset.Set            // types whose requirement is NotIn or DoesNotExist
	defined    bitset.Set            // types that constrain the key
}

type intValue struct {
	n    int64
	bits bitset.Set
}

// unindexed reports whether key is left to the offering check.
func unindexed(key string) bool {
	return key == requirements.LabelZone || key == requirements.LabelCapacityType
}

func negative(r requirements.Requirement) bool {
	op := r.Operator()
	return op == requirements.NotIn || op == requirements.DoesNotExist
}

// newLabelIndex indexes types. The complexity is O(total requirement values).
func newLabelIndex(types []*InstanceType) *labelIndex {
	idx := &labelIndex{all: bitset.New(len(types)), keys: map[string]*keyIndex{}}
	for i, t := range types {
		idx.all.Add(i)
		for r := range t.Requirements.All() {
			if !unindexed(r.Key()) {
				idx.key(r.Key(), len(types)).add(i, r, len(types))
			}
		}
	}
	for _, ki := range idx.keys {
		ki.finish()
	}
	return idx
}

func (idx *labelIndex) key(k string, n int) *keyIndex {
	ki := idx.keys[k]
	if ki == nil {
		ki = &keyIndex{values: map[string]bitset.Set{}, hasValue: bitset.New(n), complement: bitset.New(n),
			negative: bitset.New(n), defined: bitset.New(n)}
		idx.keys[k] = ki
	}
	return ki
}

func (ki *keyIndex) add(i int, r requirements.Requirement, n int) {
	ki.defined.Add(i)
	if negative(r) {
		ki.negative.Add(i)
	}
	if r.Complement() {
		ki.complement.Add(i)
		return
	}
	for v := range r.All() {
		b := ki.values[v]
		if b == nil {
			b = bitset.New(n)
			ki.values[v] = b
		}
		b.Add(i)
		ki.hasValue.Add(i)
	}
}

// finish sorts the values and collects those the requirements package reads
// as the same integer as strconv does (checked with a bound, so the index
// can never disagree with Requirement.Has).
func (ki *keyIndex) finish() {
	for v := range ki.values {
		ki.sorted = append(ki.sorted, v)
	}
	slices.Sort(ki.sorted)
	for _, v := range ki.sorted {
		if !maybeInt(v) { // spares ParseInt its error for names
			continue
		}
		n, err := strconv.ParseInt(v, 10, 64)
		if err == nil && sameInt(v, n) {
			ki.ints = append(ki.ints, intValue{n, ki.values[v]})
		}
	}
	slices.SortStableFunc(ki.ints, func(a, b intValue) int { return cmp.Compare(a.n, b.n) })
}

// maybeInt reports whether v starts as a base-10 integer can: with a digit
// or a sign.
func maybeInt(v string) bool {
	return v != "" && (v[0] >= '0' && v[0] <= '9' || v[0] == '-' || v[0] == '+')
}

func sameInt(v string, n int64) bool {
	s := strconv.FormatInt(n, 10)
	ge, err1 := requirements.New("k", requirements.Gte, s)
	le, err2 := requirements.New("k", requirements.Lte, s)
	return err1 == nil && err2 == nil && ge.Has(v) && le.Has(v)
}

// query is the candidate selection for one requirement set: cand holds the
// types whose indexed labels may satisfy the set, check those among them
// that need the exact compatibility test (the index is exact for the rest).
type query struct {
	cand, check, tmp bitset.Set
}

// stackWords is the bitset length the zero-allocation paths keep on the
// stack: catalogs of up to 64·stackWords types.
const stackWords = 32

// filter returns the query for reqs. avail is the set of types with a
// usable offering. buf, when long enough, backs the three bitsets
// (3·words, so that a caller can keep them on its stack); otherwise they are
// allocated. The complexity is O(keys · words) plus the values named.
func (idx *labelIndex) filter(reqs requirements.Set, avail bitset.Set, buf []uint64) query {
	w := len(idx.all)
	if len(buf) < 3*w {
		buf = make([]uint64, 3*w)
	}
	q := query{cand: buf[:w:w], check: buf[w : 2*w : 2*w], tmp: buf[2*w : 3*w : 3*w]}
	copy(q.cand, avail)
	q.check.Clear()
	for r := range reqs.All() {
		if unindexed(r.Key()) {
			continue
		}
		if !idx.narrow(&q, r) {
			q.cand.Clear()
			break
		}
	}
	return q
}

// narrow intersects q.cand with the types that may satisfy r and reports
// false when none can.
func (idx *labelIndex) narrow(q *query, r requirements.Requirement) bool {
	undefOK := negative(r) || requirements.IsWellKnown(r.Key())
	ki := idx.keys[r.Key()]
	if ki == nil {
		return undefOK
	}
	s := q.tmp
	s.Clear()
	switch op := r.Operator(); {
	case op == requirements.NotIn:
		q.check.Or(ki.defined) // undefined types pass; defined ones need the exact test
		return true
	case op == requirements.DoesNotExist:
		s.OrNot(ki.defined, idx.all)
		s.Or(ki.negative)
		q.cand.And(s)
		return true
	case op == requirements.In:
		ki.unionIn(s, r)
	default: // Exists, Gte, Lte or both bounds
		ki.unionBounded(s, r)
	}
	s.Or(ki.complement)
	q.check.Or(ki.complement)
	if undefOK {
		s.OrNot(ki.defined, idx.all)
	}
	q.cand.And(s)
	return true
}

// unionIn adds the types listing a value of the In-requirement r. It scans
// the key's own values when they are few, so as not to copy r's.
func (ki *keyIndex) unionIn(s bitset.Set, r requirements.Requirement) {
	if len(ki.sorted) <= 2*r.Len()+16 {
		for _, v := range ki.sorted {
			if r.Has(v) {
				s.Or(ki.values[v])
			}
		}
		return
	}
	for _, v := range r.Values() {
		if b, ok := ki.values[v]; ok {
			s.Or(b)
		}
	}
}

// unionBounded adds the types with a value inside r's bounds (any value for
// a plain Exists).
func (ki *keyIndex) unionBounded(s bitset.Set, r requirements.Requirement) {
	gte, hasGte, lte, hasLte := r.Bounds()
	if !hasGte && !hasLte {
		s.Or(ki.hasValue)
		return
	}
	lo := 0
	if hasGte {
		lo = sort.Search(len(ki.ints), func(i int) bool { return ki.ints[i].n >= gte })
	}
	for _, iv := range ki.ints[lo:] {
		if hasLte && iv.n > lte {
			break
		}
		s.Or(iv.bits)
	}
}

// compatible reports whether a node described by node admits incoming, with
// exactly the semantics of node.Compatible(incoming) == nil but without
// allocating an error for the types it rejects.
func compatible(node, incoming requirements.Set) bool {
	for in := range incoming.All() {
		k := in.Key()
		if !node.Has(k) {
			if negative(in) || requirements.IsWellKnown(k) {
				continue
			}
			return false
		}
		if a := node.Get(k); !a.Intersects(in) && !(negative(a) && negative(in)) {
			return false
		}
	}
	return true
}
