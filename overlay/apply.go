package overlay

import (
	"cmp"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/nodeplan/nodeplan/instancetypes"
	"github.com/nodeplan/nodeplan/packing"
	"github.com/nodeplan/nodeplan/requirements"
	"github.com/nodeplan/nodeplan/resources"
)

// Result is what [Apply] returns.
type Result struct {
	// NodePools are the pools given, in their order, each with Catalog set
	// to its adjusted catalog when an overlay changed one of its types;
	// the others are as given.
	NodePools []packing.NodePool
	// Report says what became of each overlay.
	Report Report
}

// Apply applies overlays to the catalog of each NodePool (its own
// Catalog, else cat), as Karpenter's NodeOverlay controller does
// (K/controllers/nodeoverlay/controller.go:73-141; see the package doc),
// and returns the pools with their adjusted catalogs and the report. A
// pool without a catalog (nil Catalog and cat) is left out of the
// evaluation, as Karpenter leaves out a NodePool whose instance types it
// cannot list.
//
// An overlay [Validate] rejects, or two of one name, is an error (a
// *FieldError wrapping ErrInvalid or ErrDuplicate, joined) and nothing is
// applied. An error building a catalog wraps instancetypes.ErrInvalid.
//
// Apply does not modify cat, pools or overlays; untouched types are
// shared with the given catalogs. The result does not depend on the order
// of overlays. The complexity is O(overlays × pools × types × (labels +
// offerings)) plus building the changed types.
func Apply(cat *instancetypes.Catalog, pools []packing.NodePool, overlays []Overlay) (Result, error) {
	if err := validateAll(overlays); err != nil {
		return Result{}, err
	}
	if len(overlays) == 0 {
		return Result{NodePools: slices.Clone(pools), Report: Report{}}, nil
	}
	st := newState(cat, pools)
	rep := make(Report, 0, len(overlays))
	for _, i := range order(overlays) {
		rep = append(rep, st.add(&overlays[i]))
	}
	out, err := st.build()
	if err != nil {
		return Result{}, err
	}
	return Result{NodePools: out, Report: rep}, nil
}

// order returns the indices of overlays by weight descending, then name
// descending (v1alpha1 OrderByWeight, nodeoverlay.go:130-139).
func order(overlays []Overlay) []int {
	idx := make([]int, len(overlays))
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(a, b int) int {
		return cmp.Or(cmp.Compare(overlays[b].Weight, overlays[a].Weight), strings.Compare(overlays[b].Name, overlays[a].Name))
	})
	return idx
}

// state is Karpenter's internalInstanceTypeStore over the evaluated pools.
type state struct {
	pools []packing.NodePool
	cats  []*instancetypes.Catalog // nil: the pool is not evaluated
	bases []requirements.Set       // per pool: nodepool In the pool, and its template labels
	upd   []map[string]*update     // per pool, by type name
}

// update is what the overlays applied so far give one type of one pool.
type update struct {
	prices map[offeringKey]*priceUpdate
	// capacity holds each resource's first (highest-weight) value.
	capacity resources.List
	// capLowest and capLowestSet are the weight and the capacity of the
	// last overlay that set capacity (Karpenter's lowestWeight and
	// lowestWeightCapacityResources), capBy its name.
	capLowest    int32
	capLowestSet resources.List
	capBy        string
}

// priceUpdate is one offering's price change: the first (highest-weight)
// overlay's string, and the weight and name of the last overlay that
// touched it.
type priceUpdate struct {
	change string
	lowest int32
	by     string
}

// offeringKey is an offering's requirements (zone, capacity type,
// reservation), Karpenter's key for a price update.
type offeringKey struct {
	zone, reservation string
	capacityType      instancetypes.CapacityType
}

func keyOf(o *instancetypes.Offering) offeringKey {
	return offeringKey{zone: o.Zone, capacityType: o.CapacityType, reservation: o.ReservationID}
}

func newState(cat *instancetypes.Catalog, pools []packing.NodePool) *state {
	st := &state{pools: pools, cats: make([]*instancetypes.Catalog, len(pools)),
		bases: make([]requirements.Set, len(pools)), upd: make([]map[string]*update, len(pools))}
	for i := range pools {
		c := pools[i].CatalogOr(cat)
		if c == nil {
			continue
		}
		st.cats[i], st.upd[i] = c, map[string]*update{}
		st.bases[i] = poolBase(&pools[i])
	}
	return st
}

