package instancetypes

import (
	"errors"
	"fmt"
	"slices"

	"github.com/nodeplan/nodeplan/requirements"
	"github.com/nodeplan/nodeplan/resources"
)

// build validates t and returns the catalog's own copy of it, its
// requirements completed with its name, zones and capacity types. With
// labelsBuilt the caller vouches that t's requirements were built by
// spec.labels: valid, and complete where t is valid (as a catalog file's
// types are); they are neither checked nor completed again.
func build(t InstanceType, labelsBuilt bool) (*InstanceType, error) {
	errs := validateName(t.Name)
	if !labelsBuilt {
		if err := t.Requirements.Validate(); err != nil {
			errs = append(errs, fieldErr(t.Name, "requirements", ErrInvalidSpec, "%v", err))
		}
	}
	cp, err := ownCopy(t, errs)
	if err != nil || labelsBuilt {
		return cp, err
	}
	name, err := requirements.New(requirements.LabelInstanceType, requirements.In, t.Name)
	if err != nil { // validateName accepted the name: a bug here
		return nil, fieldErr(t.Name, "name", ErrInvalidName, "%v", err)
	}
	zone, ct, err := offeringLabels(cp.Offerings)
	if err != nil {
		return nil, fieldErr(t.Name, "offerings", ErrInvalidOffering, "%v", err)
	}
	cp.Requirements = cp.Requirements.Replace(ct, name, zone) // keys in order: Replace merges
	return cp, nil
}

// ownCopy validates t's resources and offerings and, when they and errs
// (the caller's findings so far) are clean, returns the catalog's copy of
// t: its offerings cloned and sorted, its Allocatable computed; its
// requirements are t's, for the caller to complete. Else it returns the
// errors, joined.
func ownCopy(t InstanceType, errs []error) (*InstanceType, error) {
	errs = append(errs, validateResources(t)...)
	errs = append(errs, validateOfferings(t)...)
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	cp := t
	cp.Offerings = slices.Clone(t.Offerings)
	slices.SortFunc(cp.Offerings, compareOfferings)
	cp.Allocatable = t.Capacity.Sub(t.Overhead)
	return &cp, nil
}

// MaxValidPrice is the largest price an offering (and, in the packing
// package, a node or a per-node overhead) may have: a million units of
// its currency an hour, a thousand times the dearest machine for rent. Prices are
// validated against it so that a difference of two prices never
// overflows and a sum of 9,223 of them does not either; longer sums (a
// plan's total) saturate at [MaxPrice].
const MaxValidPrice = Price(1_000_000 * nanosPerDollar)

func validateName(name string) []error {
	if name == "" {
		return []error{fieldErr(name, "name", ErrInvalidName, "empty")}
	}
	if err := requirements.ValidateValue(name); err != nil {
		return []error{fieldErr(name, "name", ErrInvalidName, "not a label value: %v", err)}
	}
	return nil
}

// validateResources checks that cpu, memory and pods are positive, nothing
// is negative or above [resources.MaxAmount], and the overhead fits in the
// capacity.
func validateResources(t InstanceType) []error {
	var errs []error
	for _, n := range []resources.Name{resources.CPU, resources.Memory, resources.Pods} {
		if t.Capacity.Get(n) == 0 {
			errs = append(errs, fieldErr(t.Name, "capacity."+string(n), ErrInvalidCapacity, "0, must be positive"))
		}
	}
	errs = append(errs, outOfRange(t.Name, "capacity", ErrInvalidCapacity, t.Capacity)...)
	errs = append(errs, outOfRange(t.Name, "overhead", ErrInvalidOverhead, t.Overhead)...)
	if len(errs) == 0 && !t.Overhead.Fits(t.Capacity) {
		n, _ := t.Overhead.Shortfall(t.Capacity)
		errs = append(errs, fieldErr(t.Name, "overhead."+string(n), ErrInvalidOverhead,
			"%d exceeds capacity %d", t.Overhead.Get(n), t.Capacity.Get(n)))
	}
	return errs
}

