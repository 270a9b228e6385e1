package kube

import (
	"fmt"
	"maps"
	"strconv"
	"strings"
	"time"

	"github.com/nodeplan/nodeplan/packing"
	"github.com/nodeplan/nodeplan/requirements"
	appsv1 "k8s.io/api/apps/v1"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	schedulingv1 "k8s.io/api/scheduling/v1"
)

// builder accumulates the objects of Load. Pods and workloads are
// converted in build, once every PriorityClass and Node is known.
type builder struct {
	pods        []sourced[corev1.Pod]
	workloads   []sourced[workload]
	replicas    int // summed over workloads, at most MaxReplicas
	nodes       []packing.Node
	daemonSets  []packing.DaemonSet
	pools       []NodePool
	pdbs        []PodDisruptionBudget
	budgets     []budget // pdbs whose allowed disruptions come from their spec
	claims      []ClaimStatus
	nodeClasses []EC2NodeClass
	graces      map[string]time.Duration
	classes     map[string]int32
	defaultPri  *int32
	warnings    []string
	skipped     map[string]int // objects of kinds nodeplan does not read, by kind
	converted   map[string]int // objects converted to v1, by "apiVersion kind"
	check       checker
	seen        map[string]*object // by "Kind namespace/name"
}

type sourced[T any] struct {
	obj *object
	v   T
}

// workload is a pod controller to expand into pending pods.
type workload struct {
	kind, namespace, name string
	replicas              int
	template              *corev1.PodTemplateSpec
	owner                 string // a ReplicaSet's controlling Deployment
}

func (b *builder) warn(format string, args ...any) {
	b.warnings = append(b.warnings, fmt.Sprintf(format, args...))
}

func (b *builder) pod(o *object) error {
	var p corev1.Pod
	if err := b.decode(o, &p); err != nil {
		return err
	}
	b.pods = append(b.pods, sourced[corev1.Pod]{o, p})
	return nil
}

func (b *builder) node(o *object) error {
	var n corev1.Node
	if err := b.decode(o, &n); err != nil {
		return err
	}
	node, err := FromNode(&n)
	b.nodes = append(b.nodes, node)
	return err
}

func (b *builder) daemonSet(o *object) error {
	var ds appsv1.DaemonSet
	if err := b.decode(o, &ds); err != nil {
		return err
	}
	d, err := FromDaemonSet(&ds)
	b.daemonSets = append(b.daemonSets, d)
	return err
}

func (b *builder) nodePool(o *object) error {
	var np NodePool
	if err := b.decode(o, &np); err != nil {
		return err
	}
	np.APIVersion, np.Kind = o.head.APIVersion, o.head.Kind // a typed list's item may omit them
	return b.addNodePool(np)
}

func (b *builder) addNodePool(np NodePool) error {
	if _, err := FromNodePool(&np); err != nil {
		return err
	}
	b.pools = append(b.pools, np)
	return nil
}

func (b *builder) priorityClass(o *object) error {
	var pc schedulingv1.PriorityClass
	if err := b.decode(o, &pc); err != nil {
		return err
	}
	if b.classes == nil {
		b.classes = map[string]int32{}
	}
	b.classes[pc.Name] = pc.Value
	if pc.GlobalDefault {
		b.defaultPri = new(pc.Value)
	}
	return nil
}

func (b *builder) deployment(o *object) error {
	var d appsv1.Deployment
	if err := b.decode(o, &d); err != nil {
		return err
	}
	return b.workload(o, workload{kind: "Deployment", namespace: namespace(d.Namespace), name: d.Name,
		replicas: replicas(d.Spec.Replicas), template: &d.Spec.Template})
}

func (b *builder) replicaSet(o *object) error {
	var rs appsv1.ReplicaSet
	if err := b.decode(o, &rs); err != nil {
		return err
	}
	w := workload{kind: "ReplicaSet", namespace: namespace(rs.Namespace), name: rs.Name,
		replicas: replicas(rs.Spec.Replicas), template: &rs.Spec.Template}
	if kind, name, ok := strings.Cut(owner(rs.OwnerReferences), "/"); ok && kind == "Deployment" {
		w.owner = name
	}
	return b.workload(o, w)
}