// poolBase is the pool's part of Karpenter's base set for matching:
// karpenter.sh/nodepool In the pool and the pool's template labels; each
// type's requirements complete it (controller.go:231-245).
func poolBase(np *packing.NodePool) requirements.Set {
	pool := requirements.FromLabels(np.Labels)
	if name, err := requirements.New(requirements.LabelNodePool, requirements.In, np.Name); err == nil {
		pool = pool.Add(name) // a pool name that is no label value cannot be selected by name
	}
	return pool
}

// match is one (pool, type) an overlay selects and the offerings (indices
// into the type's Offerings) it selects.
type match struct {
	pool      int
	t         *instancetypes.InstanceType
	offerings []int
}

// add processes one overlay in order and returns its outcome.
func (st *state) add(o *Overlay) Outcome {
	out := Outcome{Overlay: o.Name}
	reqs, err := runtimeErr(o)
	if err != nil {
		out.Status, out.Reason = Invalid, err.Error()
		return out
	}
	ms := st.matches(reqs)
	if with, ok := st.conflict(o, ms); ok {
		out.Status, out.With = Conflict, with
		return out
	}
	for _, m := range ms {
		st.store(o, m)
	}
	out.Types = len(ms)
	if len(ms) == 0 {
		out.Status = SelectsNothing
	}
	return out
}

// matches returns what reqs selects in every evaluated pool.
func (st *state) matches(reqs requirements.Set) []match {
	var out []match
	for p, c := range st.cats {
		if c == nil {
			continue
		}
		m := newMatcher(st.bases[p], reqs)
		for _, t := range c.Types() {
			if !m.compatible(t) {
				continue
			}
			if offs := offerings(t, reqs); len(offs) > 0 {
				out = append(out, match{pool: p, t: t, offerings: offs})
			}
		}
	}
	return out
}

// matcher decides base.StrictlyCompatible(reqs) for base = pool ∩ a
// type's requirements without building base per type: the check is per
// key of reqs, so the keys the pool defines are checked once against the
// pool, and the others against each type, unless a type also defines a
// key of the pool's (then base is built for it).
type matcher struct {
	pool, reqs requirements.Set
	poolKeys   []string         // keys of reqs the pool defines
	rest       requirements.Set // the other requirements of reqs
	poolOK     bool             // the pool alone passes poolKeys
}

func newMatcher(pool, reqs requirements.Set) matcher {
	m := matcher{pool: pool, reqs: reqs}
	var own []requirements.Requirement
	for r := range reqs.All() {
		if pool.Has(r.Key()) {
			m.poolKeys, own = append(m.poolKeys, r.Key()), append(own, r)
		} else {
			m.rest = m.rest.Add(r)
		}
	}
	m.poolOK = pool.StrictlyCompatible(requirements.NewSet(own...)) == nil
	return m
}

// compatible reports whether t's base set is compatible with the
// overlay's requirements (K/scheduling/requirements.go:181-197).
func (m *matcher) compatible(t *instancetypes.InstanceType) bool {
	for _, k := range m.poolKeys {
		if t.Requirements.Has(k) {
			return m.pool.Intersect(t.Requirements).StrictlyCompatible(m.reqs) == nil
		}
	}
	return m.poolOK && t.Requirements.StrictlyCompatible(m.rest) == nil
}

// offerings returns the indices of t's offerings reqs is compatible with,
// as Offerings.Compatible (K/cloudprovider/types.go:554-557): each of the
// offering's labels that reqs constrains must be allowed: zone and
// capacity type ([instancetypes.Offering.Compatible]) and a reserved
// offering's reservation.
func offerings(t *instancetypes.InstanceType, reqs requirements.Set) []int {
	res := reqs.Get(labelReservationID)
	var out []int
	for i, o := range t.Offerings {
		if o.Compatible(reqs) && (o.ReservationID == "" || res.Has(o.ReservationID)) {
			out = append(out, i)
		}
	}
	return out
}

