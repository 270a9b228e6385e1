// Package overlay applies Karpenter's NodeOverlays (karpenter.sh/v1alpha1,
// behind the NodeOverlay feature gate, off by default) to the instance
// types each NodePool launches from: an overlay selects instance types and
// offerings by label requirements and gives them a price, a price
// adjustment, or extra extended-resource capacity, so that provisioning,
// consolidation and drift plan with the prices and capacities the cluster
// operator says are true (a negotiated discount, a licence fee, hugepages
// or a device plugin's resources).
//
// An [Overlay] is one NodeOverlay; the name overlay.Overlay
// stutters on purpose: it is the package's one central type, as time.Time
// is.
//
// [Apply] takes the catalog, the NodePools ([packing.NodePool]: name,
// template labels, and the pool's own Catalog when it has one) and the
// overlays, and returns the pools with a Catalog holding the adjusted
// types ([instancetypes.Catalog.WithTypes]; untouched types are shared)
// and a [Report]. It follows Karpenter v1.14.1
// (K/controllers/nodeoverlay/controller.go, store.go):
//
//   - Overlays are processed by weight descending, then name descending.
//   - An overlay that fails Karpenter's run-time validation (label keys
//     and values, restricted labels, known capacity-type values) is
//     [Invalid] and not applied.
//   - Matching, per NodePool and instance type: the base set is
//     karpenter.sh/nodepool In the pool, the pool's template labels and
//     the type's requirements; an overlay key the base set does not define
//     fails unless it is NotIn or DoesNotExist. The selected offerings are
//     those whose zone, capacity type and reservation the overlay allows.
//     No requirements select everything.
//   - A price applies to each selected offering; a capacity to the whole
//     type. The first (highest-weight) writer wins per offering and per
//     resource; adjustments do not stack.
//   - An overlay that touches an offering already priced by an overlay of
//     the same weight is a [Conflict], even with the same value; so is one
//     that sets a resource the last capacity overlay of the type set at
//     the same weight. Only that last overlay's resources count, a quirk
//     of Karpenter kept here: with equal weights, A{x}, B{y}, C{x} in that
//     order does not flag C. A conflicting overlay is not applied at all,
//     on no pool and no type. The later overlay in processing order loses,
//     so of two of equal weight the alphabetically earlier name.
//   - Prices follow [Adjust].
//
// Where nodeplan differs from Karpenter, and why:
//
//   - [SelectsNothing] is nodeplan's own status: Karpenter reports an
//     overlay that selects nothing as succeeded, which hides a typo.
//   - Prices are exact fixed-point nano-units, so [Adjust] rounds once to
//     the nearest nano-unit where Karpenter keeps a float64, and caps a
//     price at instancetypes.MaxValidPrice.
//   - What the CRD's schema and CEL rules reject (patterns, both price
//     fields, weight range, cpu/memory/ephemeral-storage/pods capacity,
//     the operator enum and value counts) is an error of [Validate] and
//     Apply, as the API server would refuse the object; Karpenter's own
//     tests reach the run-time check only by bypassing the schema.
//   - A capacity resource of 0 cannot be held by a resources.List.
//   - As in Karpenter, an overlay requirement In on
//     karpenter.k8s.aws/capacity-reservation-id selects nothing (instance
//     types do not carry that label; only their offerings do), while
//     NotIn passes and leaves out the reserved offerings it names.
//   - Karpenter's status conditions, the NodeClaim annotations
//     karpenter.sh/price-overlay-applied and capacity-overlay-applied, and
//     the AWS provider's CreateFleet strategy change are not modelled.
//   - The AWS provider also prices an instance type that has no price in
//     the pricing API from an overlay with spec.price and exactly one
//     requirement node.kubernetes.io/instance-type In [...]; nodeplan's
//     catalogs leave unpriced types out, so that rule is not modelled.
//
// The package is pure: no clock, no I/O, and it never modifies its
// inputs. See ExampleApply.
package overlay
