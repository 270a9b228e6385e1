package buffer

import (
	"errors"
	"fmt"
	"math"

	"github.com/nodeplan/nodeplan/packing"
	"github.com/nodeplan/nodeplan/resources"
)

// ErrInvalidBuffer is wrapped by the error of a buffer whose spec the
// API server's validation rejects: a negative replicas, percentage or
// limit, or a name that is empty.
var ErrInvalidBuffer = errors.New("invalid capacitybuffer")

// Validate reports every field the CapacityBuffer CRD's OpenAPI
// validation rejects (replicas, percentage and limits are ≥ 0; the name
// is set), joined, each wrapping [ErrInvalidBuffer] and naming the buffer
// and field. The CEL rules (a podTemplateRef needs replicas or limits; the
// two refs exclude each other) are not checked: Karpenter's controller
// runs on what they let through and so does [Evaluate]. O(len(Limits)).
func (b *Buffer) Validate() error {
	var errs []error
	bad := func(field, format string, args ...any) {
		errs = append(errs, fmt.Errorf("%w: capacitybuffer %s %s: %s", ErrInvalidBuffer, b.Key(), field, fmt.Sprintf(format, args...)))
	}
	if b.Name == "" {
		bad("metadata.name", "is empty")
	}
	if b.HasReplicas && b.Replicas < 0 {
		bad("spec.replicas", "%d is negative", b.Replicas)
	}
	if b.HasPercentage && b.Percentage < 0 {
		bad("spec.percentage", "%d is negative", b.Percentage)
	}
	for _, n := range resources.SortedNames(b.Limits) {
		if b.Limits[n] < 0 {
			bad("spec.limits."+string(n), "%d is negative", b.Limits[n])
		}
	}
	return errors.Join(errs...)
}

// Target returns the object b refers to: its PodTemplate when set, else
// its scalable workload. It returns a [RefError] wrapping [ErrNoRef] when
// neither is set and one wrapping [ErrUnsupportedRef] for an API group
// other than "" or "apps" or a kind other than Deployment, StatefulSet or
// ReplicaSet (the group is checked first), as Karpenter's
// ResolveScalableRef. O(1).
func (b *Buffer) Target() (Target, error) {
	switch {
	case b.PodTemplate != "":
		return Target{Kind: PodTemplate, Namespace: b.Namespace, Name: b.PodTemplate}, nil
	case b.Scalable == nil:
		return Target{}, &RefError{Buffer: b.Key(), Field: "spec", Detail: "no ref", Err: ErrNoRef}
	case b.Scalable.APIGroup != "" && b.Scalable.APIGroup != "apps":
		return Target{}, &RefError{Buffer: b.Key(), Field: "spec.scalableRef.apiGroup",
			Detail: fmt.Sprintf("%q is not apps", b.Scalable.APIGroup), Err: ErrUnsupportedRef}
	}
	k, ok := scalableKinds[b.Scalable.Kind]
	if !ok {
		return Target{}, &RefError{Buffer: b.Key(), Field: "spec.scalableRef.kind",
			Detail: fmt.Sprintf("%q is not Deployment, StatefulSet or ReplicaSet", b.Scalable.Kind), Err: ErrUnsupportedRef}
	}
	return Target{Kind: k, Namespace: b.Namespace, Name: b.Scalable.Name}, nil
}

// scalableKinds are the kinds a scalableRef may name, by spelling.
var scalableKinds = map[string]Kind{"Deployment": Deployment, "StatefulSet": StatefulSet, "ReplicaSet": ReplicaSet}

// Result is a buffer evaluated: its ReadyForProvisioning reason, the
// error behind a reason other than Resolved, the replicas it asks for and
// the template its pods copy. The zero Result is a Resolved buffer of 0
// replicas.
type Result struct {
	Namespace, Name string
	Reason          Reason
	// Err, for a Reason other than Resolved, is a [RefError], a
	// [ReplicasError] or wraps [ErrInvalidBuffer].
	Err error
	// Replicas is the buffer's status.replicas; 0 unless Resolved, at most
	// [MaxReplicas].
	Replicas int32
	// Template is the resolved workload's pod template.
	Template packing.Pod
}

// Key returns "namespace/name". O(len).
func (r *Result) Key() string { return packing.ObjectKey(r.Namespace, r.Name) }

// Ready reports whether the buffer is ReadyForProvisioning.
func (r *Result) Ready() bool { return r.Reason == Resolved }

