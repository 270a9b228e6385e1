package instancetypes

import (
	"errors"
	"fmt"
	"slices"

	"github.com/nodeplan/nodeplan/requirements"
	"github.com/nodeplan/nodeplan/resources"
)

// build validates t and returns the catalog's own copy of it.
func build(t InstanceType) (*InstanceType, error) {
	errs := validateName(t.Name)
	errs = append(errs, validateResources(t)...)
	errs = append(errs, validateOfferings(t)...)
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	cp := t
	cp.Offerings = slices.Clone(t.Offerings)
	slices.SortFunc(cp.Offerings, compareOfferings)
	cp.Allocatable = t.Capacity.Sub(t.Overhead)
	reqs := cp.Requirements.Without(requirements.LabelInstanceType)
	cp.Requirements = offeringRequirements(reqs.Add(requirements.MustNew(requirements.LabelInstanceType, requirements.In, t.Name)), cp.Offerings)
	return &cp, nil
}

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
// is negative and the overhead fits in the capacity.
func validateResources(t InstanceType) []error {
	var errs []error
	for _, n := range []resources.Name{resources.CPU, resources.Memory, resources.Pods} {
		if v := t.Capacity.Get(n); v <= 0 {
			errs = append(errs, fieldErr(t.Name, "capacity."+string(n), ErrInvalidCapacity, "%d, must be positive", v))
		}
	}
	errs = append(errs, negatives(t.Name, "capacity", ErrInvalidCapacity, t.Capacity)...)
	errs = append(errs, negatives(t.Name, "overhead", ErrInvalidOverhead, t.Overhead)...)
	if len(errs) == 0 && !t.Overhead.Fits(t.Capacity) {
		n, _ := t.Overhead.Shortfall(t.Capacity)
		errs = append(errs, fieldErr(t.Name, "overhead."+string(n), ErrInvalidOverhead,
			"%d exceeds capacity %d", t.Overhead.Get(n), t.Capacity.Get(n)))
	}
	return errs
}

// negatives reports every negative dimension of l.
func negatives(typ, field string, kind error, l resources.List) []error {
	var errs []error
	check := func(n resources.Name, v int64) {
		if v < 0 {
			errs = append(errs, fieldErr(typ, field+"."+string(n), kind, "%d is negative", v))
		}
	}
	check(resources.EphemeralStorage, l.EphemeralStorage)
	if field == "overhead" {
		check(resources.CPU, l.CPU)
		check(resources.Memory, l.Memory)
		check(resources.Pods, l.Pods)
	}
	for n, v := range l.Extended() {
		check(n, v)
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
		field := fmt.Sprintf("offerings[%d]", i)
		errs = append(errs, validateOffering(t.Name, field, o)...)
		for j := range i {
			if p := t.Offerings[j]; p.Zone == o.Zone && p.CapacityType == o.CapacityType && p.ReservationID == o.ReservationID {
				errs = append(errs, fieldErr(t.Name, field, ErrInvalidOffering, "same zone, capacity type and reservation as offerings[%d]", j))
			}
		}
	}
	return errs
}

func validateOffering(typ, field string, o Offering) []error {
	var errs []error
	if !o.CapacityType.valid() {
		errs = append(errs, fieldErr(typ, field+".capacityType", ErrInvalidCapacityType, "%s is not on-demand, spot or reserved", o.CapacityType))
	}
	if o.Price < 0 {
		errs = append(errs, fieldErr(typ, field+".price", ErrInvalidPrice, "%s is negative", o.Price))
	}
	if o.Zone == "" {
		errs = append(errs, fieldErr(typ, field+".zone", ErrInvalidOffering, "empty"))
	} else if err := requirements.ValidateValue(o.Zone); err != nil {
		errs = append(errs, fieldErr(typ, field+".zone", ErrInvalidOffering, "%v", err))
	}
	if o.ReservedUnits < 0 {
		errs = append(errs, fieldErr(typ, field+".reservedUnits", ErrInvalidOffering, "%d is negative", o.ReservedUnits))
	}
	if o.CapacityType != Reserved && (o.ReservationID != "" || o.ReservedUnits != 0) {
		errs = append(errs, fieldErr(typ, field+".reservationID", ErrInvalidOffering, "only reserved offerings have a reservation"))
	}
	return errs
}

// offeringRequirements returns reqs with the zone and capacity-type
// requirements replaced by In the values of the usable offerings
// (DoesNotExist when there are none), as Karpenter derives them.
func offeringRequirements(reqs requirements.Set, offs []Offering) requirements.Set {
	var zones, cts []string
	for _, o := range offs {
		if o.Usable() {
			zones = append(zones, o.Zone)
			cts = append(cts, o.CapacityType.String())
		}
	}
	return reqs.Without(requirements.LabelZone, requirements.LabelCapacityType).
		Add(inOrAbsent(requirements.LabelZone, zones), inOrAbsent(requirements.LabelCapacityType, cts))
}

// inOrAbsent returns key In values, or key DoesNotExist for no values.
// values are valid label values (checked by validateOffering).
func inOrAbsent(key string, values []string) requirements.Requirement {
	if len(values) == 0 {
		return requirements.MustNew(key, requirements.DoesNotExist)
	}
	return requirements.MustNew(key, requirements.In, values...)
}
