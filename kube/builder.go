package kube

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/nodeplan/nodeplan/buffer"
	"github.com/nodeplan/nodeplan/overlay"
	"github.com/nodeplan/nodeplan/packing"
	"github.com/nodeplan/nodeplan/planview"
	"github.com/nodeplan/nodeplan/requirements"
	appsv1 "k8s.io/api/apps/v1"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	schedulingv1 "k8s.io/api/scheduling/v1"
	storagev1 "k8s.io/api/storage/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	autoscalingv1beta1 "sigs.k8s.io/karpenter/pkg/apis/autoscaling/v1beta1"
	"sigs.k8s.io/karpenter/pkg/apis/v1alpha1"
)

// builder builds a Cluster from a snapshot: Load decodes manifests into
// its snapshot (in) and FromObjects gives it one. build adds the objects
// kind by kind ([builder.addAll]), then converts the pods and workloads,
// once every PriorityClass and Node is known.
type builder struct {
	workloads      []sourced[workload]
	replicas       int // summed over workloads, at most MaxReplicas
	nodes          []packing.Node
	daemonSets     []packing.DaemonSet
	daemonSetUIDs  map[ref]string          // metadata.uid of the DaemonSets that have one
	limitRanges    map[string][]limitRange // by namespace
	pools          []NodePool
	pdbs           []PodDisruptionBudget
	budgets        []budget // pdbs whose allowed disruptions come from their spec
	claims         []ClaimStatus
	nodeIDs        map[string]string // Node names by spec.providerID
	nodeClasses    []EC2NodeClass
	overlays       []overlay.Overlay
	buffers        []buffer.Buffer // the CapacityBuffers, converted, in input order
	graces         map[string]time.Duration
	finished       map[ref]*[2]int // Succeeded and Failed pods by Job
	unknownClasses map[string]int  // pods naming a PriorityClass not in the input, by class
	classes        map[string]int32
	defaultPri     *int32
	warnings       []string
	skipped        map[string]int // objects of kinds nodeplan does not read, by kind
	skips          skipLog        // objects of kinds it reads, skipped
	volumes        volumes        // PersistentVolumeClaims, PersistentVolumes, StorageClasses
	unknown        unknownFields  // fields Kubernetes' types lack
	converted      map[string]int // objects converted to v1, by "apiVersion kind"
	check          checker
	seen           map[ref]seen   // by kind, namespace and name; not pods (podFirst)
	podFirst       []int32        // by pod, the first pod before it of its namespace and name, or -1 (firstOfName)
	in             snapshot       // the objects, decoded
	scratch        corev1.Pod     // what readPod decodes a pod into, when predecode did not
	expect         map[string]int // the objects Load read, by kind, to size in's slices
	nodeAt         map[string]int // the first node of each name, by index of the Cluster's nodes (nodeIndex)
	err            error          // the first error of addAll
}

type sourced[T any] struct {
	obj *object
	v   T
}

// workload is a pod controller to expand into pending pods.
type workload struct {
	kind, namespace, name string
	replicas              int
	start                 int // a StatefulSet's first ordinal (spec.ordinals.start)
	template              *corev1.PodTemplateSpec
	owner                 string  // a ReplicaSet's controlling Deployment
	job                   *jobRun // a Job's progress
}

func (b *builder) warn(format string, args ...any) {
	b.warnings = append(b.warnings, fmt.Sprintf(format, args...))
}

