package kube

import (
	"fmt"
	"math"
	"slices"

	"github.com/nodeplan/nodeplan/packing"
	"github.com/nodeplan/nodeplan/resources"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
)

// EffectiveRequests returns what kube-scheduler reserves for a pod with
// this spec: the regular containers summed, plus every restartable init
// container (a sidecar, restartPolicy Always); at least the largest
// ordinary init container together with the sidecars started before it;
// pod-level requests (spec.resources) replacing the containers' cpu, memory
// and hugepages where set; plus spec.overhead. A container resource with a
// limit and no request requests its limit, as the API server defaults it.
//
// It does not modify spec. The complexity is O(containers × resources).
func EffectiveRequests(spec *corev1.PodSpec) (resources.List, error) {
	return effectiveRequests(spec, nil)
}

// podRequests returns the effective requests of p with its containers'
// in-place resizes ([resizes]): what Karpenter's resources.Ceiling counts
// for a pod that exists.
func podRequests(p *corev1.Pod) (resources.List, error) {
	return effectiveRequests(&p.Spec, newResizes(&p.Status))
}

// effectiveRequests is [EffectiveRequests] with each container's requests
// raised by r (nil for none).
func effectiveRequests(spec *corev1.PodSpec, r *resizes) (resources.List, error) {
	containers, err := converted(spec.Containers, "spec.containers", r)
	if err != nil {
		return resources.List{}, err
	}
	inits, err := converted(spec.InitContainers, "spec.initContainers", r)
	if err != nil {
		return resources.List{}, err
	}
	total := packing.EffectiveRequests(containers, inits, resources.List{})
	if total, err = podLevel(total, spec.Resources); err != nil {
		return resources.List{}, atField("spec.resources.requests", err)
	}
	overhead, err := list(spec.Overhead)
	if err != nil {
		return resources.List{}, atField("spec.overhead", err)
	}
	return total.Add(overhead), nil
}

// converted reads each container's requests for packing.EffectiveRequests,
// raised by r for regular containers and sidecars (ordinary init
// containers are not resized).
func converted(cs []corev1.Container, field string, r *resizes) ([]packing.Container, error) {
	out := make([]packing.Container, len(cs))
	for i := range cs {
		req, err := containerRequests(&cs[i])
		if err != nil {
			return nil, atField(fmt.Sprintf("%s[%d]", field, i), err)
		}
		sidecar := isSidecar(&cs[i])
		if field == "spec.containers" || sidecar {
			if req, err = r.requests(cs[i].Name, req); err != nil {
				return nil, err
			}
		}
		out[i] = packing.Container{Requests: req, Sidecar: sidecar}
	}
	return out, nil
}

// resizes are what the kubelet holds for a pod's containers after an
// in-place resize, as component-helpers' PodRequests reads them with
// UseStatusResources (Karpenter's resources.Ceiling): the container
// statuses (status.containerStatuses and status.initContainerStatuses) that
// have resources, by container name.
type resizes struct {
	byName map[string]resized
	// infeasible is a PodResizePending condition with reason Infeasible:
	// the spec's requests will not be granted, so they do not count.
	infeasible bool
}

// resized is one container status and its field path.
type resized struct {
	field  string
	status *corev1.ContainerStatus
}

// newResizes indexes st's container statuses that have resources; nil
// when there are none. It does not modify st.
func newResizes(st *corev1.PodStatus) *resizes {
	r := &resizes{}
	add := func(field string, ss []corev1.ContainerStatus) {
		for i := range ss {
			if ss[i].Resources == nil {
				continue
			}
			if r.byName == nil {
				r.byName = map[string]resized{}
			}
			r.byName[ss[i].Name] = resized{fmt.Sprintf("%s[%d]", field, i), &ss[i]}
		}
	}
	add("status.containerStatuses", st.ContainerStatuses)
	add("status.initContainerStatuses", st.InitContainerStatuses)
	if r.byName == nil {
		return nil
	}
	for _, c := range st.Conditions {
		if c.Type == corev1.PodResizePending {
			r.infeasible = c.Reason == corev1.PodReasonInfeasible
			break
		}
	}
	return r
}

