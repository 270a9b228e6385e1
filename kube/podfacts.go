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
// Its zero value is a pod with no name, in no namespace, pending.
type podFacts struct {
	obj         *object // where Load read it; nil from FromObjects
	ns, name    string  // metadata.namespace (as written) and name
	labels      map[string]string
	ctl         *metav1.OwnerReference // the controlling owner reference (controllerRef), or nil
	created     metav1.Time
	phase       corev1.PodPhase
	deleting    bool // metadata.deletionTimestamp is set
	ready       bool // the PodReady condition is True
	nodeName    string
	why, detail string // unprovisioned's: why Karpenter leaves it alone, if it does
	grace       *int64 // spec.terminationGracePeriodSeconds
	volumes     []corev1.Volume
	priority    bool   // spec.priority is set: the conversion has it
	class       string // spec.priorityClassName
	err         error  // the conversion's (FromPod's), when the pod takes room
	daemon      *daemonRequests
}

// daemonRequests are the effective requests of a pod that a DaemonSet
// controls (podRequests), which stand for its DaemonSet's
// (builder.daemonSetPods).
type daemonRequests struct {
	list resources.List
	err  error
}

// id returns the pod's namespace, as written, and name.
func (f *podFacts) id() (ns, name string) { return f.ns, f.name }

// takePod returns the facts of p, with its conversion when it takes room
// (it has not ended): FromPod's, except that the priority is spec.priority's
// alone (the builder resolves the others from their PriorityClass,
// [builder.resolvePriority]) and that, when own is set, the pod shares
// p's labels (Load's own pods, which nothing else holds). The facts share
// p's labels, controller reference and volumes, which no one modifies.
func takePod(p *corev1.Pod, own bool) (podFacts, packing.Pod) {
	f := podFacts{ns: p.Namespace, name: p.Name, labels: p.Labels, ctl: controllerRef(p.OwnerReferences),
		created: p.CreationTimestamp, phase: p.Status.Phase, deleting: p.DeletionTimestamp != nil, ready: ready(p),
		nodeName: p.Spec.NodeName, grace: p.Spec.TerminationGracePeriodSeconds, volumes: p.Spec.Volumes,
		priority: p.Spec.Priority != nil, class: p.Spec.PriorityClassName}
	f.why, f.detail = unprovisioned(&p.Spec, p.Status.NominatedNodeName)
	if f.ctl != nil && f.ctl.Kind == "DaemonSet" {
		f.daemon = &daemonRequests{}
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
	return f.phase == corev1.PodSucceeded || f.phase == corev1.PodFailed
}
