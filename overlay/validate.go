package overlay

import (
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strconv"

	"github.com/nodeplan/nodeplan/resources"
)

// The CRD's patterns (K/apis/v1alpha1/nodeoverlay.go:75,80). Compiled
// once; a *regexp.Regexp is safe for concurrent use and never changes.
var (
	pricePattern      = regexp.MustCompile(`^\d+(\.\d+)?$`)
	adjustmentPattern = regexp.MustCompile(`^(([+-]{1}(\d*\.?\d+))|(\+{1}\d*\.?\d+%)|(^(-\d{1,2}(\.\d+)?%)$)|(-100%))$`)
)

// operators are the operators the CRD's enum admits.
var operators = []string{"DoesNotExist", "Exists", "Gt", "Gte", "In", "Lt", "Lte", "NotIn"}

// coreResources are the names spec.capacity may not hold (CEL rule,
// nodeoverlay.go:87; Karpenter's WellKnownResources at run time).
var coreResources = []resources.Name{resources.CPU, resources.Memory, resources.EphemeralStorage, resources.Pods}

// Validate checks what the NodeOverlay CRD's schema and CEL rules check,
// so that an overlay the API server would refuse is an error rather than
// a status: a name, the weight (0 or 1..MaxWeight), the price and
// priceAdjustment patterns and that at most one is set, at most
// MaxRequirements requirements, a known operator, In and NotIn with
// values, Gt/Lt/Gte/Lte with one non-negative integer, and no cpu,
// memory, ephemeral-storage or pods in the capacity. What Karpenter checks
// only at run time (label keys and values, restricted labels) makes
// [Apply] report the overlay [Invalid] instead. Every problem is a
// *FieldError wrapping ErrInvalid, joined. O(requirements + values).
func Validate(o Overlay) error {
	var errs []error
	bad := func(field, format string, args ...any) { errs = append(errs, invalid(o.Name, field, format, args...)) }
	if o.Name == "" {
		bad("metadata.name", "empty")
	}
	if o.Weight < 0 || o.Weight > MaxWeight {
		bad("spec.weight", "%d is not in 1..%d", o.Weight, MaxWeight)
	}
	if o.Price != "" && !pricePattern.MatchString(o.Price) {
		bad("spec.price", "%q is not an unsigned decimal such as 0.5", o.Price)
	}
	if o.PriceAdjustment != "" && !adjustmentPattern.MatchString(o.PriceAdjustment) {
		bad("spec.priceAdjustment", "%q is not a signed amount (+0.5, -1) or percentage (+10%%, -15%%, -100%%)", o.PriceAdjustment)
	}
	if o.Price != "" && o.PriceAdjustment != "" {
		bad("spec", "cannot set both 'price' and 'priceAdjustment'")
	}
	if len(o.Requirements) > MaxRequirements {
		bad("spec.requirements", "%d requirements; at most %d", len(o.Requirements), MaxRequirements)
	}
	for i, r := range o.Requirements {
		if err := schemaRequirement(r); err != nil {
			bad(fmt.Sprintf("spec.requirements[%d]", i), "%v", err)
		}
	}
	for _, n := range coreResources {
		if o.Capacity.Get(n) != 0 {
			bad("spec.capacity."+string(n), "invalid resource restricted: capacity adds extended resources only")
		}
	}
	return errors.Join(errs...)
}

// schemaRequirement checks the operator enum and the CEL rules on values.
func schemaRequirement(r Requirement) error {
	switch {
	case !slices.Contains(operators, r.Operator):
		return fmt.Errorf("operator %q is not one of %v", r.Operator, operators)
	case (r.Operator == "In" || r.Operator == "NotIn") && len(r.Values) == 0:
		return fmt.Errorf("operator %s must have a value defined", r.Operator)
	case bounded(r.Operator) && (len(r.Values) != 1 || !nonNegative(r.Values[0])):
		return fmt.Errorf("operator %s must have a single positive integer value, got %q", r.Operator, r.Values)
	}
	return nil
}

// bounded reports whether op takes one integer.
func bounded(op string) bool { return op == "Gt" || op == "Lt" || op == "Gte" || op == "Lte" }

// nonNegative reports whether v is an integer ≥ 0 that fits an int64, as
// CEL's int() and Go's strconv.Atoi read it.
func nonNegative(v string) bool {
	n, err := strconv.ParseInt(v, 10, 64)
	return err == nil && n >= 0
}

// validateAll validates every overlay and that names are unique.
func validateAll(overlays []Overlay) error {
	var errs []error
	seen := make(map[string]bool, len(overlays))
	for i := range overlays {
		errs = append(errs, Validate(overlays[i]))
		if name := overlays[i].Name; name != "" && seen[name] {
			errs = append(errs, &FieldError{Overlay: name, Field: "metadata.name", Err: fmt.Errorf("%w: defined more than once", ErrDuplicate)})
		} else {
			seen[name] = true
		}
	}
	return errors.Join(errs...)
}