// requests returns the requests of container name, spec by its spec,
// raised to its status's: the largest of spec, status resources.requests
// (actuated) and allocatedResources, resource by resource; without spec
// when the resize is infeasible. Without a status with resources it is
// spec. A nil r returns spec.
func (r *resizes) requests(name string, spec resources.List) (resources.List, error) {
	if r == nil {
		return spec, nil
	}
	s, ok := r.byName[name]
	if !ok {
		return spec, nil
	}
	actuated, err := list(s.status.Resources.Requests)
	if err != nil {
		return spec, atField(s.field+".resources.requests", err)
	}
	allocated, err := list(s.status.AllocatedResources)
	if err != nil {
		return spec, atField(s.field+".allocatedResources", err)
	}
	if r.infeasible {
		spec = resources.List{}
	}
	return spec.Max(actuated).Max(allocated), nil
}

func isSidecar(c *corev1.Container) bool {
	return c.RestartPolicy != nil && *c.RestartPolicy == corev1.ContainerRestartPolicyAlways
}

// containerRequests returns the container's requests, each missing one
// defaulted to its limit.
func containerRequests(c *corev1.Container) (resources.List, error) {
	if len(c.Resources.Limits) == 0 { // the requests alone: no merged copy
		l, err := list(c.Resources.Requests)
		return l, atField("resources.requests", err)
	}
	m := make(corev1.ResourceList, len(c.Resources.Requests)+len(c.Resources.Limits))
	for name, q := range c.Resources.Limits {
		m[name] = q
	}
	for name, q := range c.Resources.Requests {
		m[name] = q
	}
	l, err := list(m)
	return l, atField("resources.requests", err)
}

// podLevel applies pod-level requests to the supported resources.
func podLevel(total resources.List, rr *corev1.ResourceRequirements) (resources.List, error) {
	if rr == nil || len(rr.Requests) == 0 {
		return total, nil
	}
	pod, err := list(rr.Requests)
	if err != nil {
		return total, err
	}
	for _, name := range sortedKeys(rr.Requests) {
		n := resources.Name(name)
		if n == resources.CPU || n == resources.Memory || isHugePages(n) {
			total = total.With(n, pod.Get(n))
		}
	}
	return total, nil
}

func isHugePages(n resources.Name) bool {
	return len(n) > len(corev1.ResourceHugePagesPrefix) && string(n[:len(corev1.ResourceHugePagesPrefix)]) == corev1.ResourceHugePagesPrefix
}

// list converts a Kubernetes resource list. Each quantity goes through its
// canonical string, so the exact value reaches resources.Parse; first its
// magnitude is checked ([inBounds]), as the quantities of a typed object
// did not go through Load's checks of their text.
func list(rl corev1.ResourceList) (resources.List, error) {
	if len(rl) == 0 {
		return resources.List{}, nil
	}
	m := make(map[resources.Name]string, len(rl))
	for name, q := range rl {
		if !inBounds(&q) {
			return resources.List{}, outOfBounds(rl)
		}
		m[resources.Name(name)] = q.String()
	}
	return resources.Parse(m)
}

// Bounds on a quantity's magnitude: as maxQuantityLen and maxQuantityExp
// bound its text, these bound the cost of its String, which apimachinery
// computes in time that grows without bound with the exponent (a minute
// for 1e1000000 in BinarySI), and for which it writes wrong digits when
// the exponent is far beyond any resource's.
const (
	minQuantity = 1e-64
	maxQuantity = 1e64
)

// inBounds reports whether q is zero or of a magnitude between
// minQuantity and maxQuantity. It does not allocate for a quantity that
// is not an arbitrary-precision decimal.
func inBounds(q *resource.Quantity) bool {
	f := math.Abs(q.AsApproximateFloat64())
	return f >= minQuantity && f <= maxQuantity || q.IsZero()
}

// outOfBounds names the first resource of rl, by name, whose quantity is
// not [inBounds].
func outOfBounds(rl corev1.ResourceList) error {
	for _, name := range sortedKeys(rl) {
		if q := rl[name]; !inBounds(&q) {
			return fmt.Errorf("%s: a quantity of about %.3g is out of range (nodeplan reads magnitudes from %g to %g)",
				name, q.AsApproximateFloat64(), minQuantity, maxQuantity)
		}
	}
	return nil
}

func sortedKeys[K ~string, V any](m map[K]V) []K {
	keys := make([]K, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
