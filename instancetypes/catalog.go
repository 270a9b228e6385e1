package instancetypes

import (
	"cmp"
	"errors"
	"iter"
	"slices"
	"strings"

	"github.com/google/btree"

	"github.com/nodeplan/nodeplan/internal/bitset"
	"github.com/nodeplan/nodeplan/internal/parallel"
	"github.com/nodeplan/nodeplan/requirements"
)

// Catalog is an immutable, indexed set of instance types. It is safe for
// concurrent use by any number of readers.
//
// Types are kept sorted by name; a label-value index ([Catalog.Compatible])
// selects the types a requirement set admits without scanning them all, and
// a google/btree keeps the types with a usable offering ordered by their
// cheapest usable price. [Catalog.WithAvailability] derives a new catalog
// that shares the unchanged types and the index.
type Catalog struct {
	types  []*InstanceType // sorted by name; index = position
	byName map[string]int
	index  *labelIndex               // shared by derived catalogs
	order  *btree.BTreeG[priceEntry] // types with a usable offering, by (min price, index)
	avail  bitset.Set                // types with a usable offering
	origin Origin                    // set by parse and WithZones; zero from New
}

// Origin says where a catalog's region, zones and prices come from, so
// that every consumer can say so next to the prices it prints. The zero
// Origin is that of a catalog built by [New], about which nothing is known.
type Origin struct {
	// Region is the topology.kubernetes.io/region of every type.
	Region string
	// Zones are the zones the offerings were built in, and ZonesAssumed
	// says they are the guess region+"a", "b", "c" for a region whose zone
	// names nodeplan does not know (see the package doc).
	Zones        []string
	ZonesAssumed bool
	// Currency is the ISO 4217 code of every [Price] of the catalog, such
	// as "USD" or "CNY".
	Currency string
	// Source says, for people, where the on-demand prices come from, such
	// as "embedded AWS on-demand prices for us-east-1, Karpenter's initial
	// price table of 2026-07-20"; Modelled is true when they come
	// from the resource model (ModelVCPUHour, ...) rather than a price list.
	Source   string
	Modelled bool
	// CapacityTypes are the capacity types offerings were built for, in
	// label order (on-demand, spot, reserved).
	CapacityTypes []CapacityType
	// SpotDiscount is the fraction of the on-demand price a modelled spot
	// price saves; SpotGiven counts the types whose spot price was given
	// (Options.SpotPrice or the file's spotPrice) rather than modelled.
	SpotDiscount float64
	SpotGiven    int
	// Unpriced counts the types of the catalog file left out because they
	// have no on-demand price in the region.
	Unpriced int
}

// Spot reports whether the catalog was built with spot offerings.
func (o Origin) Spot() bool { return slices.Contains(o.CapacityTypes, Spot) }

// priceEntry orders a type by the lower bound of every price it can offer.
type priceEntry struct {
	price Price
	idx   int
}

func lessEntry(a, b priceEntry) bool {
	return a.price < b.price || (a.price == b.price && a.idx < b.idx)
}

// btreeDegree is the B-tree degree; 8 keeps nodes within a few cache lines.
const btreeDegree = 8

// New validates types and builds a catalog from copies of them; it does not
// modify types. Each copy gets its offerings sorted, the instance-type
// requirement set to its name, the zone and capacity-type requirements set
// from its usable offerings, and Allocatable = Capacity − Overhead.
//
// Every problem is reported, joined with errors.Join; each is a
// [*FieldError] naming the type and the field and wrapping [ErrInvalid] and
// one of ErrDuplicateName, ErrInvalidName, ErrInvalidCapacity,
// ErrInvalidOverhead, ErrInvalidPrice, ErrNoOfferings,
// ErrInvalidCapacityType or ErrInvalidOffering. The complexity is
// O(n log n + total labels).
func New(types []InstanceType) (*Catalog, error) { return newOf(types, false) }

