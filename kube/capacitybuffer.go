package kube

import (
	"fmt"
	"slices"

	"github.com/nodeplan/nodeplan/buffer"
	"github.com/nodeplan/nodeplan/packing"
	"github.com/nodeplan/nodeplan/resources"
	corev1 "k8s.io/api/core/v1"
	autoscalingv1beta1 "sigs.k8s.io/karpenter/pkg/apis/autoscaling/v1beta1"
)

// KindCapacityBuffer is the kind of Karpenter's (and cluster-autoscaler's)
// CapacityBuffer, autoscaling.x-k8s.io/v1beta1.
const KindCapacityBuffer = "CapacityBuffer"

// CapacityBufferAPIVersion is the apiVersion nodeplan reads
// CapacityBuffers in.
const CapacityBufferAPIVersion = autoscalingv1beta1.Group + "/v1beta1"

// addCapacityBuffer checks that a CapacityBuffer converts; the buffers are
// evaluated once every workload is known ([builder.capacityBuffers]).
func (b *builder) addCapacityBuffer(cb *autoscalingv1beta1.CapacityBuffer, _ *object) error {
	_, err := bufferOf(cb)
	return err
}

// addPodTemplate accepts a PodTemplate: it is read only when a
// CapacityBuffer refers to it.
func (b *builder) addPodTemplate(*corev1.PodTemplate, *object) error { return nil }

// bufferOf converts a CapacityBuffer's spec; an error is an *ObjectError
// naming the field (a limit that is not a valid quantity).
func bufferOf(cb *autoscalingv1beta1.CapacityBuffer) (buffer.Buffer, error) {
	ns := namespace(cb.Namespace)
	out := buffer.Buffer{Namespace: ns, Name: cb.Name}
	s := &cb.Spec
	if s.PodTemplateRef != nil {
		out.PodTemplate = s.PodTemplateRef.Name
	}
	if r := s.ScalableRef; r != nil {
		out.Scalable = &buffer.ScalableRef{APIGroup: r.APIGroup, Kind: r.Kind, Name: r.Name}
	}
	if s.Replicas != nil {
		out.Replicas, out.HasReplicas = *s.Replicas, true
	}
	if s.Percentage != nil {
		out.Percentage, out.HasPercentage = *s.Percentage, true
	}
	if s.Limits != nil {
		out.Limits = make(map[resources.Name]int64, len(s.Limits))
		for _, name := range slices.Sorted(mapKeys(s.Limits)) {
			l, err := list(corev1.ResourceList{name: s.Limits[name]})
			if err != nil {
				return out, wrap(KindCapacityBuffer, ns, cb.Name, atField("spec.limits."+string(name), err))
			}
			out.Limits[resources.Name(name)] = l.Get(resources.Name(name))
		}
	}
	return out, nil
}