func (b *builder) statefulSet(o *object) error {
	var s appsv1.StatefulSet
	if err := b.decode(o, &s); err != nil {
		return err
	}
	return b.workload(o, workload{kind: "StatefulSet", namespace: namespace(s.Namespace), name: s.Name,
		replicas: replicas(s.Spec.Replicas), template: &s.Spec.Template})
}

// job expands to the pods that run at once: parallelism (default 1), at
// most the completions; a suspended Job runs none.
func (b *builder) job(o *object) error {
	var j batchv1.Job
	if err := b.decode(o, &j); err != nil {
		return err
	}
	n := replicas(j.Spec.Parallelism)
	if j.Spec.Completions != nil {
		n = min(n, int(*j.Spec.Completions))
	}
	if j.Spec.Suspend != nil && *j.Spec.Suspend {
		n = 0
	}
	return b.workload(o, workload{kind: "Job", namespace: namespace(j.Namespace), name: j.Name,
		replicas: n, template: &j.Spec.Template})
}

// MaxReplicas is the most pending pods one Load expands its workloads
// into, all of them together.
const MaxReplicas = 100_000

func (b *builder) workload(o *object, w workload) error {
	if w.replicas < 0 || w.replicas > MaxReplicas {
		return &ObjectError{Kind: w.kind, Namespace: w.namespace, Name: w.name, Field: replicaField(w.kind),
			Err: fmt.Errorf("%d is outside 0..%d", w.replicas, MaxReplicas)}
	}
	if b.replicas += w.replicas; b.replicas > MaxReplicas {
		return &ObjectError{Kind: w.kind, Namespace: w.namespace, Name: w.name, Field: replicaField(w.kind),
			Err: fmt.Errorf("%d more replicas bring the workloads loaded to %d, over the limit of %d", w.replicas, b.replicas, MaxReplicas)}
	}
	b.workloads = append(b.workloads, sourced[workload]{o, w})
	return nil
}

func replicaField(kind string) string {
	if kind == "Job" {
		return "spec.parallelism"
	}
	return "spec.replicas"
}

func replicas(n *int32) int {
	if n == nil {
		return 1
	}
	return int(*n)
}

// build converts the pods and expands the workloads.
func (b *builder) build() (Cluster, error) {
	c := Cluster{Nodes: b.nodes, DaemonSets: b.daemonSets, NodePools: b.pools, PodDisruptionBudgets: b.pdbs,
		NodeClaims: b.claims, NodeClasses: b.nodeClasses}
	s := b.scales()
	present := map[ref]int{}
	for _, sp := range b.pods {
		if err := b.place(&c, sp, present, s); err != nil {
			return Cluster{}, sp.obj.fail(err)
		}
	}
	reserved := b.statefulPods()
	for _, sw := range b.workloads {
		if err := b.expand(&c, sw, present, s, reserved); err != nil {
			return Cluster{}, sw.obj.fail(err)
		}
	}
	b.computeBudgets(c.PodDisruptionBudgets, s)
	c.Warnings, c.PodGracePeriods = append(b.summaries(), b.warnings...), b.graces
	return c, nil
}

// statefulPods are the names of the pods of the StatefulSets, which are
// their identities: kept for them.
func (b *builder) statefulPods() map[ref]bool {
	reserved := map[ref]bool{}
	for _, sw := range b.workloads {
		if w := &sw.v; w.kind == "StatefulSet" {
			for i := range w.replicas {
				reserved[ref{"Pod", w.namespace, w.name + "-" + strconv.Itoa(i)}] = true
			}
		}
	}
	return reserved
}

// place converts one pod and puts it on its node, among the pending pods,
// or nowhere with a warning; present counts it for its owners
// ([scales.owners]).
func (b *builder) place(c *Cluster, sp sourced[corev1.Pod], present map[ref]int, s scales) error {
	p := &sp.v
	if p.Status.Phase == corev1.PodSucceeded || p.Status.Phase == corev1.PodFailed {
		b.warn("%s: skipped Pod %s: phase %s takes no room", sp.obj.where(), objectName(namespace(p.Namespace), p.Name), p.Status.Phase)
		return nil
	}
	b.resolvePriority(&p.Spec)
	pod, err := FromPod(p)
	if err != nil {
		return err
	}
	present[ref{"Pod", pod.Namespace, pod.Name}]++
	for _, o := range s.owners(&pod) {
		present[o]++
	}
	switch {
	case p.Spec.NodeName != "":
		b.grace(&pod, p.Spec.TerminationGracePeriodSeconds)
		return b.bind(c, sp, pod)
	case pod.IsDaemon():
		b.warn("%s: skipped Pod %s: a pending daemonset pod is counted by its DaemonSet", sp.obj.where(), objectName(pod.Namespace, pod.Name))
	default:
		c.Pods = append(c.Pods, pod)
	}
	return nil
}

