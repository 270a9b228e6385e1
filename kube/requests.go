package kube

import (
	"fmt"
	"slices"

	"github.com/nodeplan/nodeplan/packing"
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
	containers, err := converted(spec.Containers, "spec.containers")
	if err != nil {
		return resources.List{}, err
	}
	inits, err := converted(spec.InitContainers, "spec.initContainers")
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

// converted reads each container's requests for packing.EffectiveRequests.
func converted(cs []corev1.Container, field string) ([]packing.Container, error) {
	out := make([]packing.Container, len(cs))
	for i := range cs {
		r, err := containerRequests(&cs[i])
		if err != nil {
			return nil, atField(fmt.Sprintf("%s[%d]", field, i), err)
		}
		out[i] = packing.Container{Requests: r, Sidecar: isSidecar(&cs[i])}
	}
	return out, nil
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