// Evaluate resolves b against the objects a host found and computes its
// replicas, as Karpenter's capacity buffer controller does
// (resolveAndUpdateStatus): neither ref set, or an unsupported group or
// kind → ResolutionFailed; the target missing from ws → PodTemplateNotFound
// or ScalableRefNotFound; else Resolved with [Replicas]. An invalid spec
// (see [Buffer.Validate]) is ResolutionFailed with that error, and so is a
// count above [MaxReplicas] (a [ReplicasError]), which nodeplan will not
// expand into pods. Evaluate does not modify b or ws. O(len(Limits) + resources).
func Evaluate(b Buffer, ws Workloads) Result {
	r := Result{Namespace: b.Namespace, Name: b.Name, Reason: ResolutionFailed}
	if r.Err = b.Validate(); r.Err != nil {
		return r
	}
	t, err := b.Target()
	if err != nil {
		r.Err = err
		return r
	}
	w, ok := ws[t]
	if !ok {
		r.Reason, r.Err = notFound(&b, t)
		return r
	}
	n, field := count(b, w)
	if n > MaxReplicas {
		r.Err = &ReplicasError{Buffer: b.Key(), Field: field, Replicas: n}
		return r
	}
	r.Reason, r.Template, r.Replicas = Resolved, w.Template, int32(max(n, 0))
	return r
}

// notFound is the reason and error of a target that does not exist.
func notFound(b *Buffer, t Target) (Reason, error) {
	if t.Kind == PodTemplate {
		return PodTemplateNotFound, &RefError{Buffer: b.Key(), Field: "spec.podTemplateRef.name", Detail: t.String(), Err: ErrNotFound}
	}
	return ScalableRefNotFound, &RefError{Buffer: b.Key(), Field: "spec.scalableRef.name", Detail: t.String(), Err: ErrNotFound}
}

// Replicas is how many pods buffer b asks for, given its resolved
// workload w, as Karpenter's computeReplicas:
//
//   - desired is the larger of spec.replicas and, for a scalableRef with
//     percentage whose workload has replicas > 0 (an unset spec.replicas
//     is 1), ceil(replicas × percentage / 100), at least 1 when the
//     percentage is positive. The field's doc says "minimum", the code
//     takes the maximum; nodeplan follows the code.
//   - limits: per resource both in spec.limits and, non-zero, in the
//     template's requests, floor(limit / request); the smallest of these
//     bounds desired, or is the answer when neither replicas nor a
//     percentage applies. No such resource: limits are ignored.
//   - nothing applies: 0.
//
// Replicas uses exact integer arithmetic where Karpenter divides float64s
// (they agree below 2^53) and saturates at math.MaxInt32 where Karpenter
// converts an out-of-range float to int32. O(len(Limits)).
func Replicas(b Buffer, w Workload) int32 {
	n, _ := count(b, w)
	return clamp(n)
}

// count is [Replicas] before it saturates, and the field that produced
// it: spec.replicas, spec.percentage, spec.limits.<resource>, or "" for
// nothing applies.
func count(b Buffer, w Workload) (int64, string) {
	desired, field := int64(0), ""
	if b.PodTemplate == "" && b.HasPercentage {
		if n := workloadReplicas(w); n > 0 {
			desired, field = percentReplicas(n, int64(b.Percentage)), "spec.percentage"
		}
	}
	if b.HasReplicas && (field == "" || int64(b.Replicas) > desired) {
		desired, field = int64(b.Replicas), "spec.replicas"
	}
	if limit, res, ok := limitReplicas(b.Limits, w.Template); ok && (field == "" || limit < desired) {
		desired, field = limit, "spec.limits."+string(res)
	}
	return desired, field
}

// workloadReplicas is w's spec.replicas, 1 when unset.
func workloadReplicas(w Workload) int64 {
	if !w.HasReplicas {
		return 1
	}
	return int64(w.Replicas)
}

// percentReplicas is ceil(n × pct / 100), at least 1 when both are
// positive; n and pct are at most MaxInt32, so the product fits.
func percentReplicas(n, pct int64) int64 {
	r := (n*pct + 99) / 100
	if r < 1 && pct > 0 && n > 0 {
		r = 1
	}
	return r
}

// limitReplicas is the least floor(limit / request) over the resources in
// both limits and pod's requests with a non-zero request, the first
// resource (by name) giving it, and whether there is any.
func limitReplicas(limits map[resources.Name]int64, pod packing.Pod) (int64, resources.Name, bool) {
	best, name, ok := int64(math.MaxInt64), resources.Name(""), false
	for _, n := range resources.SortedNames(limits) {
		req := pod.Requests.Get(n)
		if req <= 0 {
			continue
		}
		if q := limits[n] / req; !ok || q < best {
			best, name, ok = q, n, true
		}
	}
	return best, name, ok
}

// clamp saturates v into 0..MaxInt32.
func clamp(v int64) int32 { return int32(min(max(v, 0), math.MaxInt32)) }