// mapKeys is maps.Keys for the Limits map type.
func mapKeys(m autoscalingv1beta1.Limits) func(func(corev1.ResourceName) bool) {
	return func(yield func(corev1.ResourceName) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}

// capacityBuffers evaluates the CapacityBuffers against the PodTemplates
// and workloads of the snapshot (package buffer) into c.Buffers, and
// warns of each that is not ReadyForProvisioning. Only the templates a
// buffer refers to are converted; a template that does not convert is an
// error naming its object. The buffers' pods count against MaxReplicas
// with the workloads'.
func (b *builder) capacityBuffers(c *Cluster) error {
	if len(b.in.CapacityBuffers) == 0 {
		return nil
	}
	bufs := make([]buffer.Buffer, len(b.in.CapacityBuffers))
	wanted := map[buffer.Target]bool{}
	for i := range b.in.CapacityBuffers {
		bufs[i], _ = bufferOf(&b.in.CapacityBuffers[i]) // addCapacityBuffer checked it
		if t, err := bufs[i].Target(); err == nil {
			wanted[t] = true
		}
	}
	ws, err := b.bufferWorkloads(wanted)
	if err != nil {
		return err
	}
	pods := 0
	for i := range bufs {
		r := buffer.Evaluate(bufs[i], ws)
		if !r.Ready() {
			b.warn("capacitybuffer %s is not ReadyForProvisioning (%s): %v", r.Key(), r.Reason, r.Err)
		}
		if b.replicas += int(r.Replicas); b.replicas > MaxReplicas {
			return &ObjectError{Kind: KindCapacityBuffer, Namespace: r.Namespace, Name: r.Name, Field: "spec.replicas",
				Err: fmt.Errorf("%d more buffer pods bring the pods loaded to %d, over the limit of %d", r.Replicas, b.replicas, MaxReplicas)}
		}
		pods += len(r.Pods())
		c.Buffers = append(c.Buffers, r)
	}
	b.warn("capacity buffers: %d, holding room for %d virtual pods (Karpenter provisions for them only with its CapacityBuffer feature gate on)",
		len(bufs), pods)
	return nil
}

// bufferWorkloads converts the templates of the wanted targets found in
// the snapshot: PodTemplates, Deployments, StatefulSets and ReplicaSets.
func (b *builder) bufferWorkloads(wanted map[buffer.Target]bool) (buffer.Workloads, error) {
	ws := buffer.Workloads{}
	add := func(kind buffer.Kind, ns, name string, tmpl *corev1.PodTemplateSpec, replicas *int32) error {
		t := buffer.Target{Kind: kind, Namespace: namespace(ns), Name: name}
		if !wanted[t] {
			return nil
		}
		pod, err := bufferTemplate(tmpl, t.Namespace)
		if err != nil {
			field := "spec.template"
			if kind == buffer.PodTemplate {
				field = "template"
			}
			return wrap(kind.String(), t.Namespace, name, atField(field, err))
		}
		w := buffer.Workload{Template: pod}
		if replicas != nil {
			w.Replicas, w.HasReplicas = *replicas, true
		}
		ws[t] = w
		return nil
	}
	in := &b.in
	for i := range in.PodTemplates {
		pt := &in.PodTemplates[i]
		if err := add(buffer.PodTemplate, pt.Namespace, pt.Name, &pt.Template, nil); err != nil {
			return nil, err
		}
	}
	for i := range in.Deployments {
		d := &in.Deployments[i]
		if err := add(buffer.Deployment, d.Namespace, d.Name, &d.Spec.Template, d.Spec.Replicas); err != nil {
			return nil, err
		}
	}
	for i := range in.StatefulSets {
		s := &in.StatefulSets[i]
		if err := add(buffer.StatefulSet, s.Namespace, s.Name, &s.Spec.Template, s.Spec.Replicas); err != nil {
			return nil, err
		}
	}
	for i := range in.ReplicaSets {
		rs := &in.ReplicaSets[i]
		if err := add(buffer.ReplicaSet, rs.Namespace, rs.Name, &rs.Spec.Template, rs.Spec.Replicas); err != nil {
			return nil, err
		}
	}
	return ws, nil
}

// bufferTemplate converts a pod template as Karpenter's BuildVirtualPods
// sanitizes it (K/state/virtualpods/utilities.go:124-156): no nodeName, and
// the persistentVolumeClaim and ephemeral volumes dropped with their
// mounts, so no volume constrains the pod. No LimitRange applies: the
// virtual pods never reach the API server's admission.
func bufferTemplate(tmpl *corev1.PodTemplateSpec, ns string) (packing.Pod, error) {
	p := corev1.Pod{ObjectMeta: *tmpl.ObjectMeta.DeepCopy(), Spec: *tmpl.Spec.DeepCopy()}
	p.Namespace, p.Spec.NodeName = ns, ""
	dropped := map[string]bool{}
	p.Spec.Volumes = slices.DeleteFunc(p.Spec.Volumes, func(v corev1.Volume) bool {
		drop := v.PersistentVolumeClaim != nil || v.Ephemeral != nil
		dropped[v.Name] = drop
		return drop
	})
	for _, cs := range [][]corev1.Container{p.Spec.Containers, p.Spec.InitContainers} {
		for i := range cs {
			cs[i].VolumeMounts = slices.DeleteFunc(cs[i].VolumeMounts, func(m corev1.VolumeMount) bool { return dropped[m.Name] })
		}
	}
	return fromPod(&p, ns)
}

// withBuffers returns p with the virtual pods of c's ready buffers
// appended to its pending pods (p's slice is not modified).
func (c *Cluster) withBuffers(p packing.Problem) packing.Problem {
	var pods []packing.Pod
	for i := range c.Buffers {
		pods = append(pods, c.Buffers[i].Pods()...)
	}
	if len(pods) > 0 {
		p.Pods = slices.Concat(p.Pods, pods)
	}
	return p
}
