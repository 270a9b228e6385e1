package overlay

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/nodeplan/nodeplan/requirements"
)

// labelReservationID is the AWS provider's capacity-reservation label
// (cloudprovider.ReservationIDLabel there): a reserved offering's
// requirements hold it, and it is a well-known label.
const labelReservationID = "karpenter.k8s.aws/capacity-reservation-id"

// providerWellKnown are the AWS provider's well-known labels that package
// requirements does not list (A/apis/v1/labels.go:33).
var providerWellKnown = []string{labelReservationID, "karpenter.k8s.aws/capacity-reservation-type",
	"karpenter.k8s.aws/capacity-reservation-interruptible"}

// restrictedDomains are Karpenter's and the AWS provider's label domains:
// a key in one (or a subdomain) that is not well known is refused.
var restrictedDomains = []string{"karpenter.sh", "karpenter.k8s.aws"}

// capacityTypes are the known values of karpenter.sh/capacity-type.
var capacityTypes = []string{"on-demand", "reserved", "spot"}

// runtimeErr is Karpenter's RuntimeValidate of an overlay that passed
// [Validate]: each requirement through v1.ValidateRequirement
// (K/apis/v1alpha1/nodeoverlay_validation.go:30-56,
// K/apis/v1/nodeclaim_validation.go:117-160), then that it compiles. It
// returns the compiled requirements, or an error (nil when the overlay may
// be applied).
func runtimeErr(o *Overlay) (requirements.Set, error) {
	var errs []error
	for i, r := range o.Requirements {
		if err := requirementErr(r); err != nil {
			errs = append(errs, fmt.Errorf("spec.requirements[%d]: %w", i, err))
		}
	}
	if len(errs) > 0 {
		return requirements.Set{}, errors.Join(errs...)
	}
	return compile(o.Requirements)
}

// requirementErr is v1.ValidateRequirement without minValues, which an
// overlay's requirement does not have.
func requirementErr(r Requirement) error {
	key := requirements.Normalize(r.Key)
	var errs []error
	if err := restricted(key); err != nil {
		errs = append(errs, err)
	}
	if key == requirements.LabelCapacityType && r.Operator == "In" && !slices.ContainsFunc(r.Values, isCapacityType) {
		errs = append(errs, fmt.Errorf("no valid values found in %q for %s, expected one of: %v", r.Values, key, capacityTypes))
	}
	if err := requirements.ValidateKey(key); err != nil {
		errs = append(errs, fmt.Errorf("key %q is not a qualified name: %w", key, err))
	}
	for _, v := range r.Values {
		if err := requirements.ValidateValue(v); err != nil {
			errs = append(errs, fmt.Errorf("invalid value %q for key %s: %w", v, key, err))
		}
	}
	return errors.Join(errs...)
}

func isCapacityType(v string) bool { return slices.Contains(capacityTypes, v) }

// restricted is v1.IsRestrictedLabel: a well-known key passes; a key in a
// restricted domain, or kubernetes.io/hostname, does not.
func restricted(key string) error {
	if requirements.IsWellKnown(key) || slices.Contains(providerWellKnown, key) {
		return nil
	}
	domain, _, found := strings.Cut(key, "/")
	if !found {
		domain = ""
	}
	for _, d := range restrictedDomains {
		if domain == d || strings.HasSuffix(domain, "."+d) {
			return fmt.Errorf("using label %s is not allowed as it might interfere with the internal provisioning logic", key)
		}
	}
	if key == requirements.LabelHostname {
		return fmt.Errorf("using label %s is not allowed as it might interfere with the internal provisioning logic", key)
	}
	return nil
}

// compile builds the requirement set of rs, keys normalized.
func compile(rs []Requirement) (requirements.Set, error) {
	var set requirements.Set
	for i, r := range rs {
		op, err := requirements.ParseOperator(r.Operator)
		if err != nil {
			return requirements.Set{}, fmt.Errorf("spec.requirements[%d]: %w", i, err)
		}
		req, err := requirements.New(requirements.Normalize(r.Key), op, r.Values...)
		if err != nil {
			return requirements.Set{}, fmt.Errorf("spec.requirements[%d]: %w", i, err)
		}
		set = set.Add(req)
	}
	return set, nil
}
