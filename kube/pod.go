package kube

import (
	"cmp"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"

	"github.com/nodeplan/nodeplan/packing"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// Annotations read from pods and nodes.
const (
	// AnnotationDoNotDisrupt is Karpenter's karpenter.sh/do-not-disrupt.
	AnnotationDoNotDisrupt = "karpenter.sh/do-not-disrupt"
	// AnnotationDeletionCost is controller.kubernetes.io/pod-deletion-cost.
	AnnotationDeletionCost = "controller.kubernetes.io/pod-deletion-cost"
)

// FromPod converts a Pod: its effective requests ([EffectiveRequests]),
// each container's raised to what its status says the kubelet holds after
// an in-place resize (the largest of spec, status.containerStatuses[].resources.requests
// and allocatedResources; see the package documentation),
// nodeSelector and node affinity, tolerations, topology spread, pod
// (anti-)affinity, host ports, priority (spec.priority; 0 when unset),
// do-not-disrupt and deletion-cost annotations, creation time,
// controlling owner and whether it is terminating (metadata.deletionTimestamp
// set: [packing.Pod.Terminating]). An empty namespace becomes "default".
//
// FromPod does not modify p; the result shares no memory with it. Errors
// are *ObjectError values naming the pod and field. The complexity is
// linear in the size of the spec.
func FromPod(p *corev1.Pod) (packing.Pod, error) {
	ns := namespace(p.Namespace)
	out, err := fromPod(p, ns, false)
	return out, wrap("Pod", ns, p.Name, err)
}

// fromPod is FromPod without naming the pod in errors; with own set, the
// result shares p's labels (a pod of the caller's own that nothing else
// holds), else clones them.
func fromPod(p *corev1.Pod, ns string, own bool) (packing.Pod, error) {
	labels := p.Labels
	if !own {
		labels = maps.Clone(labels)
	}
	out := packing.Pod{Namespace: ns, Name: p.Name, UID: string(p.UID), Labels: labels,
		CreationTime: p.CreationTimestamp.Time, Owner: owner(p.OwnerReferences), Terminating: p.DeletionTimestamp != nil,
		DoNotDisrupt: p.Annotations[AnnotationDoNotDisrupt]}
	if p.Spec.Priority != nil {
		out.Priority = *p.Spec.Priority
	}
	if err := checkLabels("metadata.labels", p.Labels); err != nil {
		return out, err
	}
	var err error
	if out.HostPorts, err = hostPorts(&p.Spec); err != nil {
		return out, err
	}
	if out.DeletionCost, err = deletionCost(p.Annotations); err != nil {
		return out, err
	}
	if out.Requests, err = podRequests(p); err != nil {
		return out, err
	}
	if out.NodeAffinity, err = nodeAffinity(&p.Spec); err != nil {
		return out, err
	}
	if out.Tolerations, err = tolerations(p.Spec.Tolerations); err != nil {
		return out, atField("spec.tolerations", err)
	}
	if out.TopologySpread, err = spreads(p.Spec.TopologySpreadConstraints); err != nil {
		return out, err
	}
	return out, podAffinities(p, &out)
}

func podAffinities(p *corev1.Pod, out *packing.Pod) error {
	a := p.Spec.Affinity
	if a == nil {
		return nil
	}
	var err error
	if pa := a.PodAffinity; pa != nil {
		out.Affinity, err = podAffinity(p, pa.RequiredDuringSchedulingIgnoredDuringExecution, pa.PreferredDuringSchedulingIgnoredDuringExecution)
		if err != nil {
			return atField("spec.affinity.podAffinity", err)
		}
	}
	if pa := a.PodAntiAffinity; pa != nil {
		out.AntiAffinity, err = podAffinity(p, pa.RequiredDuringSchedulingIgnoredDuringExecution, pa.PreferredDuringSchedulingIgnoredDuringExecution)
		if err != nil {
			return atField("spec.affinity.podAntiAffinity", err)
		}
	}
	return nil
}

func deletionCost(annotations map[string]string) (int32, error) {
	v, ok := annotations[AnnotationDeletionCost]
	if !ok {
		return 0, nil
	}
	n, err := strconv.ParseInt(v, 10, 32)
	if err != nil {
		return 0, atField("metadata.annotations"+key(AnnotationDeletionCost), fmt.Errorf("%q is not a 32-bit integer", v))
	}
	return int32(n), nil
}

// hostPorts lists the host ports of the containers and sidecars, each
// checked by [packing.HostPort.Validate]. As the API server does, it
// rejects a host port that repeats ([packing.HostPort.Same]) one of the
// containers and sidecars, or one of the same init container (which runs
// alone).
func hostPorts(spec *corev1.PodSpec) ([]packing.HostPort, error) {
	var out []packing.HostPort
	var paths []string // of out's ports
	for i := range spec.InitContainers {
		c := &spec.InitContainers[i]
		field := fmt.Sprintf("spec.initContainers[%d]", i)
		if !isSidecar(c) {
			if _, _, err := containerPorts(nil, nil, field, c); err != nil {
				return nil, err
			}
			continue
		}
		var err error
		if out, paths, err = containerPorts(out, paths, field, c); err != nil {
			return nil, err
		}
	}
	for i := range spec.Containers {
		var err error
		if out, paths, err = containerPorts(out, paths, fmt.Sprintf("spec.containers[%d]", i), &spec.Containers[i]); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// containerPorts appends the host ports of c, the container at field, to
// ports and their paths to paths; an error names a port out of range, an
// unknown protocol, or a port that repeats one of ports.
func containerPorts(ports []packing.HostPort, paths []string, field string, c *corev1.Container) ([]packing.HostPort, []string, error) {
	for j, p := range c.Ports {
		if p.HostPort == 0 {
			continue
		}
		hp := packing.HostPort{Port: p.HostPort, Protocol: string(p.Protocol), IP: p.HostIP}
		path := fmt.Sprintf("%s.ports[%d]", field, j)
		var fe *packing.FieldError
		if err := hp.Validate(); errors.As(err, &fe) {
			return nil, nil, atField(path+"."+portField(fe.Field), errors.New(fe.Msg))
		}
		if k := slices.IndexFunc(ports, hp.Same); k >= 0 {
			return nil, nil, atField(path+".hostPort", fmt.Errorf("%d/%s is bound twice: %s has it; the API server rejects such a pod", hp.Port, cmp.Or(hp.Protocol, "TCP"), paths[k]))
		}
		ports, paths = append(ports, hp), append(paths, path)
	}
	return ports, paths, nil
}

// portField is the name in a container port of a [packing.HostPort] field.
func portField(f string) string {
	if f == "port" {
		return "hostPort"
	}
	return f
}

// owner returns "Kind/name" of the controlling owner, else of the first.
func owner(refs []metav1.OwnerReference) string {
	for _, r := range refs {
		if r.Controller != nil && *r.Controller {
			return r.Kind + "/" + r.Name
		}
	}
	if len(refs) > 0 {
		return refs[0].Kind + "/" + refs[0].Name
	}
	return ""
}

func namespace(ns string) string {
	if ns == "" {
		return metav1.NamespaceDefault
	}
	return ns
}
