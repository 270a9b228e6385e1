package kube

import (
	"github.com/nodeplan/nodeplan/internal/parallel"
	"github.com/nodeplan/nodeplan/packing"
	"github.com/nodeplan/nodeplan/resources"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// podFacts is what the builder reads of a Pod object besides its
// conversion, taken from the pod once ([takePod]): its identity, owner,
// phase, health, node, volumes and PriorityClass. The typed pod itself is
// not kept, so Load does not hold every pod it decoded until the cluster
// is built: it takes each pod's facts as soon as the pod is decoded.
//
// It is kept small, as Load holds one for every pod of a manifest: the
// owner is copied out of the pod's references, and what few pods have (a
// reason to be left alone, a DaemonSet's requests) is behind a pointer.
// Its zero value is a pod with no name, in no namespace, pending.
type podFacts struct {
	obj      *object // where Load read it; nil from FromObjects
	ns, name string  // metadata.namespace (as written) and name
	labels   map[string]string
	ctl      controllerOf // the controlling owner reference (controller)
	nodeName string
	grace    *int64 // spec.terminationGracePeriodSeconds
	volumes  []corev1.Volume
	class    string            // spec.priorityClassName
	err      error             // the conversion's (FromPod's), when the pod takes room
	skip     *unprovisionedPod // why Karpenter leaves it alone; nil: it does not
	daemon   *daemonPod        // set when a DaemonSet controls it
	phase    endedPhase        // whether it succeeded or failed
	deleting bool              // metadata.deletionTimestamp is set
	ready    bool              // the PodReady condition is True
	priority bool              // spec.priority is set: the conversion has it
}

// controllerOf is the part of a controlling owner reference the builder
// reads; its zero value (set false) is none.
type controllerOf struct {
	set                         bool
	apiVersion, kind, name, uid string
}

// controller returns the first of refs with controller true, copied.
func controller(refs []metav1.OwnerReference) controllerOf {
	for i := range refs {
		if c := &refs[i]; c.Controller != nil && *c.Controller {
			return controllerOf{set: true, apiVersion: c.APIVersion, kind: c.Kind, name: c.Name, uid: string(c.UID)}
		}
	}
	return controllerOf{}
}

// unprovisionedPod is why Karpenter does not provision for a pod
// (unprovisioned).
type unprovisionedPod struct{ why, detail string }

// endedPhase is a pod's phase when it has ended: it then takes no room.
type endedPhase uint8

const (
	notEnded endedPhase = iota
	succeeded
	failed
)

func (e endedPhase) String() string {
	switch e {
	case succeeded:
		return string(corev1.PodSucceeded)
	case failed:
		return string(corev1.PodFailed)
	}
	return "not ended"
}

// daemonPod is what the builder reads of a pod that a DaemonSet controls
// (builder.daemonSetPods): its creation, to find the newest, and its
// effective requests (podRequests), which stand for its DaemonSet's.
type daemonPod struct {
	created metav1.Time
	list    resources.List
	err     error
}

// id returns the pod's namespace, as written, and name.
func (f *podFacts) id() (ns, name string) { return f.ns, f.name }

// takePod returns the facts of p, with its conversion when it takes room
// (it has not ended): FromPod's, except that the priority is spec.priority's
// alone (the builder resolves the others from their PriorityClass,
// [builder.priorityOf]) and that, when own is set, the pod shares
// p's labels (Load's own pods, which nothing else holds). The facts share
// p's labels and volumes, which no one modifies.
func takePod(p *corev1.Pod, own bool) (podFacts, packing.Pod) {
	f := podFacts{ns: p.Namespace, name: p.Name, labels: p.Labels, ctl: controller(p.OwnerReferences),
		deleting: p.DeletionTimestamp != nil, ready: ready(p), nodeName: p.Spec.NodeName,
		grace: p.Spec.TerminationGracePeriodSeconds, volumes: p.Spec.Volumes,
		priority: p.Spec.Priority != nil, class: p.Spec.PriorityClassName}
	switch p.Status.Phase {
	case corev1.PodSucceeded:
		f.phase = succeeded
	case corev1.PodFailed:
		f.phase = failed
	}
	if why, detail := unprovisioned(&p.Spec, p.Status.NominatedNodeName); why != "" {
		f.skip = &unprovisionedPod{why, detail}
	}
	if f.ctl.set && f.ctl.kind == "DaemonSet" {
		f.daemon = &daemonPod{created: p.CreationTimestamp}
		f.daemon.list, f.daemon.err = podRequests(p)
	}
	if f.ended() {
		return f, packing.Pod{}
	}
	ns := namespace(p.Namespace)
	pod, err := fromPod(p, ns, own)
	f.err = wrap("Pod", ns, p.Name, err)
	return f, pod
}

// takePods takes the facts of pods into facts and their conversions into
// out, on up to GOMAXPROCS goroutines; the pods are a caller's.
func takePods(pods []corev1.Pod, facts []podFacts, out []packing.Pod) {
	parallel.Range(len(pods), convertChunk, func() func(lo, hi int) {
		return func(lo, hi int) {
			for i := lo; i < hi; i++ {
				facts[i], out[i] = takePod(&pods[i], false)
			}
		}
	})
}

// ended reports whether the pod has succeeded or failed: it takes no room.
func (f *podFacts) ended() bool {
	return f.phase != notEnded
}