// addAll adds the snapshot's objects kind by kind, in the order of the
// fields of Objects, each kind in its order, and returns the first error.
func (b *builder) addAll() error {
	s := &b.in
	if len(s.Pods) > 0 { // a caller's (FromObjects); Load takes its own as it reads them (readPod)
		s.pods, s.converted = make([]podFacts, len(s.Pods)), make([]packing.Pod, len(s.Pods))
		takePods(s.Pods, s.pods, s.converted)
	}
	b.podFirst = firstOfName(s.pods)
	each(b, "Pod", s.pods, (*podFacts).id, (*builder).addPod)
	each(b, "Node", s.Nodes, metaID[corev1.Node], (*builder).addNode)
	each(b, "DaemonSet", s.DaemonSets, metaID[appsv1.DaemonSet], (*builder).addDaemonSet)
	each(b, "Deployment", s.Deployments, metaID[appsv1.Deployment], (*builder).addDeployment)
	each(b, "ReplicaSet", s.ReplicaSets, metaID[appsv1.ReplicaSet], (*builder).addReplicaSet)
	each(b, "StatefulSet", s.StatefulSets, metaID[appsv1.StatefulSet], (*builder).addStatefulSet)
	each(b, "Job", s.Jobs, metaID[batchv1.Job], (*builder).addJob)
	each(b, "PodDisruptionBudget", s.PodDisruptionBudgets, metaID[policyv1.PodDisruptionBudget], (*builder).addPDB)
	each(b, "PriorityClass", s.PriorityClasses, metaID[schedulingv1.PriorityClass], (*builder).addPriorityClass)
	each(b, "PersistentVolumeClaim", s.PersistentVolumeClaims, metaID[corev1.PersistentVolumeClaim], (*builder).addPVC)
	each(b, "PersistentVolume", s.PersistentVolumes, metaID[corev1.PersistentVolume], (*builder).addPV)
	each(b, "StorageClass", s.StorageClasses, metaID[storagev1.StorageClass], (*builder).addStorageClass)
	each(b, "CSINode", s.CSINodes, metaID[storagev1.CSINode], (*builder).addCSINode)
	each(b, "LimitRange", s.LimitRanges, metaID[corev1.LimitRange], (*builder).addLimitRange)
	each(b, KindNodePool, s.pools, (*NodePool).id, (*builder).addNodePool)
	each(b, KindNodeClaim, s.claims, (*nodeClaimManifest).id, (*builder).addNodeClaim)
	each(b, KindEC2NodeClass, s.EC2NodeClasses, (*EC2NodeClass).id, (*builder).addNodeClass)
	each(b, KindNodeOverlay, s.NodeOverlays, metaID[v1alpha1.NodeOverlay], (*builder).addNodeOverlay)
	each(b, "PodTemplate", s.PodTemplates, metaID[corev1.PodTemplate], (*builder).addPodTemplate)
	each(b, KindCapacityBuffer, s.CapacityBuffers, metaID[autoscalingv1beta1.CapacityBuffer], (*builder).addCapacityBuffer)
	return b.err
}

// each adds items, the objects of kind, with add, after checking their
// names ([builder.identify]), unless b.err is set; it sets b.err to the
// first error, an *ObjectError, in a *DocumentError when Load read the
// object. add does not modify its T.
func each[T any](b *builder, kind string, items []T, id func(*T) (ns, name string), add func(*builder, *T, *object) error) {
	for i := range items {
		if b.err != nil {
			return
		}
		o := b.in.origin(kind, i)
		ns, name := id(&items[i])
		err := b.identify(kind, ns, name, o, i)
		if err == nil {
			err = add(b, &items[i], o)
		}
		if err != nil {
			var oe *ObjectError
			if !errors.As(err, &oe) {
				err = wrapObject(objectError(kind, ns, name, "", nil), err)
			}
			b.err = o.fail(err)
		}
	}
}

// metaID returns the namespace and name of a Kubernetes object.
func metaID[T any, P interface {
	*T
	metav1.Object
}](v *T) (ns, name string) {
	return P(v).GetNamespace(), P(v).GetName()
}

// addPod records where the pod f was read; its facts and conversion
// are in the snapshot already.
func (*builder) addPod(f *podFacts, o *object) error {
	f.obj = o
	return nil
}

