package kube

import (
	"errors"
	"fmt"
	"slices"

	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/karpenter/pkg/apis/v1alpha1"

	"github.com/nodeplan/nodeplan/instancetypes"
	"github.com/nodeplan/nodeplan/overlay"
	"github.com/nodeplan/nodeplan/packing"
	"github.com/nodeplan/nodeplan/resources"
)

// KindNodeOverlay is the kind of Karpenter's NodeOverlay, read at
// KarpenterV1alpha1APIVersion.
const KindNodeOverlay = "NodeOverlay"

// KarpenterV1alpha1APIVersion is the apiVersion of NodeOverlays.
const KarpenterV1alpha1APIVersion = "karpenter.sh/v1alpha1"

// FromNodeOverlay converts a karpenter.sh/v1alpha1 NodeOverlay for
// package overlay, checking what its CRD's schema and CEL rules check
// ([overlay.Validate]) so that an object the API server would refuse is
// an error: a weight of 0 (the CRD's minimum is 1; leave it unset), an
// empty price or priceAdjustment, a capacity naming cpu, memory,
// ephemeral-storage or pods, and a capacity of 0 or a negative or
// fractional one for an extended resource (a resources.List cannot hold
// 0; the API server would take it). The error is an *ObjectError naming
// the NodeOverlay and the field, wrapping ErrInvalid. status is not read:
// nodeplan validates and orders the overlays itself, as Karpenter's
// controller does. no is not modified.
func FromNodeOverlay(no *v1alpha1.NodeOverlay) (overlay.Overlay, error) {
	o := overlay.Overlay{Name: no.Name}
	bad := func(field string, err error) (overlay.Overlay, error) {
		return overlay.Overlay{}, &ObjectError{Kind: KindNodeOverlay, Name: no.Name, Field: field, Err: fmt.Errorf("%w: %w", ErrInvalid, err)}
	}
	s := &no.Spec
	if s.Weight != nil {
		if *s.Weight == 0 {
			return bad("spec.weight", errors.New("0 is below the minimum 1; leave it unset for 0"))
		}
		o.Weight = *s.Weight
	}
	if s.Price != nil && *s.Price == "" {
		return bad("spec.price", errors.New("empty; leave it unset"))
	}
	if s.PriceAdjustment != nil && *s.PriceAdjustment == "" {
		return bad("spec.priceAdjustment", errors.New("empty; leave it unset"))
	}
	o.Price, o.PriceAdjustment = deref(s.Price), deref(s.PriceAdjustment)
	for _, r := range s.Requirements {
		o.Requirements = append(o.Requirements, overlay.Requirement{Key: r.Key, Operator: string(r.Operator), Values: r.Values})
	}
	c, field, err := overlayCapacity(s.Capacity)
	if err != nil {
		return bad(field, err)
	}
	o.Capacity = c
	if err := overlay.Validate(o); err != nil {
		var fe *overlay.FieldError
		if errors.As(err, &fe) {
			return bad(fe.Field, fe.Err)
		}
		return bad("spec", err)
	}
	return o, nil
}

// overlayCapacity converts spec.capacity, naming the field at fault.
func overlayCapacity(rl corev1.ResourceList) (resources.List, string, error) {
	for _, name := range sortedKeys(rl) {
		field := "spec.capacity" + key(string(name))
		q := rl[name]
		if slices.Contains([]corev1.ResourceName{corev1.ResourceCPU, corev1.ResourceMemory, corev1.ResourceEphemeralStorage, corev1.ResourcePods}, name) {
			return resources.List{}, field, errors.New("invalid resource restricted: a NodeOverlay adds extended resources only")
		}
		if q.Sign() <= 0 {
			return resources.List{}, field, fmt.Errorf("%s: nodeplan models a positive capacity only", q.String())
		}
	}
	l, err := list(rl)
	if err != nil {
		return resources.List{}, "spec.capacity", err
	}
	return l, "", nil
}

func (b *builder) addNodeOverlay(no *v1alpha1.NodeOverlay, _ *object) error {
	o, err := FromNodeOverlay(no)
	if err != nil {
		return err
	}
	b.overlays = append(b.overlays, o)
	return nil
}

// applyOverlays gives the NodePools of p the catalogs c's NodeOverlays
// make of theirs (overlay.Apply), before nodes are priced, so that a
// node's price, a claim's offering and consolidation's comparisons are
// the overlaid ones. An error names the catalog's fault.
func (c *Cluster) applyOverlays(p *packing.Problem) error {
	if len(c.Overlays) == 0 || p.Catalog == nil {
		return nil
	}
	res, err := overlay.Apply(p.Catalog, p.NodePools, c.Overlays)
	if err != nil {
		return fmt.Errorf("NodeOverlays: %w", err)
	}
	p.NodePools = res.NodePools
	return nil
}

// OverlayReport returns what became of each NodeOverlay of c on the
// catalog: applied, selecting nothing, invalid at run time (Karpenter's
// ValidationSucceeded=False, reason RuntimeValidation) or in conflict
// (reason Conflict), in the order Karpenter processes them. Nil without
// overlays. Errors are those of [Cluster.Problem]. It does not modify c.
// O(overlays × pools × catalog) on top of Problem's.
func (c *Cluster) OverlayReport(cat *instancetypes.Catalog) (overlay.Report, error) {
	if len(c.Overlays) == 0 || cat == nil {
		return nil, nil
	}
	plain := *c
	plain.Overlays = nil
	p, err := plain.problem(cat)
	if err != nil {
		return nil, err
	}
	res, err := overlay.Apply(cat, p.NodePools, c.Overlays)
	return res.Report, err
}

// OverlayWarnings returns one line per NodeOverlay of c that is not
// applied or selects nothing ([overlay.Report.Warnings]), for the
// commands' warnings.
func (c *Cluster) OverlayWarnings(cat *instancetypes.Catalog) ([]string, error) {
	r, err := c.OverlayReport(cat)
	return r.Warnings(), err
}
