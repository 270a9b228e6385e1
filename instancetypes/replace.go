package instancetypes

import (
	"bytes"
	"errors"
	"reflect"
	"slices"

	"github.com/nodeplan/nodeplan/requirements"
)

// WithTypes returns a catalog in which each type of c named by one of
// types is replaced by a copy of it, validated and built as [New] builds
// a type (offerings sorted, Allocatable = Capacity − Overhead): the way to
// change the prices of offerings or the capacity of a type, as package
// overlay does. A replacement keeps its type's labels: its requirements,
// as New builds them, must equal the replaced type's (the same name and
// the same zones and capacity types of usable offerings), since the new
// catalog shares c's label index. A name c does not hold, a name given
// twice, a replacement New rejects or one whose labels differ is an error
// joined from *FieldError values wrapping [ErrInvalid] (ErrInvalidName,
// ErrDuplicateName, ErrInvalidSpec or New's).
//
// A type built from a catalog file keeps how its capacity and overhead
// were built, so [Catalog.WithKubelet] on the result builds them again
// and drops a changed capacity: apply WithKubelet and [Catalog.WithZones]
// first. With no types it returns c. The receiver and types are
// unchanged; the new catalog shares the untouched types, the label index
// and (copy-on-write) the price order. The complexity is
// O(n/64 + k (log n + labels + offerings log offerings)) for k types.
func (c *Catalog) WithTypes(types ...InstanceType) (*Catalog, error) {
	if len(types) == 0 {
		return c, nil
	}
	built, idx, err := c.replacements(types)
	if err != nil {
		return nil, err
	}
	out := &Catalog{types: slices.Clone(c.types), byName: c.byName, index: c.index, order: c.order.Clone(),
		avail: c.avail.Clone(), origin: c.origin}
	for k, t := range built {
		i := idx[k]
		out.order.Delete(priceEntry{out.types[i].minPrice(), i})
		out.avail.Remove(i)
		out.types[i] = t
		out.insert(i, t)
	}
	return out, nil
}

// replacements builds types and finds the index in c of each.
func (c *Catalog) replacements(types []InstanceType) ([]*InstanceType, []int, error) {
	var errs []error
	built, idx := make([]*InstanceType, 0, len(types)), make([]int, 0, len(types))
	seen := make(map[string]bool, len(types))
	for k := range types {
		name := types[k].Name
		i, ok := c.byName[name]
		switch {
		case !ok:
			errs = append(errs, fieldErr(name, "name", ErrInvalidName, "not in the catalog"))
			continue
		case seen[name]:
			errs = append(errs, fieldErr(name, "name", ErrDuplicateName, "replaced more than once"))
			continue
		}
		seen[name] = true
		t, err := rebuild(c.types[i], types[k])
		if err != nil {
			errs = append(errs, err)
			continue
		}
		built, idx = append(built, t), append(idx, i)
	}
	if len(errs) > 0 {
		return nil, nil, errors.Join(errs...)
	}
	return built, idx, nil
}

// rebuild is build for a replacement of old, which must keep its labels
// (an error wrapping ErrInvalidSpec otherwise). When t keeps old's
// requirements (shared, as in a copy of old) and its usable offerings the
// same zones and capacity types, the requirements build would compute
// are old's: t is validated and its offerings sorted, and old's
// requirements kept, which saves most of build's cost.
func rebuild(old *InstanceType, t InstanceType) (*InstanceType, error) {
	if !reflect.DeepEqual(t.Requirements, old.Requirements) || !sameUsable(old.Offerings, t.Offerings) {
		built, err := build(t, false)
		if err == nil && !sameRequirements(built.Requirements, old.Requirements) {
			return nil, fieldErr(t.Name, "requirements", ErrInvalidSpec,
				"a replacement must keep the type's labels %s, got %s", old.Requirements, built.Requirements)
		}
		return built, err
	}
	return ownCopy(t, nil)
}

// sameUsable reports whether the usable offerings of a and b have the same
// zones and the same capacity types, which is all of the offerings that
// reaches a type's requirements. O(n²) in the few offerings of a type;
// it does not allocate.
func sameUsable(a, b []Offering) bool {
	return covers(a, b) && covers(b, a)
}

// covers reports whether every usable offering of a has a usable one in b
// of its zone and one of its capacity type.
func covers(a, b []Offering) bool {
	for _, x := range a {
		if !x.Usable() {
			continue
		}
		zone, ct := false, false
		for _, y := range b {
			if y.Usable() {
				zone, ct = zone || y.Zone == x.Zone, ct || y.CapacityType == x.CapacityType
			}
		}
		if !zone || !ct {
			return false
		}
	}
	return true
}

// sameRequirements reports whether a and b are the same requirements,
// compared exactly (their String shortens long value lists).
func sameRequirements(a, b requirements.Set) bool {
	ka, _ := a.AppendBinary(nil)
	kb, _ := b.AppendBinary(nil)
	return bytes.Equal(ka, kb)
}
