// Package kube is nodeplan's Kubernetes adapter: it converts k8s.io/api
// objects and Karpenter's karpenter.sh/v1 NodePools into the packing
// model, builds a cluster's snapshot from typed objects ([FromObjects])
// or manifests ([Load]), and writes plans back as Karpenter NodeClaims
// ([NodeClaims]) or as a report ([NewReport]). The nodeplan command line
// (kube/cmd/nodeplan) is built on it.
//
// # One snapshot, two sources
//
// [FromObjects] builds a [Cluster] from [Objects], typed values as a
// controller's informers or a live read hold them (k8s.io/api types,
// Karpenter v1.14.1's NodePool and NodeClaim, this package's
// EC2NodeClass). [Load] is a decoder in front of it: it decodes every
// manifest document into the same typed values (with the checks below,
// which see the text: field names, types, quantities as written) and
// builds through the same code, so the two give the same Cluster from the
// same objects; only Load names files and documents and warns about the
// kinds and fields it does not read. Both add the objects kind by kind,
// in the order of the fields of Objects, each kind in its order: the
// pending pods of workloads come Deployments first, then ReplicaSets,
// StatefulSets and Jobs. Typed objects get every check of the values
// nodeplan reads that manifests get: names, namespaces, duplicates,
// labels, keys, requirements, quantities (a quantity's magnitude is
// bounded, from 1e-64 to 1e64, before apimachinery writes it out).
//
// # Conversion
//
// [FromPod] reads a Pod's effective requests the way kube-scheduler
// computes them ([EffectiveRequests]: containers summed, restartable init
// containers added, at least the largest init container with the sidecars
// started before it, pod-level requests, pod overhead), its nodeSelector
// and node affinity, tolerations, topology spread constraints, pod
// (anti-)affinity, host ports, priority, the karpenter.sh/do-not-disrupt
// annotation, its controlling owner and whether it is terminating; [Load]
// reads requests as admission and in-place resizes left them (see below). [FromNode] reads a Node's allocatable, labels and taints and
// from its Karpenter labels its NodePool, instance type, zone and capacity
// type. [FromDaemonSet] reads a DaemonSet's pod template and
// [FromPodDisruptionBudget] a policy/v1 PodDisruptionBudget into the
// plain [PodDisruptionBudget].
//
// # Requests as admission and the kubelet left them
//
// A pod in the manifests is read as it is: admission (the LimitRanger
// plugin, a VPA, mutating webhooks) has already run for it. Its
// requests are raised to what the kubelet holds after an in-place resize,
// as Karpenter's resources.Ceiling reads them (component-helpers'
// PodRequests with UseStatusResources): for each regular container and
// sidecar whose status (status.containerStatuses or
// status.initContainerStatuses, matched by name) has resources, the
// largest, resource by resource, of its spec's requests, the status's
// resources.requests and its allocatedResources; when a PodResizePending
// condition has reason Infeasible, of the status's two only. A status
// with allocatedResources and no resources is not read, nor are ordinary
// init containers' statuses and pod-level status resources, as in
// Karpenter v1.14.
//
// A DaemonSet's requests are those of its newest pod in the manifests
// (latest metadata.creationTimestamp, the first by name among equals; a
// pod it controls by ownerReferences, the uids matching when both are
// set; in any phase, resized as above), as Karpenter's provisioner takes
// the pod its cluster state keeps for the DaemonSet (getDaemonSetPods,
// state.Cluster.UpdateDaemonSet): a VPA or a LimitRange may have changed
// them from the template's. Without a pod, the template's, which no
// LimitRange changes (Karpenter's daemonset.PodForDaemonSet applies none).
// Only the requests come from the pod; tolerations and node affinity stay
// the template's.
//
// The pods Load expands from Deployments, ReplicaSets, StatefulSets and
// Jobs do not exist yet; they take their namespace's LimitRange (v1)
// defaults as the LimitRanger admission plugin would give them: in every
// container and init container, after the API server's defaulting (a
// limit without a request requests it), a resource without a request gets
// the Container items' defaultRequest and one without a limit their
// default, the LimitRange read with the API server's defaults (default
// from max, defaultRequest from default, then from min) and a later
// Container item overriding an earlier one. Of several LimitRanges in a
// namespace the first by name is applied first, the others only filling
// what it leaves; the plugin takes them in its cache's order, which is not
// fixed, so when two default one resource's request to different amounts
// one warning names them. Pod items, min, max and maxLimitRequestRatio are
// not checked: a pod they would reject is still planned. A LimitRange's
// spec is read whole (an unknown field is an error) and a type other than
// Container, Pod or PersistentVolumeClaim is an error naming
// spec.limits[i].type.
//
// # Karpenter's types and this package's
//
// [NodePool] and [NodeClaim] are this package's own structs that read and
// write the same karpenter.sh/v1 YAML: Load decodes NodePools and
// NodeClaims into them (a NodePool's spec read whole, its durations as
// written) and [NodeClaims] writes them. [Objects] holds Karpenter
// v1.14.1's Go types (sigs.k8s.io/karpenter/pkg/apis/v1), which
// FromObjects converts into them field by field: a NillableDuration as it
// was written, else in its shortest form ("48h"), and nil as Never, as in
// Karpenter (the API server writes the CRD's defaults, expireAfter 720h
// and consolidateAfter 0s, where a manifest omits them; Load reads an
// absent one as that default). Fields of the YAML that nodeplan does not
// use are ignored on input, except inside the parts it reads whole (see
// "Field names"). The kube module pins the k8s.io releases
// sigs.k8s.io/karpenter v1.14.1 uses, so the workspace with
// benchmarks/karpenter agrees.
//
// # PodDisruptionBudgets
//
// A PodDisruptionBudget's status.disruptionsAllowed is used as it is when
// the status is current: written by the disruption controller, which
// always writes status.observedGeneration ≥ 1, and not stale
// (observedGeneration ≥ metadata.generation). A budget applied from Git
// has no status, kubectl create pdb --dry-run=client writes a zeroed one
// (observedGeneration 0), and a stale status describes an older spec; for
// those [Load] computes the number as Kubernetes' disruption controller
// does (pkg/controller/disruption), over the Pod objects of the manifests
// that the budget selects, sets [PodDisruptionBudget].FromSpec and says so
// in one warning per budget:
//
//   - expected pods: for maxUnavailable, and for minAvailable given as a
//     percentage, the summed replicas of the pods' controllers, each
//     counted once (a ReplicaSet's Deployment when the manifests hold it,
//     found by ownerReferences or by the pod-template-hash label; else the
//     ReplicaSet; a StatefulSet; matched by kind, namespace and name). A
//     pod without a controller counts for nothing, as in Kubernetes. A pod
//     whose controller is not in the input, or is a Job, DaemonSet or
//     Node, which have no scale, makes the budget allow no disruption, as
//     Kubernetes' fail-safe does when it cannot find a pod's controller or
//     its scale; the warning names the pod and the controller. For an
//     integer minAvailable, the matching pods;
//   - desired healthy: minAvailable, or expected − maxUnavailable (at
//     least 0); percentages of the expected count rounded up
//     (intstr.GetScaledValueFromIntOrPercent with roundUp);
//   - healthy: matching pods with condition Ready=True and no
//     deletionTimestamp;
//   - allowed: healthy − desired, at least 0, and 0 when no pod is
//     expected or neither field is set.
//
// minAvailable 80% over a 10-replica Deployment with 10 ready pods allows
// 2. Pending pods that Load expands from workloads do not exist yet and
// are not counted. spec.unhealthyPodEvictionPolicy AlwaysAllow is
// [PodDisruptionBudget].AlwaysAllowUnhealthy, passed on to package
// disruption.
//
// # Kubelet settings
//
// An EC2NodeClass's spec.kubelet is checked as Karpenter's CRD checks it
// and applied to its NodePools' catalogs as the AWS provider computes
// instance types ([instancetypes.Catalog.WithKubelet]): maxPods and
// podsPerCore set the pod capacity, kubeReserved replaces and
// systemReserved adds to the overhead, evictionHard's memory.available and
// nodefs.available replace the eviction thresholds, and the AMI family
// (spec.amiFamily, else the alias's) decides whether kube-reserved memory
// is sized for the ENI-limited pod count (AL2, AL2023, Custom) or the pod
// capacity (Bottlerocket, Windows) and whether podsPerCore counts. The
// other fields (evictionSoft included, as in Karpenter v1.14) do not
// change what a node holds. A setting that cannot be applied (a catalog
// whose types were given with their capacity and overhead) is an error
// naming spec.kubelet's field.
//
// # NodePools Karpenter does not provision from
//
// Karpenter's provisioner skips a NodePool that is static (spec.replicas,
// alpha in v1.14) or not Ready (its status.conditions, which include
// its NodeClass being Ready). [Cluster.Problem] gives such a pool
// packing.NodePool.Unavailable: it launches no node, and a pod that only
// it would take is unschedulable with reason kind Unavailable saying why
// ("NodePool gpu would take pod ml/train-0 but launches no node: its
// EC2NodeClass gpu is not Ready (Ready=False, …)"); its nodes stay as
// existing capacity, and a static pool's are not consolidated. One
// warning per such pool says so too. A NodePool whose EC2NodeClass is not
// in the manifests, or has no status.subnets (applied from Git), is
// planned as if the class were Ready, in the catalog's zones, with one
// warning per pool naming the pool and the class: nodeplan answers
// what-if questions. An object without a Ready condition is taken as
// Ready. What spec.replicas does to a static pool (scale-up, scale-down,
// StaticDrift) is [Cluster.Static]'s input to package static; a static
// pool with a weight or limits other than nodes is an error, as
// Karpenter's CRD rejects it.
//
// # Node states
//
// A Node with a deletionTimestamp, or whose NodeClaim (joined by the
// claim's status.nodeName, else by status.providerID = spec.providerID)
// has one, is packing.Node.MarkedForDeletion, as Karpenter's
// StateNode.MarkedForDeletion: it takes no pod, and [Cluster.Problem]
// moves its reschedulable pods (packing.Pod.Reschedulable: not daemonset,
// mirror or terminating pods; a terminating StatefulSet pod comes back) to
// the pending pods, as Karpenter's provisioner schedules the pods of
// deleting nodes again; consolidation and drift keep them on the node. A Node whose status.conditions has
// Ready with a status other than True is packing.Node.NotReady, which
// spends its pool's disruption budgets as Karpenter's do; a Node without a
// Ready condition (a hand-written manifest) counts as Ready, where
// Karpenter would count it NotReady. A NodeClaim with a status.providerID
// and no Node in the manifests is a node in flight, as Karpenter's cluster
// state keeps it ([ClaimStatus].InFlight: its labels, taints less its
// startup taints, status.allocatable or else its instance type's, not
// initialized): [Cluster.Problem] and [Cluster.Consolidation] add it after
// the Nodes, priced like them, and provision places pending pods on it
// instead of launching again; a claim whose status.nodeName names an
// absent Node is read the same way. A claim without a providerID is not
// launched and adds nothing. [Cluster.Drift] leaves nodes in flight out.
//
// # Regions
//
// Karpenter labels every node it launches with its region and zone. The
// nodes of NodePools name the cluster's region ([Cluster.Region]: the
// first such node's topology.kubernetes.io/region), which the nodeplan
// command takes as its default region; [Cluster.CheckRegion] rejects a
// NodePool node whose region label or zone is of another region than the
// catalog's (ErrOtherRegion, naming file, document and label), so that a
// plan is never priced at another region's rates. Nodes outside NodePools
// are not checked; their price is unknown when the catalog lacks their
// offering ([PriceWarnings]).
//
// # Consolidation and drift
//
// [Cluster.Consolidation] builds a consolidation.Cluster (nodes priced as
// in [Cluster.Problem], a node's last pod event read as its newest pod
// creationTimestamp) and [Cluster.Drift] a drift.Cluster: Nodes joined to
// the NodeClaims ([ClaimStatus]) whose status.nodeName names them,
// NodePools as drift templates, and [EC2NodeClass] (karpenter.k8s.aws/v1:
// selector terms, launch settings, resolved status) converted with
// [EC2NodeClass.NodeClass]. The node's image is the claim's status.imageID
// or [AnnotationImageID]; subnet and security groups, which no Kubernetes
// object records, come from [AnnotationSubnetID] and
// [AnnotationSecurityGroupIDs]; hashes from [AnnotationNodePoolHash] and
// [AnnotationNodeClassHash] with their -version annotations, on the claim or
// else the node. [Cluster.Newest] is the instant the command line decides
// at when --now is absent.
//
// [Cluster.Repair] reads node repair's input (repair.Input): each Node's
// karpenter.sh/nodepool, the status.conditions a repair policy names with
// their status and lastTransitionTime ([Cluster.NodeConditions]; a bad
// status or a missing time is an *ObjectError), whether a NodeClaim
// manages it (joined by status.nodeName or providerID) and whether that
// claim is being deleted; [Cluster.RepairCluster] the cluster repair.Plan
// places the repaired nodes' pods on.
//
// [Cluster.Apply] carries a provisioning plan out on a copy of the
// cluster, as Karpenter's cluster state sees it right after launch: the
// pods bound, each new NodeClaim an initialized node of its NodePool,
// instance type, zone and capacity type created at now, the pods of
// deleting nodes that the plan placed taken off them; a plan of another
// cluster is ErrPlanMismatch. [Cluster.ConsolidationAfter] is the
// consolidation snapshot of that cluster, with a pod event at now on the
// nodes that took pods: nodeplan diff and provision --then-consolidate
// consolidate it.
//
// Which bound pods move when their node is disrupted is Karpenter's
// IsReschedulable rule (packing.Pod.Reschedulable):
//
//   - a DaemonSet's pod (controller kind DaemonSet) stays with its node; it
//     belongs to the DaemonSet of its own namespace and name
//     (packing.DaemonSet.Owns), so on a node it runs on, its requests
//     count once, and provisioning keeps room on an existing node only
//     for DaemonSets that have no pod there yet;
//   - a mirror pod (the API server's copy of a kubelet static pod, owner
//     kind Node) stays with its node;
//   - a terminating pod (metadata.deletionTimestamp set) stays: it does
//     not move, does not keep its node from being empty, and its
//     do-not-disrupt annotation does not block; it still takes its node's
//     room, as kube-scheduler counts it until it is gone. A terminating
//     StatefulSet pod is the exception and moves, as Karpenter models its
//     replacement, which waits for it;
//   - a Succeeded or Failed pod is not read at all (it takes no room).
//
// # Manifests
//
// [Load] takes multi-document YAML or JSON, kind List (as kubectl get -o
// yaml prints it), typed lists such as PodList or NodePoolList whose items
// carry no kind or apiVersion (raw API responses; the items take the
// list's), and the output of kubectl cluster-info dump (its JSON lists,
// without the container logs it prints between them). It expands
// Deployments, ReplicaSets, StatefulSets and Jobs into pending pods named
// name-0, name-1, … (a StatefulSet's from its spec.ordinals.start; less the pods of theirs already present; a Job into
// the pods its controller would still run: none once it is suspended,
// Complete or Failed, else parallelism, at most the completions its
// status and its Succeeded pods leave), gives pods without spec.priority
// the value of their PriorityClass (system-node-critical and
// system-cluster-critical are built in; a class the manifests lack is
// named in one warning per class with its pod count, and its pods keep
// priority 0), binds pods
// with spec.nodeName to their node, leaves out the pending pods that
// neither kube-scheduler nor Karpenter places — gated (spec.schedulingGates,
// Kueue's say), of another scheduler (spec.schedulerName other than
// default-scheduler, such as fargate-scheduler) or preempting
// (status.nominatedNodeName, which Karpenter's IsProvisionable excludes),
// and the pods a workload whose template is gated or names another
// scheduler would create — and warns about every object it does
// not use, in one line per kind and reason with the count and the first
// three ("skipped 240 Pods: phase Succeeded takes no room: batch/a
// (dump.json: document 1: items[4]), …, and 237 more"). Objects of kinds
// nodeplan does not read (RBAC, Services, ConfigMaps…) are counted in one
// warning line ("skipped 12 objects of kinds nodeplan does not read:
// ClusterRole ×3, …").
//
// # Capacity buffers
//
// CapacityBuffers (autoscaling.x-k8s.io/v1beta1, Karpenter v1.14's copy of
// the cluster-autoscaler API, behind its CapacityBuffer feature gate) are
// read with the PodTemplates they may refer to. Once every workload is
// known, each is evaluated by package buffer against the PodTemplates,
// Deployments, StatefulSets and ReplicaSets of the snapshot (its
// namespace's; a ReplicaSet a Deployment owns is found too) into
// [Cluster].Buffers: its ReadyForProvisioning reason, the replicas it asks
// for (computed from the spec, not read from status) and the template
// (nodeName cleared, persistentVolumeClaim and ephemeral volumes dropped
// with their mounts, no LimitRange: Karpenter's virtual pods never reach
// admission). A buffer that is not ready (no ref, an unsupported group or
// kind, the object missing) is named in a warning with its
// *buffer.RefError. What the CRD rejects is an *ObjectError wrapping
// [ErrInvalid] naming the field, file and document: a limit that is not a
// quantity, a negative replicas, percentage or limit, and its CEL rules (a
// podTemplateRef needs replicas or limits; podTemplateRef and scalableRef
// exclude each other). A percentage beside a podTemplateRef, which the
// CRD lets through and Karpenter ignores, is ignored with a warning.
// [Cluster.Problem] appends the ready buffers' virtual pods
// (capacity-buffer-<name>-<i>, packing.Pod.Buffer set) after every other
// pending pod: the solve keeps their room and reports them in
// packing.Plan.Headroom, consolidation keeps Karpenter's rules for them,
// [Cluster.Apply] binds none of them, and [Headroom] reports each buffer
// for nodeplan provision. One warning ([Cluster.BufferWarnings], printed
// by provision, consolidate and diff, not in Warnings) says how many
// buffers and virtual pods there are, since Karpenter's feature gate is off by default: a
// cluster that has the CRD and buffers but not the gate provisions no
// headroom, which nodeplan does not know. The buffers' pods count against
// MaxReplicas with the workloads': the error names the field that gave
// the count (spec.replicas, spec.percentage or spec.limits); one buffer
// asking for more than buffer.MaxReplicas is an *ObjectError wrapping
// buffer.ErrTooManyReplicas, naming the field buffer.Evaluate names. Errors about
// a buffer or a PodTemplate found while evaluating them name the file
// and document too.
//
// # Volume topology
//
// A pod's volumes give it the zones (or other node labels) they can be
// used from (packing.Volumes.Requirements), as Karpenter's volume
// topology does: a PersistentVolumeClaim bound to a PersistentVolume
// (spec.volumeName) takes the volume's spec.nodeAffinity.required terms (a
// local or hostPath volume's hostname requirements dropped; a term left
// empty becomes an alternative that admits every node, in its place
// among the others, which keep theirs; terms that all contradict themselves are an
// error naming the field), an unbound claim its StorageClass's
// allowedTopologies (as In requirements, whatever the binding mode). A
// volume's terms are alternatives, crossed with the other volumes' in
// order, the pairs whose requirements do not intersect pruned, as
// Karpenter merges them; when every pair would go, Karpenter keeps them
// all and no node fits, and nodeplan makes the pod's first volume invalid
// ("the zones … its volumes allow exclude each other, from claim ns/b
// on"). As in Karpenter, these requirements bound where the pod goes (its
// node meets its own node affinity and one of them) but stay out of its
// node affinity: a topology spread with nodeAffinityPolicy Honor counts
// the domains its own affinity allows, not only its volumes' zones
// (topology_test.go:3060). A generic ephemeral volume's claim is <pod>-<volume>; a
// workload's template, whose pods do not exist yet, takes the claim it
// names, and for an ephemeral volume a claim of its template's
// StorageClass per pod. A StatefulSet's volumeClaimTemplates are not read:
// its pending pods carry no volume requirement.
//
// Karpenter provisions nothing for a pending pod whose claims its
// ValidatePersistentVolumeClaims rejects, and neither does nodeplan: such
// a pod is unschedulable with kind InvalidVolume and a reason naming the
// object and what is wrong (packing.Volume.Invalid): the claim is not in
// the input, is being deleted or is Lost; a bound claim's
// PersistentVolume is not in the input or is being deleted, or the claim
// lacks the pv.kubernetes.io/bind-completed annotation (so it counts as
// unbound); an unbound claim names no StorageClass (storageClassName ""),
// or one not in the input, or one whose volumeBindingMode is Immediate (the
// volume must be bound first). A bound claim needs no StorageClass. An
// unset storageClassName is the default StorageClass's
// (storageclass.kubernetes.io/is-default-class "true"; the newest, then
// the first by name), as the DefaultStorageClass admission plugin and
// the PersistentVolume controller's retroactive assignment give it. Bound
// pods are not checked (Karpenter validates pending pods only).
//
// Manifests without storage objects: when the input holds no
// PersistentVolumeClaim, PersistentVolume or StorageClass at all — the
// workload manifests of an application not yet applied, say — nodeplan
// does not apply Karpenter's rule, which would make every pod with a claim
// unschedulable; it plans them without their volumes' requirements and
// attach limits and says so in one warning line ("volumes not checked for
// 2 Pods: the input has no PersistentVolumeClaims, PersistentVolumes or
// StorageClasses, …: shop/db-1 needs PersistentVolumeClaim data (…)").
// One storage object in the input (a live cluster's StorageClass) makes
// every claim checked.
//
// # CSI attach limits
//
// A CSINode (storage.k8s.io/v1, named as its Node) gives its node's
// attach limits (packing.Node.VolumeLimits), as Karpenter's cluster state
// reads them: per driver, allocatable.count; a driver without allocatable
// has no limit, one whose count is unset has 0; a node without a CSINode
// has none, and a CSINode without its Node is named in a warning. Each
// pod's claims (packing.Volumes.Claims), bound or pending, are counted per
// CSI driver, as Karpenter's ResolveDriver finds it: a bound claim's
// PersistentVolume's spec.csi.driver (ebs.csi.aws.com for an in-tree
// awsElasticBlockStore volume; none for NFS, local and other volumes), an
// unbound claim's StorageClass provisioner, an in-tree name translated to
// its CSI driver (kubernetes.io/aws-ebs to ebs.csi.aws.com, gce-pd,
// cinder, azure-disk, azure-file, vsphere-volume, portworx-volume as
// k8s.io/csi-translation-lib names them). A claim, volume or class that is
// missing counts for no driver. A pending pod then joins an existing or
// in-flight node only while the distinct claims of the node's pods and
// its own stay within every limit of the node; new NodeClaims have none.
//
// # NodeOverlays
//
// karpenter.sh/v1alpha1 NodeOverlays ([Cluster].Overlays, converted by
// [FromNodeOverlay]) change the prices and extended-resource capacity of
// the instance types each NodePool launches from, as package overlay
// applies them after the pool's kubelet settings and zones: Problem,
// Consolidation and Drift price nodes, claims and replacements with the
// overlaid catalogs. What the CRD's schema and CEL rules refuse is an
// *ObjectError naming the NodeOverlay and the field; an overlay Karpenter
// would mark invalid at run time, one in conflict with another, and one
// that selects nothing are lines of [Cluster.OverlayWarnings] (nodeplan's
// commands print them as warnings and put them in their JSON warnings).
// Karpenter applies NodeOverlays only with its NodeOverlay feature gate
// on (off by default); nodeplan, which cannot see the gate, applies every
// NodeOverlay it reads: leave them out of the input to plan as a
// Karpenter with the gate off does.
//
// # Errors
//
// Every error about the input of Load is a [*DocumentError] naming the
// file, the one-based document index and the list item, wrapping
// ErrMalformed or an [*ObjectError] that names the object (kind,
// namespace/name) and the field path, also when [Cluster.Problem],
// [Cluster.Consolidation] or [Cluster.Drift] finds it (an EC2NodeClass's
// subnet zone outside the catalog's region, say): "a.yaml: document 3: Pod
// shop/web: spec.containers[0].resources.requests.cpu: \"abc\" is not a
// quantity". FromObjects returns the *ObjectError alone. A YAML document
// is read strictly: a key twice in one mapping is an error, and so are two
// keys that YAML tells apart but JSON cannot (1 and "1", true and "true"),
// which the YAML-to-JSON conversion Kubernetes' tools use folds into one
// by chance: a [*KeyCollisionError] under ErrMalformed naming both and the
// mapping's path (a null key is a [*KeyTypeError]). Load reports the
// first error it finds decoding, in the order of the documents, else the
// first it finds building, kind by kind. An object is decoded in one walk
// of its JSON alongside the Go type it decodes into, so a value of the
// wrong type is reported with its path, and every quantity is checked as
// written: by [resources.ParseQuantity]'s rules, in resource lists also
// non-negative and whole for pods and extended resources. A quantity
// longer than 64 characters or with an exponent beyond ±64 is rejected
// before apimachinery sees it (apimachinery accepts it, and never returns
// on some, such as 1e2147483648). An object without metadata.name, and a
// second object of the same kind, namespace and name ([ErrDuplicate],
// naming where the first is: a file and document, or for FromObjects the
// field of Objects and index, "Pods[3]"), are errors; pods a workload
// expands into take names no other pod has.
//
// # Field names
//
// Field names are read as the API server reads them, not as encoding/json
// does: case-sensitive (spec.nodeselector is an error naming nodeSelector,
// where encoding/json would apply it) and each once (a duplicate field or
// map key is an error; in YAML too). A field its type lacks is an error,
// wrapping [ErrUnknownField], inside the parts nodeplan reads whole, where
// a misspelling changes the answer: a pod's (or pod template's)
// nodeSelector, affinity, tolerations, topologySpreadConstraints,
// resources, overhead and containers' resources and ports; a node's
// taints; a PodDisruptionBudget's selector; a NodePool's spec; an
// EC2NodeClass's spec.kubelet and spec.metadataOptions; a
// PersistentVolume's spec.nodeAffinity; a StorageClass's
// allowedTopologies. Elsewhere, in
// Kubernetes' types, unknown fields are named in one warning line with
// their count and the first three (a cluster newer than these types
// writes fields they lack); in Karpenter's objects, which nodeplan reads
// in part, they are ignored.
//
// # Names, labels and keys
//
// Strings are checked as the API server checks them, by the requirements
// package's validators — ValidateKey and ValidateValue for labels,
// requirements.New for each node selector requirement and label selector
// expression, Taint.Validate and Toleration.Validate — whose
// requirements.FieldError names the part (key, values[1], effect…) that
// extends the field path, and rejected with a field error
// (metadata.labels["bad key"]: …,
// spec.template.spec.requirements[2].values: …): the labels
// of pods, nodes, NodeClaims and pod and NodePool templates; nodeSelector
// entries; the keys and values of node affinity, NodePool requirements and
// label selectors (integers for Gt and Lt); taint keys and values;
// toleration keys and values (an empty key needs operator Exists, Exists
// takes no value); topology keys, matchLabelKeys and mismatchLabelKeys;
// pod affinity namespaces. metadata.name must be a DNS-1123 subdomain and
// metadata.namespace a DNS-1123 label; a NodePool's name must also be a
// label value (it becomes the karpenter.sh/nodepool label), as must a
// StatefulSet's pod names (statefulset.kubernetes.io/pod-name) and the
// name of a Node without a kubernetes.io/hostname label, which stands in
// for it. So every label, key and value Load returns is one packing can
// turn into a requirement.
//
// # API versions
//
// Each kind is read at one version: v1 Pod, Node, PersistentVolumeClaim,
// PersistentVolume, LimitRange and PodTemplate; storage.k8s.io/v1 StorageClass and CSINode; apps/v1 DaemonSet,
// Deployment, ReplicaSet and StatefulSet; batch/v1 Job; policy/v1
// PodDisruptionBudget; scheduling.k8s.io/v1 PriorityClass; karpenter.sh/v1
// NodePool and NodeClaim; karpenter.sh/v1alpha1 NodeOverlay;
// autoscaling.x-k8s.io/v1beta1 CapacityBuffer; karpenter.k8s.aws/v1
// EC2NodeClass. Another
// version of one of these kinds (apps/v1beta2 Deployment, karpenter.sh/v2
// NodePool, the removed karpenter.sh/v1alpha5 Provisioner…) is an error
// wrapping [ErrUnsupportedVersion] that lists the versions read.
//
// karpenter.sh/v1beta1 NodePools and NodeClaims and karpenter.k8s.aws/v1beta1
// EC2NodeClasses are converted to v1 by the rules of Karpenter v1.0's
// conversion webhooks, after the v1beta1 defaults: consolidationPolicy
// WhenUnderutilized becomes WhenEmptyOrUnderutilized with consolidateAfter
// 0s; spec.disruption.expireAfter (default 720h) moves to
// spec.template.spec.expireAfter; nodeClassRef {apiVersion, kind, name}
// becomes {group, kind, name}; an EC2NodeClass amiFamily without
// amiSelectorTerms becomes the alias family@latest, and Ubuntu becomes
// AL2 with Ubuntu's root volume. A NodePool's kubelet settings stay with
// the pool and take the place of its EC2NodeClass's spec.kubelet, as
// v1.0's conversion kept them (in an annotation) for the AWS provider.
// An EC2NodeClass left without amiSelectorTerms, which Karpenter v1
// launches nothing from, is an error wrapping [ErrNotConvertible] naming
// the field. One warning line counts the objects converted.
//
// # Writing
//
// [NodeClaims] annotates each claim with the offering the plan chose:
// [AnnotationInstanceType], [AnnotationZone], [AnnotationCapacityType], and
// its hourly price in two annotations, the amount as
// instancetypes.Price.Amount writes it ([AnnotationPrice],
// nodeplan.io/price-per-hour: "0.096000") and the ISO 4217 code of its
// catalog's currency ([AnnotationCurrency], nodeplan.io/price-currency:
// "USD", "CNY" in cn-north-1), so the amount stays a plain number for
// tools that read it and is never taken for dollars.
//
// What nodeplan writes, nodeplan and Kubernetes read back to the same
// value: [Quantities] (NodeClaim requests, the report's requests and
// allocatable) are read by resources.ParseQuantity and apimachinery's
// resource.ParseQuantity alike, and [Requirements] writes bounds as Gt, Lt,
// Gte or Lte with a non-negative integer, which requirements.Parse and
// Karpenter's CRD and requirement operators accept and read as the same
// set. The round-trip tests and fuzz targets in roundtrip_test.go check it.
//
// # The JSON report (nodeplan provision -o json)
//
// The schema is stable: fields may be added, none removed or renamed
// while apiVersion is nodeplan.io/v1. [NewReport] builds it from the same
// planview.View the table is printed from. Its numbers are the amounts
// the table prints: hourly prices to six decimals and monthly ones to
// two, rounded half up on the exact price (instancetypes.Price.Decimal and
// MonthlyDecimal), so the JSON and the table never disagree.
//
//	apiVersion: "nodeplan.io/v1"          kind: "ProvisioningReport"
//	nodes[]:          new NodeClaims in plan order, then existing nodes with pods
//	  name, existing (bool), nodePool, instanceType, zone, capacityType,
//	  pricePerHour (in summary.currency, 6 decimals; null for an existing
//	  node whose price is unknown: its catalog has no offering of its
//	  instance type, zone and capacity type), arch (kubernetes.io/arch,
//	  absent when unknown), instanceTypes[] (candidates, cheapest first; new
//	  nodes only), requests{} and allocatable{} (resource name → Kubernetes
//	  quantity; requests include pod slots and, on new nodes, daemonset
//	  overhead), pods[] ("namespace/name")
//	unschedulable[]:  pod ("namespace/name"), reason (packing.ReasonKind:
//	  NoNodePool, Untolerated, Incompatible, NoInstanceType, Insufficient,
//	  LimitExceeded, Topology, HostPortConflict, MinValues, Unavailable,
//	  AttachLimit, InvalidVolume),
//	  nodePool, message
//	unschedulableGroups[]: the same pods grouped as the table prints them,
//	  largest group first: namespace, owner ("Kind/name"; absent for a pod
//	  without one, which is a group alone), reason, nodePool, message (the
//	  pod it names written "namespace/<owner name>-*" when the group has
//	  several), count, pods[]
//	summary:          newNodes, existingNodes, scheduledPods, unschedulablePods,
//	  pricePerHour and pricePerMonth (new nodes; 730 h), existingPricePerHour
//	  (existing nodes of known price), existingUnknownPrice (how many
//	  existing nodes are of unknown price, left out of existingPricePerHour),
//	  currency (ISO 4217 code of every price in the report, such as "USD")
//	notes[]:          where the prices came from and how spot is modelled
//	warnings[]:       objects skipped, by kind and reason with their count,
//	  naming the first few with file and document;
//	  nodes of unknown price ([PriceWarnings])
//	headroom[]:       one per CapacityBuffer, absent without any ([Headroom]):
//	  namespace, name, ready, reason, error, replicas, onExistingNodes,
//	  onNewNodeClaims, failed, nodes[], nodeClaims[], provisioning and
//	  message (the Provisioning condition Karpenter would write); the
//	  buffers' virtual pods are in no other field, but their requests are
//	  in the requests{} of the new nodes that hold them
//	preferences:      only under --preferences within=F ([Preferences]):
//	  policy ("Budget"), budget (F), terms[]: the pending pods' preferred
//	  terms grouped per owner and term: namespace, owner, kind
//	  (PreferredNodeAffinity, PreferredPodAffinity, PreferredPodAntiAffinity,
//	  ScheduleAnywaySpread), weight, term, pods, honoured, measured,
//	  costPerHour (what honouring it adds, the other terms as decided)
//
// Added since the first release of the schema: nodes[].arch,
// unschedulableGroups, summary.currency, notes, summary.existingUnknownPrice
// and null nodes[].pricePerHour, headroom, preferences, and the reasons
// AttachLimit and InvalidVolume. summary.pricePerMonth has two decimals, as
// the table's (it had six, of an unrounded product).
//
// # Try it on your cluster
//
//	nodeplan provision                            # the cluster of the kubeconfig, read live (package kube/live)
//	nodeplan diff --context prod                  # what would change, per NodePool
//	nodeplan shadow                               # beside the Karpenter that runs (package kube/shadow)
//
// Or from files, the same objects as kubectl prints them:
//
//	kubectl get nodepools,ec2nodeclasses,nodeclaims,nodeoverlays,nodes,pods,deployments,replicasets,statefulsets,jobs,daemonsets,pdb,priorityclasses,pvc,pv,storageclasses,csinodes,limitranges,podtemplates,capacitybuffers -A -o yaml > cluster.yaml
//	nodeplan provision -f cluster.yaml
//	nodeplan provision -R -f manifests/ -o wide   # a directory of manifests, recursively
//
// Every kind in that command changes an answer (the README says how;
// limitranges give the pods expanded from workloads their default requests). Add
// a Deployment manifest with -f to ask what scaling it would launch.
//
// # Cost model
//
// Conversion is linear in the size of each object and allocates its
// result; Load and FromObjects are linear in the input. Until it returns,
// Load keeps, besides its results, the JSON of every object of a kind it
// reads (for messages naming where an object is) and the objects decoded
// from it, which it builds from once all are decoded; objects of other
// kinds are counted and dropped. Pods are the exception: each is
// converted as soon as it is decoded, and only the conversion and the few
// fields read across objects (owner, phase, readiness, node, volumes,
// PriorityClass) are kept, not the decoded pod; each goroutine decodes
// its pods into one pod of its own. Each object's decode is one pass over
// its bytes, guided by a plan of each Go type built once per process,
// that checks and stores the values and shares repeated strings; its head
// is read in an earlier, shorter pass. With a few hundred pods or more,
// Load decodes them on up to GOMAXPROCS goroutines, and a large YAML list
// as kubectl prints it is converted to JSON in runs of items the same
// way, each run, when it is in kubectl's plain block style, by a
// converter of that style alone that gives go-yaml's result many times
// faster; each run's JSON is cut into its items where it was converted,
// so the list is never joined into one JSON document. FromObjects
// converts more than 64 pods on several goroutines too. Nothing here is on the solver's hot path.
// Functions are safe for concurrent use and never modify their arguments.
//
// See ExampleEffectiveRequests, ExampleFromObjects and ExampleLoad.
package kube