func (b *builder) bind(c *Cluster, sp sourced[corev1.Pod], pod packing.Pod) error {
	for i := range c.Nodes {
		if c.Nodes[i].Name == sp.v.Spec.NodeName {
			c.Nodes[i].Pods = append(c.Nodes[i].Pods, pod)
			return nil
		}
	}
	b.warn("%s: skipped Pod %s: bound to node %s, which is not in the manifests", sp.obj.where(),
		objectName(pod.Namespace, pod.Name), sp.v.Spec.NodeName)
	return nil
}

// resolvePriority fills spec.priority from its PriorityClass (or the
// global default), as the admission plugin would. spec is Load's own copy.
func (b *builder) resolvePriority(spec *corev1.PodSpec) {
	if spec.Priority != nil {
		return
	}
	if v, ok := b.classes[spec.PriorityClassName]; ok {
		spec.Priority = new(v)
	} else if spec.PriorityClassName == "" && b.defaultPri != nil {
		spec.Priority = new(*b.defaultPri)
	}
}

// expand adds a workload's missing replicas as pending pods. A
// StatefulSet's pods are name-0 … name-(replicas-1) less those present;
// other workloads' pods take the first names name-i that no pod present,
// no other workload's expansion and no StatefulSet's pod has, so no two
// pods share a name.
func (b *builder) expand(c *Cluster, sw sourced[workload], present map[ref]int, s scales, reserved map[ref]bool) error {
	w := &sw.v
	if _, ok := s[ref{"Deployment", w.namespace, w.owner}]; w.owner != "" && ok {
		b.warn("%s: skipped ReplicaSet %s: its Deployment %s is expanded instead", sw.obj.where(), objectName(w.namespace, w.name), w.owner)
		return nil
	}
	proto := corev1.Pod{ObjectMeta: *w.template.ObjectMeta.DeepCopy(), Spec: *w.template.Spec.DeepCopy()}
	proto.Namespace = w.namespace
	b.resolvePriority(&proto.Spec)
	base, err := fromPod(&proto, w.namespace)
	if err != nil {
		return wrap(w.kind, w.namespace, w.name, atField("spec.template", err))
	}
	base.Owner = w.kind + "/" + w.name
	missing := w.replicas - present[ref{w.kind, w.namespace, w.name}]
	if w.kind == "StatefulSet" { // its pods are known by name instead
		missing = w.replicas
	}
	for i := 0; missing > 0 && (w.kind != "StatefulSet" || i < w.replicas); i++ {
		name := w.name + "-" + strconv.Itoa(i)
		key := ref{"Pod", w.namespace, name}
		if present[key] > 0 || w.kind != "StatefulSet" && reserved[key] {
			continue
		}
		present[key]++
		pod := base
		pod.Name, pod.Labels = name, maps.Clone(base.Labels)
		if w.kind == "StatefulSet" {
			if err := requirements.ValidateValue(name); err != nil {
				return wrap(w.kind, w.namespace, w.name, atField("metadata.name", fmt.Errorf(
					"its pod %s would carry its name as the %s label: %w", name, appsv1.StatefulSetPodNameLabel, err)))
			}
			pod.Labels = withLabel(pod.Labels, appsv1.StatefulSetPodNameLabel, name)
		}
		c.Pods = append(c.Pods, pod)
		missing--
	}
	return nil
}

func withLabel(labels map[string]string, k, v string) map[string]string {
	if labels == nil {
		labels = map[string]string{}
	}
	labels[k] = v
	return labels
}

// grace records a bound pod's terminationGracePeriodSeconds.
func (b *builder) grace(p *packing.Pod, seconds *int64) {
	if seconds == nil {
		return
	}
	if b.graces == nil {
		b.graces = map[string]time.Duration{}
	}
	b.graces[p.Key()] = time.Duration(*seconds) * time.Second
}
