package kube

import (
	"fmt"
	"slices"

	"github.com/nodeplan/nodeplan/resources"
	corev1 "k8s.io/api/core/v1"
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
	var sum resources.List
	for i := range spec.Containers {
		r, err := containerRequests(&spec.Containers[i])
		if err != nil {
			return resources.List{}, atField(fmt.Sprintf("spec.containers[%d]", i), err)
		}
		sum = sum.Add(r)
	}
	init, sidecars, err := initRequests(spec.InitContainers)
	if err != nil {
		return resources.List{}, err
	}
	total := sum.Add(sidecars).Max(init)
	if total, err = podLevel(total, spec.Resources); err != nil {
		return resources.List{}, atField("spec.resources.requests", err)
	}
	overhead, err := list(spec.Overhead)
	if err != nil {
		return resources.List{}, atField("spec.overhead", err)
	}
	return total.Add(overhead), nil
}

// initRequests walks the init containers in order and returns the largest
// request of any one of them while it runs (an ordinary init container plus
// the sidecars already started, or the sidecars so far) and the summed
// sidecar requests, which stay for the pod's lifetime.
func initRequests(cs []corev1.Container) (peak, sidecars resources.List, err error) {
	for i := range cs {
		r, err := containerRequests(&cs[i])
		if err != nil {
			return peak, sidecars, atField(fmt.Sprintf("spec.initContainers[%d]", i), err)
		}
		if isSidecar(&cs[i]) {
			sidecars = sidecars.Add(r)
			r = sidecars
		} else {
			r = r.Add(sidecars)
		}
		peak = peak.Max(r)
	}
	return peak, sidecars, nil
}

func isSidecar(c *corev1.Container) bool {
	return c.RestartPolicy != nil && *c.RestartPolicy == corev1.ContainerRestartPolicyAlways
}

// containerRequests returns the container's requests, each missing one
// defaulted to its limit.
func containerRequests(c *corev1.Container) (resources.List, error) {
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
// canonical string, so the exact value reaches resources.Parse.
func list(rl corev1.ResourceList) (resources.List, error) {
	if len(rl) == 0 {
		return resources.List{}, nil
	}
	m := make(map[resources.Name]string, len(rl))
	for name, q := range rl {
		m[resources.Name(name)] = q.String()
	}
	return resources.Parse(m)
}

func sortedKeys[K ~string, V any](m map[K]V) []K {
	keys := make([]K, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
