// Package resources holds the resource arithmetic of node scheduling: exact
// Kubernetes quantities ([Quantity]) and fixed-point resource vectors
// ([List]) for pod requests, node capacity and allocatable.
//
// # Quantities
//
// [ParseQuantity] reads the Kubernetes quantity syntax ("100m", "1.5",
// "2Gi", "500M", "1e3", "0.5Ki") with the semantics of
// k8s.io/apimachinery/pkg/api/resource, without importing it: the same
// suffixes, the same rounding up to a multiple of 10^-9, the same canonical
// [Quantity.String] ("1.5" → "1500m", "1000" → "1k", "0.5Ki" → "512",
// "1.5Gi" → "1536Mi") and the same rounding of [Quantity.Value] and
// [Quantity.MilliValue]. A Quantity is an int64 mantissa with a decimal
// exponent, so quantities whose magnitude exceeds math.MaxInt64 whole units
// (or that need more than 19 significant digits) are rejected with
// [ErrQuantityRange] instead of falling back to arbitrary precision. The
// zero Quantity is 0.
//
// # Lists
//
// A [List] is a resource vector in fixed-point units: cpu in millicores,
// memory and ephemeral-storage in bytes, pods as a count, and extended
// resources (nvidia.com/gpu, vpc.amazonaws.com/pod-eni, …) in whole units.
// The four core dimensions are plain int64 fields; extended resources are a
// sorted, immutable slice. The zero List is "nothing" (every dimension 0);
// an absent dimension is 0 everywhere. Arithmetic saturates instead of
// wrapping. [Parse] converts a map of quantity strings (a container's
// requests, a node's allocatable) and rejects negative, malformed,
// overflowing and — for pods and extended resources — fractional values with
// a *[QuantityError] naming the resource and the input.
//
// # Cost model
//
// Quantity and List are small values, safe to copy and to share between
// goroutines. Parsing a quantity of at most 19 significant digits does not
// allocate (longer inputs take a math/big path); formatting allocates the
// string. [List.Fits], [List.Shortfall], [List.Compare], [List.Equal] and
// [List.Get] never allocate and cost O(1) plus O(e) in the number e of
// extended resources (O(log e) for Get). [List.Add], [List.Sub] and
// [List.Max] do not allocate when neither operand has extended resources
// (Add and Sub also share the slice when only one side has them); otherwise
// they allocate the merged slice. TestNoAllocs enforces these budgets.
//
// See ExampleParseQuantity and ExampleList_Fits.
package resources
