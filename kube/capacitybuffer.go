package kube

import (
	"errors"
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

// addCapacityBuffer converts a CapacityBuffer and checks it as the API
// server's validation does ([checkBuffer]); the buffers are evaluated
// once every workload is known ([builder.capacityBuffers]).
func (b *builder) addCapacityBuffer(cb *autoscalingv1beta1.CapacityBuffer, o *object) error {
	buf, err := bufferOf(cb)
	if err != nil {
		return err
	}
	if err := checkBuffer(cb); err != nil {
		return err
	}
	if cb.Spec.Percentage != nil && cb.Spec.ScalableRef == nil {
		b.warn("capacitybuffer %s: spec.percentage is ignored without spec.scalableRef, as Karpenter ignores it (%s)",
			buf.Key(), o.where())
	}
	b.buffers = append(b.buffers, buf)
	return nil
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
		for _, name := range sortedKeys(s.Limits) {
			l, err := list(corev1.ResourceList{name: s.Limits[name]})
			if err != nil {
				return out, wrap(KindCapacityBuffer, ns, cb.Name, atField("spec.limits"+key(string(name)), err))
			}
			out.Limits[resources.Name(name)] = l.Get(resources.Name(name))
		}
	}
	return out, nil
}

// checkBuffer reports what the CapacityBuffer CRD rejects, as one
// *ObjectError naming the first field wrapping [ErrInvalid]: its OpenAPI
// minimums (replicas, percentage and each limit ≥ 0) and its CEL rules
// (K/apis/autoscaling/v1beta1/capacitybuffer.go:92-93: a podTemplateRef
// needs replicas or limits; podTemplateRef and scalableRef exclude each
// other). Such a buffer cannot exist in a cluster, so it is bad input,
// not a buffer that is not ready.
func checkBuffer(cb *autoscalingv1beta1.CapacityBuffer) error {
	s := &cb.Spec
	bad := func(field, format string, args ...any) error {
		return &ObjectError{Kind: KindCapacityBuffer, Namespace: namespace(cb.Namespace), Name: cb.Name, Field: field,
			Err: fmt.Errorf("%w: "+format, append([]any{ErrInvalid}, args...)...)}
	}
	switch {
	case s.Replicas != nil && *s.Replicas < 0:
		return bad("spec.replicas", "%d is negative", *s.Replicas)
	case s.Percentage != nil && *s.Percentage < 0:
		return bad("spec.percentage", "%d is negative", *s.Percentage)
	case s.PodTemplateRef != nil && s.ScalableRef != nil:
		return bad("spec.scalableRef", "podTemplateRef is set too; the CRD allows one of them")
	case s.PodTemplateRef != nil && s.Replicas == nil && s.Limits == nil:
		return bad("spec.podTemplateRef", "needs spec.replicas or spec.limits as well, as the CRD requires")
	}
	for _, name := range sortedKeys(s.Limits) {
		if q := s.Limits[name]; q.Sign() < 0 {
			return bad("spec.limits"+key(string(name)), "%s is negative", q.String())
		}
	}
	return nil
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
	bufs := b.buffers // converted by addCapacityBuffer, in input order
	wanted := map[buffer.Target]bool{}
	for i := range bufs {
		if t, err := bufs[i].Target(); err == nil {
			wanted[t] = true
		} // else Evaluate reports it: a buffer that is not ready
	}
	ws, err := b.bufferWorkloads(wanted)
	if err != nil {
		return err
	}
	for i := range bufs {
		r := buffer.Evaluate(bufs[i], ws)
		var re *buffer.ReplicasError
		if errors.As(r.Err, &re) { // more than buffer.MaxReplicas: bad input, not a buffer that is not ready
			return &ObjectError{Kind: KindCapacityBuffer, Namespace: r.Namespace, Name: r.Name, Field: re.Field,
				Err: fmt.Errorf("%d replicas: %w (limit %d)", re.Replicas, buffer.ErrTooManyReplicas, buffer.MaxReplicas)}
		}
		if !r.Ready() {
			b.warn("capacitybuffer %s is not ReadyForProvisioning (%s): %v", r.Key(), r.Reason, r.Err)
		}
		if b.replicas += int(r.Replicas); b.replicas > MaxReplicas {
			return &ObjectError{Kind: KindCapacityBuffer, Namespace: r.Namespace, Name: r.Name, Field: countField(&bufs[i], ws, r.Replicas),
				Err: fmt.Errorf("%d more buffer pods bring the pods loaded to %d, over the limit of %d", r.Replicas, b.replicas, MaxReplicas)}
		}
		c.Buffers = append(c.Buffers, r)
	}
	return nil
}

// BufferWarnings returns the warning of the commands whose plans hold
// room for c's CapacityBuffers (provision, consolidate, diff): how many
// buffers and virtual pods there are, since Karpenter provisions for them
// only with its CapacityBuffer feature gate on; nil without buffers. It
// is not in c.Warnings, which every command prints. O(buffers).
func (c *Cluster) BufferWarnings() []string {
	if len(c.Buffers) == 0 {
		return nil
	}
	pods := 0
	for i := range c.Buffers {
		pods += len(c.Buffers[i].Pods())
	}
	return []string{fmt.Sprintf("capacity buffers: %d, holding room for %d virtual pods "+
		"(Karpenter provisions for them only with its CapacityBuffer feature gate on)", len(c.Buffers), pods)}
}

// countField names the field of buf that gave its count of pods n, for
// the cap on the pods of one Load (a single buffer over
// buffer.MaxReplicas is Evaluate's *buffer.ReplicasError, which names it
// too): spec.replicas when n is it, else spec.percentage of a
// scalableRef's replicas when n is that, else spec.limits (which bound
// both).
func countField(buf *buffer.Buffer, ws buffer.Workloads, n int32) string {
	if buf.HasReplicas && buf.Replicas == n {
		return "spec.replicas"
	}
	if buf.PodTemplate == "" && buf.HasPercentage {
		t, err := buf.Target()
		if w, ok := ws[t]; err == nil && ok && buffer.Replicas(buffer.Buffer{Percentage: buf.Percentage, HasPercentage: true}, w) == n {
			return "spec.percentage"
		}
	}
	return "spec.limits"
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
	return fromPod(&p, ns, false)
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