// conflict reports whether o conflicts with an overlay applied before, in
// any pool, and names it (controller.go:163-215, store.go:178-286).
func (st *state) conflict(o *Overlay, ms []match) (string, bool) {
	for _, m := range ms {
		u := st.upd[m.pool][m.t.Name]
		if u == nil {
			continue
		}
		if with, ok := u.priceConflict(o, m); ok {
			return with, true
		}
		if with, ok := u.capacityConflict(o); ok {
			return with, true
		}
	}
	return "", false
}

// priceConflict: o sets a price and one of its offerings was last touched
// at o's weight (even to the same value, suite_test.go:565).
func (u *update) priceConflict(o *Overlay, m match) (string, bool) {
	if o.change() == "" {
		return "", false
	}
	for _, i := range m.offerings {
		if p, ok := u.prices[keyOf(&m.t.Offerings[i])]; ok && p.lowest == o.Weight {
			return p.by, true
		}
	}
	return "", false
}

// capacityConflict: the last overlay that set the type's capacity has o's
// weight and sets one of o's resources. Only that last overlay's
// resources count (store.go:200-236), Karpenter's quirk kept: with equal
// weights, A{x} then B{y} then C{x} does not conflict.
func (u *update) capacityConflict(o *Overlay) (string, bool) {
	if o.Capacity.IsZero() || u.capBy == "" || u.capLowest != o.Weight {
		return "", false
	}
	for n := range o.Capacity.Extended() {
		if u.capLowestSet.Get(n) != 0 {
			return u.capBy, true
		}
	}
	return "", false
}

// store records o's price and capacity for one match (store.go:178-265).
func (st *state) store(o *Overlay, m match) {
	if o.change() == "" && o.Capacity.IsZero() {
		return
	}
	u := st.upd[m.pool][m.t.Name]
	if u == nil {
		u = &update{prices: map[offeringKey]*priceUpdate{}}
		st.upd[m.pool][m.t.Name] = u
	}
	if change := o.change(); change != "" {
		for _, i := range m.offerings {
			k := keyOf(&m.t.Offerings[i])
			if p, ok := u.prices[k]; ok {
				p.lowest, p.by = o.Weight, o.Name
			} else {
				u.prices[k] = &priceUpdate{change: change, lowest: o.Weight, by: o.Name}
			}
		}
	}
	if !o.Capacity.IsZero() {
		for n, v := range o.Capacity.Extended() {
			if u.capacity.Get(n) == 0 {
				u.capacity = u.capacity.With(n, v)
			}
		}
		u.capLowest, u.capLowestSet, u.capBy = o.Weight, o.Capacity, o.Name
	}
}

// build returns the pools with the catalogs the stored updates give.
func (st *state) build() ([]packing.NodePool, error) {
	out := slices.Clone(st.pools)
	var errs []error
	for p, c := range st.cats {
		if c == nil || len(st.upd[p]) == 0 {
			continue
		}
		types := make([]instancetypes.InstanceType, 0, len(st.upd[p]))
		for _, name := range slices.Sorted(maps.Keys(st.upd[p])) {
			t, _ := c.Get(name)
			adjusted, err := st.upd[p][name].apply(t)
			if err != nil {
				errs = append(errs, fmt.Errorf("nodepool %s: instance type %s: %w", st.pools[p].Name, name, err))
				continue
			}
			types = append(types, adjusted)
		}
		adjusted, err := c.WithTypes(types...)
		if err != nil {
			errs = append(errs, fmt.Errorf("nodepool %s: %w", st.pools[p].Name, err))
			continue
		}
		out[p].Catalog = adjusted
	}
	return out, errors.Join(errs...)
}

// apply returns a copy of t with u's prices and capacity (store.go:117-174):
// each updated offering priced by its change, the capacity's resources
// replaced or added (lo.Assign).
func (u *update) apply(t *instancetypes.InstanceType) (instancetypes.InstanceType, error) {
	cp := *t
	if len(u.prices) > 0 {
		cp.Offerings = slices.Clone(t.Offerings)
		for i := range cp.Offerings {
			if p, ok := u.prices[keyOf(&cp.Offerings[i])]; ok {
				price, err := Adjust(cp.Offerings[i].Price, p.change)
				if err != nil {
					return cp, err
				}
				cp.Offerings[i].Price = price
			}
		}
	}
	for n, v := range u.capacity.Extended() {
		cp.Capacity = cp.Capacity.With(n, v)
	}
	return cp, nil
}