// outOfRange reports every dimension of l that is negative or above
// resources.MaxAmount.
func outOfRange(typ, field string, kind error, l resources.List) []error {
	var errs []error
	for n, v := range l.All() {
		switch {
		case v < 0:
			errs = append(errs, fieldErr(typ, field+"."+string(n), kind, "%d is negative", v))
		case v > resources.MaxAmount:
			errs = append(errs, fieldErr(typ, field+"."+string(n), kind, "%d is above %d", v, int64(resources.MaxAmount)))
		}
	}
	return errs
}

// validateOfferings checks each offering and that there is at least one and
// no two alike.
func validateOfferings(t InstanceType) []error {
	if len(t.Offerings) == 0 {
		return []error{fieldErr(t.Name, "offerings", ErrNoOfferings, "an instance type needs at least one offering")}
	}
	var errs []error
	for i, o := range t.Offerings {
		field := func() string { return fmt.Sprintf("offerings[%d]", i) } // named only in an error
		errs = append(errs, validateOffering(t.Name, field, o)...)
		for j := range i {
			if p := t.Offerings[j]; p.Zone == o.Zone && p.CapacityType == o.CapacityType && p.ReservationID == o.ReservationID {
				errs = append(errs, fieldErr(t.Name, field(), ErrInvalidOffering, "same zone, capacity type and reservation as offerings[%d]", j))
			}
		}
	}
	return errs
}

func validateOffering(typ string, field func() string, o Offering) []error {
	var errs []error
	if !o.CapacityType.valid() {
		errs = append(errs, fieldErr(typ, field()+".capacityType", ErrInvalidCapacityType, "%s is not on-demand, spot or reserved", o.CapacityType))
	}
	if o.Price < 0 || o.Price > MaxValidPrice {
		errs = append(errs, fieldErr(typ, field()+".price", ErrInvalidPrice, "%s is not in 0..%s", o.Price, MaxValidPrice))
	}
	if o.Zone == "" {
		errs = append(errs, fieldErr(typ, field()+".zone", ErrInvalidOffering, "empty"))
	} else if err := requirements.ValidateValue(o.Zone); err != nil {
		errs = append(errs, fieldErr(typ, field()+".zone", ErrInvalidOffering, "%v", err))
	}
	if o.ReservedUnits < 0 {
		errs = append(errs, fieldErr(typ, field()+".reservedUnits", ErrInvalidOffering, "%d is negative", o.ReservedUnits))
	}
	if o.CapacityType != Reserved && (o.ReservationID != "" || o.ReservedUnits != 0) {
		errs = append(errs, fieldErr(typ, field()+".reservationID", ErrInvalidOffering, "only reserved offerings have a reservation"))
	}
	return errs
}

// offeringRequirements returns reqs with the zone and capacity-type
// requirements replaced by those of offs ([offeringLabels]).
func offeringRequirements(reqs requirements.Set, offs []Offering) (requirements.Set, error) {
	zone, ct, err := offeringLabels(offs)
	if err != nil {
		return reqs, err
	}
	return reqs.Replace(zone, ct), nil
}

// offeringLabels returns the zone and capacity-type requirements of offs:
// In the values of the usable offerings, DoesNotExist when none is usable.
func offeringLabels(offs []Offering) (zone, ct requirements.Requirement, err error) {
	zones, cts := usable(offs, make([]string, 0, len(offs)), make([]string, 0, len(offs)))
	return usableLabels(zones, cts)
}

// usable appends the zone and the capacity type of each usable offering
// of offs to zones and cts.
func usable(offs []Offering, zones, cts []string) ([]string, []string) {
	for _, o := range offs {
		if o.Usable() {
			zones = append(zones, o.Zone)
			cts = append(cts, o.CapacityType.String())
		}
	}
	return zones, cts
}

// usableLabels returns the zone and capacity-type requirements of the
// usable zones and capacity types ([usable]).
func usableLabels(zones, cts []string) (zone, ct requirements.Requirement, err error) {
	zone, err1 := inOrAbsent(requirements.LabelZone, zones)
	ct, err2 := inOrAbsent(requirements.LabelCapacityType, cts)
	return zone, ct, errors.Join(err1, err2)
}

// inOrAbsent returns key In values, or key DoesNotExist for no values.
func inOrAbsent(key string, values []string) (requirements.Requirement, error) {
	if len(values) == 0 {
		return requirements.New(key, requirements.DoesNotExist)
	}
	return requirements.New(key, requirements.In, values...)
}