func (b *builder) addNode(n *corev1.Node, _ *object) error {
	node, err := FromNode(n)
	b.nodes = append(b.nodes, node)
	if n.Spec.ProviderID != "" {
		if b.nodeIDs == nil {
			b.nodeIDs = map[string]string{}
		}
		b.nodeIDs[n.Spec.ProviderID] = n.Name
	}
	return err
}

func (b *builder) addDaemonSet(ds *appsv1.DaemonSet, _ *object) error {
	d, err := FromDaemonSet(ds)
	b.daemonSets = append(b.daemonSets, d)
	if ds.UID != "" {
		if b.daemonSetUIDs == nil {
			b.daemonSetUIDs = map[ref]string{}
		}
		b.daemonSetUIDs[ref{"DaemonSet", d.Namespace, d.Name}] = string(ds.UID)
	}
	return err
}

// daemonSetPods gives each DaemonSet the requests of its newest pod in the
// manifests ([podRequests]), in place of its template's, as Karpenter's
// provisioner does (getDaemonSetPods takes the pod its cluster state keeps
// for the DaemonSet, else the template): admission (LimitRange, VPA,
// mutating webhooks) may have changed them. Its pods are those whose
// controller is a DaemonSet of its namespace and name (and uid, when both
// have one: metav1.IsControlledBy), in any phase; the newest has the
// latest metadata.creationTimestamp (state.Cluster.UpdateDaemonSet), the
// first by name among equals. A DaemonSet without a pod keeps its
// template's requests. The complexity is linear in pods and DaemonSets.
func (b *builder) daemonSetPods() error {
	if len(b.daemonSets) == 0 {
		return nil
	}
	newest := map[ref]*podFacts{}
	for i := range b.in.pods {
		f := &b.in.pods[i]
		if f.daemon == nil { // not controlled by a DaemonSet
			continue
		}
		key := ref{"DaemonSet", namespace(f.ns), f.ctl.name}
		if uid := b.daemonSetUIDs[key]; uid != "" && f.ctl.uid != "" && f.ctl.uid != uid {
			continue
		}
		if cur := newest[key]; cur == nil || newer(f, cur) {
			newest[key] = f
		}
	}
	for i := range b.daemonSets {
		ds := &b.daemonSets[i]
		f := newest[ref{"DaemonSet", ds.Namespace, ds.Name}]
		if f == nil {
			continue
		}
		if err := f.daemon.err; err != nil {
			return f.obj.fail(wrap("Pod", ds.Namespace, f.name, err))
		}
		ds.Requests = f.daemon.list
	}
	return nil
}

// newer reports whether p was created after q, or at the same time and
// comes first by name.
func newer(p, q *podFacts) bool {
	if pc, qc := &p.daemon.created, &q.daemon.created; !pc.Equal(qc) {
		return pc.After(qc.Time)
	}
	return p.name < q.name
}

func (b *builder) addNodePool(np *NodePool, _ *object) error {
	pool := *np
	pool.APIVersion, pool.Kind = KarpenterAPIVersion, KindNodePool // a typed list's item may omit them
	if _, err := FromNodePool(&pool); err != nil {
		return err
	}
	b.pools = append(b.pools, pool)
	return nil
}

func (np *NodePool) id() (ns, name string) { return np.Metadata.Namespace, np.Metadata.Name }

func (b *builder) addPriorityClass(pc *schedulingv1.PriorityClass, _ *object) error {
	if b.classes == nil {
		b.classes = map[string]int32{}
	}
	b.classes[pc.Name] = pc.Value
	if pc.GlobalDefault {
		b.defaultPri = new(pc.Value)
	}
	return nil
}

func (b *builder) addDeployment(d *appsv1.Deployment, o *object) error {
	return b.workload(o, workload{kind: "Deployment", namespace: namespace(d.Namespace), name: d.Name,
		replicas: replicas(d.Spec.Replicas), template: &d.Spec.Template})
}