// newOf is New, with labelsBuilt passed to build.
func newOf(types []InstanceType, labelsBuilt bool) (*Catalog, error) {
	all := make([]*InstanceType, len(types))
	errsAt := make([]error, len(types))
	parallel.Range(len(types), typeChunk, func() func(lo, hi int) {
		return func(lo, hi int) {
			for i := lo; i < hi; i++ {
				all[i], errsAt[i] = build(types[i], labelsBuilt)
			}
		}
	})
	var errs []error
	built := all[:0]
	for i, t := range all {
		if errsAt[i] != nil {
			errs = append(errs, errsAt[i])
			continue
		}
		built = append(built, t)
	}
	slices.SortStableFunc(built, func(a, b *InstanceType) int { return strings.Compare(a.Name, b.Name) })
	for i := 1; i < len(built); i++ {
		if built[i].Name == built[i-1].Name {
			errs = append(errs, fieldErr(built[i].Name, "name", ErrDuplicateName, "defined more than once"))
		}
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	return newCatalog(built), nil
}

// newCatalog indexes valid, name-sorted, unique types.
func newCatalog(types []*InstanceType) *Catalog {
	c := &Catalog{types: types, byName: make(map[string]int, len(types)),
		order: btree.NewG(btreeDegree, lessEntry), avail: bitset.New(len(types))}
	parallel.Both(func() { c.index = newLabelIndex(types) }, func() {
		for i, t := range types {
			c.byName[t.Name] = i
			c.insert(i, t)
		}
	})
	return c
}

// insert records t, at index i, in the price order if it can be launched.
func (c *Catalog) insert(i int, t *InstanceType) {
	if p := t.minPrice(); p != MaxPrice {
		c.order.ReplaceOrInsert(priceEntry{p, i})
		c.avail.Add(i)
	}
}

// Origin returns where the catalog's region, zones and prices come from.
// The slices are copies. The complexity is O(zones).
func (c *Catalog) Origin() Origin {
	o := c.origin
	o.Zones, o.CapacityTypes = slices.Clone(o.Zones), slices.Clone(o.CapacityTypes)
	return o
}

// Currency returns the ISO 4217 code of the catalog's prices,
// [Origin].Currency, without copying the origin: "" for a catalog built by
// [New], which [Price.Format] writes as [DefaultCurrency]. O(1).
func (c *Catalog) Currency() string { return c.origin.Currency }

// Len returns the number of instance types.
func (c *Catalog) Len() int { return len(c.types) }

// Types returns the instance types sorted by name. The slice and the types
// are shared: the caller must not modify them.
func (c *Catalog) Types() []*InstanceType { return c.types }

// Get returns the instance type named name. The complexity is O(1).
func (c *Catalog) Get(name string) (*InstanceType, bool) {
	i, ok := c.byName[name]
	if !ok {
		return nil, false
	}
	return c.types[i], true
}

// Compatible yields, cheapest first, the types whose requirements admit
// reqs (Karpenter's Compatible with undefined well-known labels allowed) and
// that have a usable offering compatible with reqs. A type's price is that
// of [InstanceType.Cheapest](reqs); ties go by name. The label index prunes
// the candidates first; the yield is lazy, so a consumer that stops early
// pays only for the types it saw. The sequence may be iterated more than
// once.
func (c *Catalog) Compatible(reqs requirements.Set) iter.Seq[*InstanceType] {
	return func(yield func(*InstanceType) bool) {
		q := c.index.filter(reqs, c.avail, nil)
		n := q.cand.Len()
		if n == 0 {
			return
		}
		if n*8 <= len(c.types) {
			c.yieldSorted(&q, reqs, n, yield)
			return
		}
		c.yieldMerged(&q, reqs, yield)
	}
}

// AppendCompatible appends to dst the types [Catalog.Compatible] yields, in
// its order, and returns the extended slice.
func (c *Catalog) AppendCompatible(dst []*InstanceType, reqs requirements.Set) []*InstanceType {
	for t := range c.Compatible(reqs) {
		dst = append(dst, t)
	}
	return dst
}

// price returns the price of type i under reqs, checking the labels the
// index could not decide.
func (c *Catalog) price(q *query, i int, reqs requirements.Set) (Offering, bool) {
	t := c.types[i]
	if q.check.Has(i) && !compatible(t.Requirements, reqs) {
		return Offering{}, false
	}
	return t.Cheapest(reqs)
}

// yieldSorted prices the few candidates and yields them sorted.
func (c *Catalog) yieldSorted(q *query, reqs requirements.Set, n int, yield func(*InstanceType) bool) {
	found := make([]priceEntry, 0, n)
	for i := q.cand.Next(0); i >= 0; i = q.cand.Next(i + 1) {
		if o, ok := c.price(q, i, reqs); ok {
			found = append(found, priceEntry{o.Price, i})
		}
	}
	slices.SortFunc(found, compareEntry)
	for _, e := range found {
		if !yield(c.types[e.idx]) {
			return
		}
	}
}

func compareEntry(a, b priceEntry) int {
	return cmp.Or(cmp.Compare(a.price, b.price), cmp.Compare(a.idx, b.idx))
}

// yieldMerged walks the types by their lowest price, a lower bound of
// their price under reqs, and yields a priced candidate as soon as no type
// still to come can be cheaper.
func (c *Catalog) yieldMerged(q *query, reqs requirements.Set, yield func(*InstanceType) bool) {
	var h entryHeap
	stopped := false
	c.order.Ascend(func(e priceEntry) bool {
		for len(h) > 0 && lessEntry(h[0], e) {
			if !yield(c.types[h.pop().idx]) {
				stopped = true
				return false
			}
		}
		if q.cand.Has(e.idx) {
			if o, ok := c.price(q, e.idx, reqs); ok {
				h.push(priceEntry{o.Price, e.idx})
			}
		}
		return true
	})
	for !stopped && len(h) > 0 {
		stopped = !yield(c.types[h.pop().idx])
	}
}

// Cheapest returns the type with the cheapest usable offering compatible
// with reqs, and that offering: the first of [Catalog.Compatible]. For
// catalogs of up to 2,048 types it does not allocate, except for one copy of
// the values of an In requirement on a key with many more values than it
// names (such as instance-type In [a b]).
func (c *Catalog) Cheapest(reqs requirements.Set) (*InstanceType, Offering, bool) {
	var buf [3 * stackWords]uint64
	q := c.index.filter(reqs, c.avail, buf[:])
	best, bestOff, found := priceEntry{MaxPrice, -1}, Offering{}, false
	if n := q.cand.Len(); n*8 <= len(c.types) {
		for i := q.cand.Next(0); i >= 0; i = q.cand.Next(i + 1) {
			if o, ok := c.price(&q, i, reqs); ok && lessEntry(priceEntry{o.Price, i}, best) {
				best, bestOff, found = priceEntry{o.Price, i}, o, true
			}
		}
	} else {
		best, bestOff, found = c.cheapestMerged(&q, reqs)
	}
	if !found {
		return nil, Offering{}, false
	}
	return c.types[best.idx], bestOff, true
}

// cheapestMerged walks the price order until no type still to come can
// beat the best found.
func (c *Catalog) cheapestMerged(q *query, reqs requirements.Set) (priceEntry, Offering, bool) {
	best, bestOff, found := priceEntry{MaxPrice, -1}, Offering{}, false
	c.order.Ascend(func(e priceEntry) bool {
		if found && !lessEntry(e, best) {
			return false
		}
		if q.cand.Has(e.idx) {
			if o, ok := c.price(q, e.idx, reqs); ok && lessEntry(priceEntry{o.Price, e.idx}, best) {
				best, bestOff, found = priceEntry{o.Price, e.idx}, o, true
			}
		}
		return true
	})
	return best, bestOff, found
}

// WithAvailability returns a catalog in which every offering matching one
// of unavailable is no longer available (all reservations of a reserved
// key). Keys naming unknown types or offerings are ignored; when nothing
// changes the receiver itself is returned. The receiver is unchanged; the
// new catalog shares the untouched types, the label index and
// (copy-on-write) the price order. The complexity is O(n/64 + k log n) for
// k changed types. The error, a *FieldError wrapping ErrInvalidOffering,
// names a changed type whose remaining offerings are invalid, which a
// catalog built by [New] never has unless its shared types were modified.
func (c *Catalog) WithAvailability(unavailable ...OfferingKey) (*Catalog, error) {
	out := &Catalog{types: c.types, byName: c.byName, index: c.index, order: c.order, avail: c.avail, origin: c.origin}
	copied := false
	for _, name := range changedTypes(unavailable) {
		i, ok := c.byName[name]
		if !ok {
			continue
		}
		t, changed, err := withoutOfferings(out.types[i], unavailable)
		if err != nil {
			return nil, err
		}
		if !changed {
			continue
		}
		if !copied {
			out.types, out.order, out.avail, copied = slices.Clone(c.types), c.order.Clone(), c.avail.Clone(), true
		}
		out.order.Delete(priceEntry{out.types[i].minPrice(), i})
		out.avail.Remove(i)
		out.types[i] = t
		out.insert(i, t)
	}
	if !copied {
		return c, nil
	}
	return out, nil
}

// WithZones returns a catalog in which every type is offered in exactly
// zones, as Karpenter offers the types of a NodeClass in the zones of its
// subnets: the offerings a type has in each zone of the catalog are
// replaced by the same offerings (capacity type, price, availability) in
// each of zones. That needs offerings that do not differ by zone, as [AWS],
// [Azure] and [Parse] build them: a type whose offerings differ between the
// catalog's zones, or that holds a capacity reservation, is a *FieldError
// wrapping ErrInvalidOffering. zones must be distinct label values and,
// when the catalog has a region, zones of it ([ZoneInRegion]); errors wrap
// ErrInvalidOptions. The receiver and zones are unchanged. The complexity
// is that of [New].
func (c *Catalog) WithZones(zones ...string) (*Catalog, error) {
	if errs := validateZones(c.origin.Region, "zones", zones); len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	all := c.zones()
	types := make([]InstanceType, 0, len(c.types))
	var errs []error
	for _, t := range c.types {
		offs, err := rezone(t, all, zones)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		cp := *t
		cp.Offerings = offs
		types = append(types, cp)
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	out, err := New(types)
	if err != nil {
		return nil, err
	}
	out.origin = c.Origin()
	out.origin.Zones, out.origin.ZonesAssumed = slices.Clone(zones), false
	return out, nil
}

// zones returns every zone an offering of c names, sorted.
func (c *Catalog) zones() []string {
	var out []string
	for _, t := range c.types {
		for _, o := range t.Offerings {
			out = append(out, o.Zone)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// rezone returns the offerings of t moved from the zones all to zones; t
// must offer the same in every zone of all.
func rezone(t *InstanceType, all, zones []string) ([]Offering, error) {
	var first []Offering
	for _, o := range t.Offerings {
		if o.ReservationID != "" {
			return nil, fieldErr(t.Name, "offerings", ErrInvalidOffering, "capacity reservation %s is in zone %s and cannot move", o.ReservationID, o.Zone)
		}
		if o.Zone == all[0] {
			first = append(first, o)
		}
	}
	for _, z := range all[1:] {
		if !sameOfferings(t.Offerings, first, z) {
			return nil, fieldErr(t.Name, "offerings", ErrInvalidOffering, "zone %s is not offered as %s is: offerings differ by zone", z, all[0])
		}
	}
	out := make([]Offering, 0, len(first)*len(zones))
	for _, z := range zones {
		for _, o := range first {
			o.Zone = z
			out = append(out, o)
		}
	}
	return out, nil
}

// sameOfferings reports whether the offerings of offs in zone are those of
// want, in order, but for the zone.
func sameOfferings(offs, want []Offering, zone string) bool {
	i := 0
	for _, o := range offs {
		if o.Zone != zone {
			continue
		}
		if i == len(want) {
			return false
		}
		w := want[i]
		w.Zone = zone
		if o != w {
			return false
		}
		i++
	}
	return i == len(want)
}

// changedTypes returns the distinct type names of keys, sorted.
func changedTypes(keys []OfferingKey) []string {
	names := make([]string, len(keys))
	for i, k := range keys {
		names[i] = k.InstanceType
	}
	slices.Sort(names)
	return slices.Compact(names)
}

// withoutOfferings returns a copy of t with the offerings keys name made
// unavailable, and whether anything changed; an error when the offerings
// left give no valid requirements (see WithAvailability).
func withoutOfferings(t *InstanceType, keys []OfferingKey) (*InstanceType, bool, error) {
	offs, changed := slices.Clone(t.Offerings), false
	for i, o := range offs {
		k := OfferingKey{t.Name, o.Zone, o.CapacityType}
		if o.Available && slices.Contains(keys, k) {
			offs[i].Available, changed = false, true
		}
	}
	if !changed {
		return t, false, nil
	}
	reqs, err := offeringRequirements(t.Requirements, offs)
	if err != nil {
		return nil, false, fieldErr(t.Name, "offerings", ErrInvalidOffering, "%v", err)
	}
	cp := *t
	cp.Offerings, cp.Requirements = offs, reqs
	return &cp, true, nil
}

// entryHeap is a binary min-heap of price entries.
type entryHeap []priceEntry

func (h *entryHeap) push(e priceEntry) {
	*h = append(*h, e)
	s := *h
	for i := len(s) - 1; i > 0; {
		p := (i - 1) / 2
		if !lessEntry(s[i], s[p]) {
			break
		}
		s[i], s[p] = s[p], s[i]
		i = p
	}
}

func (h *entryHeap) pop() priceEntry {
	s := *h
	top := s[0]
	s[0] = s[len(s)-1]
	s = s[:len(s)-1]
	for i := 0; ; {
		l, small := 2*i+1, i
		if l < len(s) && lessEntry(s[l], s[small]) {
			small = l
		}
		if r := l + 1; r < len(s) && lessEntry(s[r], s[small]) {
			small = r
		}
		if small == i {
			break
		}
		s[i], s[small] = s[small], s[i]
		i = small
	}
	*h = s
	return top
}