func (b *builder) addReplicaSet(rs *appsv1.ReplicaSet, o *object) error {
	w := workload{kind: "ReplicaSet", namespace: namespace(rs.Namespace), name: rs.Name,
		replicas: replicas(rs.Spec.Replicas), template: &rs.Spec.Template}
	if kind, name, ok := strings.Cut(owner(rs.OwnerReferences), "/"); ok && kind == "Deployment" {
		w.owner = name
	}
	return b.workload(o, w)
}

func (b *builder) addStatefulSet(s *appsv1.StatefulSet, o *object) error {
	w := workload{kind: "StatefulSet", namespace: namespace(s.Namespace), name: s.Name,
		replicas: replicas(s.Spec.Replicas), template: &s.Spec.Template}
	if s.Spec.Ordinals != nil {
		if w.start = int(s.Spec.Ordinals.Start); w.start < 0 {
			return wrap("StatefulSet", w.namespace, w.name, atField("spec.ordinals.start", fmt.Errorf("%d is negative", w.start)))
		}
	}
	return b.workload(o, w)
}

// job expands to the pods the job controller would run at once; at most
// parallelism (default 1) and the completions here, the rest once every
// pod of the manifests is known ([jobRun.pods]).
func (b *builder) addJob(j *batchv1.Job, o *object) error {
	run := newJobRun(j)
	n := run.parallelism
	if run.completions >= 0 {
		n = min(n, run.completions)
	}
	return b.workload(o, workload{kind: "Job", namespace: namespace(j.Namespace), name: j.Name,
		replicas: n, template: &j.Spec.Template, job: run})
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

// convertChunk is how many pods a goroutine converts at a time
// (takePods, predecode).
const convertChunk = 64

// build adds the objects of the snapshot, converts the pods and expands
// the workloads.
func (b *builder) build() (Cluster, error) {
	if err := b.addAll(); err != nil {
		return Cluster{}, err
	}
	if err := b.daemonSetPods(); err != nil {
		return Cluster{}, err
	}
	b.warnings = append(b.warnings, b.sortLimitRanges()...)
	b.limitNodes()
	c := Cluster{Nodes: b.nodes, DaemonSets: b.daemonSets, NodePools: b.pools, PodDisruptionBudgets: b.pdbs,
		NodeClaims: b.claims, NodeClasses: b.nodeClasses, nodeIDs: b.nodeIDs, origins: b.origins()}
	c.NodeConditions = nodeConditions(b.in.Nodes)
	c.Overlays = b.overlays
	s := b.scales()
	pods, conv := b.in.pods, b.in.converted
	var present map[ref]int // the pods present, for expand: none without workloads
	if len(b.workloads) > 0 {
		present = make(map[ref]int, len(pods))
	}
	if pendingPods(pods) > 0 {
		// The pending pods are moved to the front of the conversions,
		// which become c's: pod i goes at most to i, once read. Else nil,
		// as without pods.
		c.Pods = conv[:0]
	}
	for i := range pods {
		if err := b.place(&c, &pods[i], conv[i], present, s); err != nil {
			return Cluster{}, pods[i].obj.fail(err)
		}
	}
	if len(c.Pods) < cap(c.Pods)/2 { // most pods were bound, ended or skipped: keep no idle room
		c.Pods = slices.Clip(slices.Clone(c.Pods))
	}
	reserved := b.statefulPods()
	for _, sw := range b.workloads {
		if err := b.expand(&c, sw, present, s, reserved); err != nil {
			return Cluster{}, sw.obj.fail(err)
		}
	}
	if err := b.capacityBuffers(&c); err != nil {
		return Cluster{}, c.locate(err)
	}
	b.computeBudgets(c.PodDisruptionBudgets, s)
	b.warnings = append(c.nodeClassWarnings(), b.warnings...)
	c.Warnings, c.PodGracePeriods = slices.Concat(b.summaries(), b.unknown.lines(), b.staticWarning(), b.skips.lines(),
		b.volumes.unknown.linesAs("volumes not checked for"), b.priorityWarnings(), b.warnings), b.graces
	return c, nil
}

// staticWarning says, in one line, which NodePools are static and what
// nodeplan makes of them.
func (b *builder) staticWarning() []string {
	var pools []string
	for i := range b.pools {
		if np := &b.pools[i]; np.Static() {
			pools = append(pools, fmt.Sprintf("%s (spec.replicas %d)", np.Metadata.Name, *np.Spec.Replicas))
		}
	}
	if len(pools) == 0 {
		return nil
	}
	verb := "launches"
	if len(pools) > 1 {
		verb = "launch"
	}
	return []string{fmt.Sprintf("static NodePools: %s %s no node for pending pods and "+
		"its nodes are not consolidated, as Karpenter provisions and consolidates none; its nodes stay as existing capacity, "+
		"and spec.replicas alone scales it (nodeplan static)",
		strings.Join(pools, ", "), verb)}
}

// origins records where the objects were read that errors found after
// addAll name: NodePools, EC2NodeClasses, Nodes and NodeClaims, and the
// CapacityBuffers and PodTemplates, evaluated last.
func (b *builder) origins() map[ref]origin {
	out := map[ref]origin{}
	for _, s := range b.seen {
		if o := s.o; o != nil {
			if oe := o.errorf("", nil); locatedKinds[oe.Kind] {
				out[ref{oe.Kind, oe.Namespace, oe.Name}] = origin{file: o.file, index: o.index, item: o.item}
			}
		}
	}
	return out
}

// locatedKinds are the kinds whose origins a Cluster keeps ([builder.origins]).
var locatedKinds = map[string]bool{KindNodePool: true, KindEC2NodeClass: true, "Node": true, KindNodeClaim: true,
	KindCapacityBuffer: true, "PodTemplate": true}

// statefulPods are the names of the pods of the StatefulSets, which are
// their identities: kept for them. A StatefulSet's pods are numbered from
// spec.ordinals.start (default 0), as apps/v1 StatefulSetOrdinals says.
func (b *builder) statefulPods() map[ref]bool {
	reserved := map[ref]bool{}
	for _, sw := range b.workloads {
		if w := &sw.v; w.kind == "StatefulSet" {
			for i := w.start; i < w.start+w.replicas; i++ {
				reserved[ref{"Pod", w.namespace, w.name + "-" + strconv.Itoa(i)}] = true
			}
		}
	}
	return reserved
}

// place puts one pod, converted as pod, on its node, among the pending
// pods, or nowhere with a warning; present, unless nil, counts it and its owners
// ([scales.owners]).
func (b *builder) place(c *Cluster, f *podFacts, pod packing.Pod, present map[ref]int, s scales) error {
	if f.ended() {
		b.finish(f)
		b.skips.add("Pod", fmt.Sprintf("phase %s takes no room", f.phase), f.obj.example(objectName(namespace(f.ns), f.name)))
		return nil
	}
	class := "" // a PriorityClass the input lacks
	if !f.priority {
		v, ok, missing := b.priorityOf(f.class)
		if ok {
			pod.Priority = v
		}
		class = missing
	}
	skip := f.nodeName == "" && f.skip != nil
	var vols podVolumes
	if !skip {
		vols = b.volumes.resolve(f.volumes, "Pod", namespace(f.ns), f.name, f.nodeName == "", func(missing string) string {
			return f.obj.example(objectName(namespace(f.ns), f.name) + " needs " + missing)
		})
	}
	if f.err != nil {
		return f.err
	}
	pod.Volumes = vols.forPod(pod.Namespace, pod.Name)
	if present != nil {
		present[ref{"Pod", pod.Namespace, pod.Name}]++
		for _, o := range s.owners(&pod) {
			present[o]++
		}
	}
	if skip && !pod.IsDaemon() {
		b.skips.add("Pod", f.skip.why, f.obj.example(objectName(pod.Namespace, pod.Name)+f.skip.detail))
		return nil
	}
	b.missingClass(class, 1)
	switch {
	case f.nodeName != "":
		b.grace(&pod, f.grace)
		return b.bind(c, f, pod)
	case pod.IsDaemon():
		b.skips.add("Pod", "a pending daemonset pod is counted by its DaemonSet", f.obj.example(objectName(pod.Namespace, pod.Name)))
	default:
		c.Pods = append(c.Pods, pod)
	}
	return nil
}

func (b *builder) bind(c *Cluster, f *podFacts, pod packing.Pod) error {
	if i, ok := b.nodeIndex(c)[f.nodeName]; ok {
		c.Nodes[i].Pods = append(c.Nodes[i].Pods, pod)
		return nil
	}
	b.skips.add("Pod", "bound to a node that is not in the input", f.obj.example(objectName(pod.Namespace, pod.Name)+" on "+f.nodeName))
	return nil
}

// nodeIndex returns the position of the first of c's nodes of each name,
// built when first asked: pods are bound once every node is in c.
func (b *builder) nodeIndex(c *Cluster) map[string]int {
	if b.nodeAt == nil {
		b.nodeAt = make(map[string]int, len(c.Nodes))
		for i := range c.Nodes {
			if _, dup := b.nodeAt[c.Nodes[i].Name]; !dup {
				b.nodeAt[c.Nodes[i].Name] = i
			}
		}
	}
	return b.nodeAt
}

// pendingPods counts the pods that name no node: at most the cluster's
// pending pods.
func pendingPods(pods []podFacts) int {
	n := 0
	for i := range pods {
		if pods[i].nodeName == "" {
			n++
		}
	}
	return n
}

// finish counts a Succeeded or Failed pod for the Job that controls it.
func (b *builder) finish(f *podFacts) {
	ctl := f.ctl
	if !ctl.set || ctl.kind != "Job" || group(ctl.apiVersion) != "batch" {
		return
	}
	if b.finished == nil {
		b.finished = map[ref]*[2]int{}
	}
	key := ref{"Job", namespace(f.ns), ctl.name}
	n := b.finished[key]
	if n == nil {
		n = new([2]int)
		b.finished[key] = n
	}
	if f.phase == succeeded {
		n[0]++
	} else {
		n[1]++
	}
}

// builtinClasses are the PriorityClasses every cluster has without
// manifests (Kubernetes' pkg/apis/scheduling: SystemCriticalPriority and
// 1000 above it).
var builtinClasses = map[string]int32{"system-cluster-critical": 2_000_000_000, "system-node-critical": 2_000_001_000}

// resolvePriority fills spec.priority, when unset, from its PriorityClass
// ([builder.priorityOf]). spec is the builder's own (a workload's pod,
// copied from its template). It returns the name of a PriorityClass spec
// names that is not in the input, else "".
func (b *builder) resolvePriority(spec *corev1.PodSpec) string {
	if spec.Priority != nil {
		return ""
	}
	v, ok, missing := b.priorityOf(spec.PriorityClassName)
	if ok {
		spec.Priority = new(v)
	}
	return missing
}

// priorityOf is the priority the admission plugin gives a pod without
// spec.priority that names the PriorityClass name: the class's value (a
// built-in class's too), else, with no name, the global default's; ok is
// false when there is none. missing is name when the input lacks that
// class, else "".
func (b *builder) priorityOf(name string) (v int32, ok bool, missing string) {
	if v, ok := b.classes[name]; ok {
		return v, true, ""
	}
	if v, ok := builtinClasses[name]; ok {
		return v, true, ""
	}
	if name == "" && b.defaultPri != nil {
		return *b.defaultPri, true, ""
	}
	return 0, false, name
}

// missingClass counts n pods naming a PriorityClass the manifests lack.
func (b *builder) missingClass(name string, n int) {
	if name == "" || n == 0 {
		return
	}
	if b.unknownClasses == nil {
		b.unknownClasses = map[string]int{}
	}
	b.unknownClasses[name] += n
}

// priorityWarnings returns one warning per PriorityClass the manifests lack,
// in name order.
func (b *builder) priorityWarnings() []string {
	var out []string
	for _, name := range slices.Sorted(maps.Keys(b.unknownClasses)) {
		n := b.unknownClasses[name]
		verb := "names"
		if n != 1 {
			verb = "name"
		}
		out = append(out, fmt.Sprintf("PriorityClass %s is not in the input: %s %s it and are planned with priority 0, "+
			"which Kubernetes' admission would not give them (it rejects a pod whose class does not exist); add it to the manifests",
			name, planview.Count(n, "pod"), verb))
	}
	return out
}

// expand adds a workload's missing replicas as pending pods. A
// StatefulSet's pods are name-start … name-(start+replicas-1) less those
// present, start being spec.ordinals.start (default 0);
// other workloads' pods take the first names name-i that no pod present,
// no other workload's expansion and no StatefulSet's pod has, so no two
// pods share a name.
func (b *builder) expand(c *Cluster, sw sourced[workload], present map[ref]int, s scales, reserved map[ref]bool) error {
	w := &sw.v
	if _, ok := s[ref{"Deployment", w.namespace, w.owner}]; w.owner != "" && ok {
		b.skips.add("ReplicaSet", "their Deployment is expanded instead", sw.obj.example(objectName(w.namespace, w.name)))
		return nil
	}
	proto := corev1.Pod{ObjectMeta: *w.template.ObjectMeta.DeepCopy(), Spec: *w.template.Spec.DeepCopy()}
	proto.Namespace = w.namespace
	b.admit(&proto.Spec, w.namespace)
	class := b.resolvePriority(&proto.Spec)
	why, detail := unprovisioned(&proto.Spec, "")
	var vols podVolumes
	if why == "" {
		vols = b.volumes.resolve(proto.Spec.Volumes, "workload", w.namespace, "", true, func(missing string) string {
			return sw.obj.example(w.kind + " " + objectName(w.namespace, w.name) + " needs " + missing)
		})
	}
	base, err := fromPod(&proto, w.namespace, true)
	if err != nil {
		return wrap(w.kind, w.namespace, w.name, atField("spec.template", err))
	}
	base.Owner = w.kind + "/" + w.name
	id := ref{w.kind, w.namespace, w.name}
	if w.job != nil {
		w.replicas = min(w.replicas, w.job.pods(b.finished[id]))
	}
	missing := w.replicas - present[id]
	if w.kind == "StatefulSet" { // its pods are known by name instead
		missing = w.replicas
	}
	first := len(c.Pods)
	for i := w.start; missing > 0 && (w.kind != "StatefulSet" || i < w.start+w.replicas); i++ {
		name := w.name + "-" + strconv.Itoa(i)
		key := ref{"Pod", w.namespace, name}
		if present[key] > 0 || w.kind != "StatefulSet" && reserved[key] {
			continue
		}
		present[key]++
		pod := base
		pod.Name, pod.Labels = name, maps.Clone(base.Labels)
		pod.Volumes = vols.forPod(w.namespace, name)
		if w.kind == "StatefulSet" {
			if err := requirements.ValidateValue(name); err != nil {
				return wrap(w.kind, w.namespace, w.name, atField("metadata.name", fmt.Errorf(
					"its pod %s would carry its name as the %s label: %w", name, appsv1.StatefulSetPodNameLabel, err)))
			}
			pod.Labels = withLabel(pod.Labels, appsv1.StatefulSetPodNameLabel, name)
		}
		if why != "" {
			b.skips.add("Pod", why, sw.obj.example(objectName(w.namespace, name)+detail+" of "+w.kind+" "+w.name))
		} else {
			c.Pods = append(c.Pods, pod)
		}
		missing--
	}
	b.missingClass(class, len(c.Pods)-first)
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
