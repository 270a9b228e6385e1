package packing

import (
	"strings"
	"time"

	"github.com/nodeplan/nodeplan/instancetypes"
	"github.com/nodeplan/nodeplan/requirements"
	"github.com/nodeplan/nodeplan/resources"
)

// Pod is a pod to place, or one already bound to a [Node]. Its Requests are
// the effective requests (see [EffectiveRequests]); the solver adds the one
// pod slot each pod takes. The zero Pod requests nothing and has no
// constraints.
type Pod struct {
	Namespace, Name, UID string
	Labels               map[string]string
	Requests             resources.List
	// NodeAffinity holds the nodeSelector, the required node-affinity terms
	// (ORed) and the weighted preferred terms.
	NodeAffinity   requirements.NodeAffinity
	Tolerations    []requirements.Toleration
	TopologySpread []TopologySpread
	// Affinity and AntiAffinity are pod (anti-)affinity terms; a term with
	// Weight 0 is required, one with Weight 1..100 preferred.
	Affinity     []PodAffinityTerm
	AntiAffinity []PodAffinityTerm
	HostPorts    []HostPort
	CreationTime time.Time
	// Owner is the controlling owner as "Kind/name", e.g.
	// "ReplicaSet/web-5d8f"; "" for none. The owner is in the pod's
	// Namespace (or cluster-scoped). A daemonset's pod has
	// "DaemonSet/<name>" (see [Pod.IsDaemon] and [DaemonSet.Owns]), a
	// mirror (static) pod "Node/<node name>" (see [Pod.IsMirror]).
	Owner string
	// DoNotDisrupt is the karpenter.sh/do-not-disrupt annotation: "" (none),
	// "true", or a duration such as "1h" counted from CreationTime. Used by
	// consolidation and drift, not by Solve.
	DoNotDisrupt string
	// Buffer, when not empty, names the CapacityBuffer (in the pod's
	// Namespace) whose headroom this virtual pod holds (see package
	// buffer). Solve places a buffer pod as any pending pod but reports it
	// only in [Plan.Headroom], never as a binding, on a claim's Pods, in
	// Order or as unschedulable; a bound pod may not be one. The zero
	// value, "", is a real pod.
	Buffer string
	// Volumes are the PersistentVolumeClaims the pod mounts and their node
	// requirements (see [Volumes]); nil: the pod mounts no
	// PersistentVolumeClaim. Nothing in nodeplan modifies them through
	// the pointer, so pods may share one.
	Volumes  *Volumes
	Priority int32
	// DeletionCost is controller.kubernetes.io/pod-deletion-cost; used by
	// consolidation.
	DeletionCost int32
	// Terminating says the pod is being deleted (its
	// metadata.deletionTimestamp is set). A bound terminating pod still
	// takes its node's room, as kube-scheduler counts it until it is gone;
	// topology spread and pod (anti-)affinity do not count it, as neither
	// Karpenter nor kube-scheduler does, though its own required
	// anti-affinity still keeps matching pods away; and it does not move
	// when its node is disrupted (see [Pod.Reschedulable]). The zero value,
	// false, is a pod not being deleted.
	Terminating bool
	// Displaced marks a pod a consolidation simulation moves off a
	// candidate node: Solve does not put it on a Settling node.
	Displaced bool
}

// Key returns "namespace/name", the name by which the pod is known in
// messages and views (see [ObjectKey]). O(len).
func (p *Pod) Key() string { return ObjectKey(p.Namespace, p.Name) }

// ObjectKey returns "namespace/name", the one spelling by which nodeplan
// names a namespaced object (a pod, a daemonset, a budget) in messages,
// views and maps. O(len).
func ObjectKey(namespace, name string) string { return namespace + "/" + name }

// Owner prefixes of the kinds whose pods stay with their node.
const (
	daemonOwner      = "DaemonSet/"
	mirrorOwner      = "Node/"
	statefulSetOwner = "StatefulSet/"
)

// IsDaemon reports whether the pod belongs to a daemonset: its Owner is
// "DaemonSet/<name>". Which [DaemonSet] it is says [DaemonSet.Owns].
func (p *Pod) IsDaemon() bool { return strings.HasPrefix(p.Owner, daemonOwner) }

// IsMirror reports whether the pod is a mirror pod, the API server's copy
// of a static pod the kubelet runs from a file: its Owner is
// "Node/<name>". Nothing can evict or move it; it goes with its node.
func (p *Pod) IsMirror() bool { return strings.HasPrefix(p.Owner, mirrorOwner) }

// Reschedulable reports whether the pod must find a new home when its node
// is disrupted, Karpenter's IsReschedulable rule: it is not a daemonset pod
// ([Pod.IsDaemon]), not a mirror pod ([Pod.IsMirror]), and not
// [Pod.Terminating] — except that a terminating StatefulSet pod is, as its
// replacement (same name) is created only once it is gone. A pod that is
// not reschedulable stays on its node until the node goes: it does not
// make the node non-empty for consolidation and drift and is never moved.
// Terminal pods (Succeeded, Failed) are not in the model at all.
// Reschedulable is O(len(Owner)) and allocates nothing.
func (p *Pod) Reschedulable() bool {
	active := !p.Terminating || strings.HasPrefix(p.Owner, statefulSetOwner)
	return active && !p.IsDaemon() && !p.IsMirror()
}

// WhenUnsatisfiable says what a topology spread constraint does when it
// cannot be met. The zero value is DoNotSchedule.
type WhenUnsatisfiable uint8

const (
	// DoNotSchedule makes the constraint a filter.
	DoNotSchedule WhenUnsatisfiable = iota
	// ScheduleAnyway makes it a preference, relaxed when it cannot be met.
	ScheduleAnyway
)

// String returns the Kubernetes spelling.
func (w WhenUnsatisfiable) String() string {
	if w == ScheduleAnyway {
		return "ScheduleAnyway"
	}
	return "DoNotSchedule"
}

// InclusionPolicy is a topology spread constraint's nodeAffinityPolicy or
// nodeTaintsPolicy. The zero value is the Kubernetes default for each field:
// Honor for nodeAffinityPolicy, Ignore for nodeTaintsPolicy.
type InclusionPolicy uint8

const (
	// PolicyDefault takes the Kubernetes default of the field.
	PolicyDefault InclusionPolicy = iota
	// Honor counts only domains the pod could be placed in.
	Honor
	// Ignore counts every domain.
	Ignore
)

// String returns "Honor", "Ignore" or "" for the default.
func (p InclusionPolicy) String() string {
	return [...]string{"", "Honor", "Ignore"}[min(int(p), 2)]
}

// TopologySpread is a topology spread constraint. Selector chooses the pods
// counted, in the pod's namespace; the zero Selector counts every pod there.
type TopologySpread struct {
	TopologyKey        string
	MaxSkew            int32
	WhenUnsatisfiable  WhenUnsatisfiable
	Selector           requirements.Set
	MinDomains         int32
	NodeAffinityPolicy InclusionPolicy
	NodeTaintsPolicy   InclusionPolicy
	// MatchLabelKeys are pod label keys whose values are added to Selector.
	MatchLabelKeys []string
}

// PodAffinityTerm is a pod affinity or anti-affinity term: the pods Selector
// matches in Namespaces (empty: the pod's own; AllNamespaces: every one),
// grouped by TopologyKey. Weight 0 makes it required.
type PodAffinityTerm struct {
	TopologyKey   string
	Selector      requirements.Set
	Namespaces    []string
	AllNamespaces bool
	Weight        int32
}

// HostPort is a host port a pod binds. The zero Protocol is TCP; an empty IP
// means every address.
type HostPort struct {
	Port     int32
	Protocol string
	IP       string
}

// Node is an existing node, or one in flight (launched, not yet
// registered), with the pods bound to it. Allocatable is the node's whole
// allocatable; the pods' requests are subtracted by the solver.
type Node struct {
	Name         string
	NodePool     string // "" for a node no NodePool manages
	InstanceType string
	Zone         string
	CapacityType instancetypes.CapacityType
	Labels       map[string]string
	Taints       []requirements.Taint
	Allocatable  resources.List
	Pods         []Pod
	// Initialized is false for a node in flight.
	Initialized bool
	// MarkedForDeletion marks a node being deleted: Solve places no pod on
	// it, while its pods still count for topology and its capacity for its
	// pool's limits. Solve does not plan its pods again: a host that wants
	// Karpenter's provisioning moves the node's reschedulable pods
	// ([Pod.Reschedulable]) to [Problem.Pods] and leaves the node with the rest,
	// as package kube's Cluster.Problem does; package consolidation's
	// simulations do it themselves.
	MarkedForDeletion bool
	// NotReady says the node's Ready condition is not True: Karpenter
	// charges such an initialized node to its NodePool's disruption
	// budgets as a node being disrupted. The zero value, false, is a Ready
	// node. Solve does not read it.
	NotReady bool
	// Settling marks a node inside its NodePool's consolidateAfter window:
	// it takes pending pods but no Displaced ones, as Karpenter's
	// consolidation simulations rule.
	Settling bool
	// Price is the node's hourly price in its catalog's currency.
	Price instancetypes.Price
	// PriceUnknown says the node's price is not known (its catalog has no
	// offering of its instance type, zone and capacity type); Price is
	// then 0 (Validate rejects another), and consolidation deletes the node only
	// when it is empty, as Karpenter consolidates no node whose instance
	// type it cannot find. The zero value, false, says Price is known.
	// Solve does not read node prices.
	PriceUnknown bool
	CreationTime time.Time
	// Annotations carry what disruption reads: karpenter.sh/do-not-disrupt,
	// karpenter.sh/nodepool-hash and its version, and provider ones.
	Annotations map[string]string
	// VolumeLimits are the node's CSI attach limits, volumes per driver
	// name (its CSINode's allocatable counts): a pending pod joins the
	// node only while the distinct claims of its pods stay within every
	// limit (see [Volume]). nil, or a driver absent, is no limit.
	VolumeLimits map[string]int32
}

// NodePool is a template for new nodes, as Karpenter's v1 NodePool.
type NodePool struct {
	Name string
	// Weight orders NodePools: higher first, ties by name. It is in
	// 0..MaxWeight; 0 is an unset spec.weight.
	Weight int32
	// Requirements constrain the instance types and offerings; a
	// requirement's MinValues asks for flexibility.
	Requirements  requirements.Set
	Labels        map[string]string
	Taints        []requirements.Taint
	StartupTaints []requirements.Taint
	// Limits caps the summed capacity of the pool's nodes per resource; the
	// name "nodes" caps their count. An absent name is unlimited.
	Limits map[resources.Name]int64
	// Catalog, when set, replaces the Problem's catalog for this pool (a
	// NodeClass restricting instance types, say).
	Catalog    *instancetypes.Catalog
	Disruption Disruption
	// Unavailable, when not empty, says why the pool launches no node, as
	// Karpenter provisions from no NodePool that is not Ready (its
	// NodeClass not Ready, say) or that is static: Solve opens no claim in
	// it and counts no topology domain of it, and a pod that the pool would
	// take otherwise, and no other pool takes, is unschedulable with kind
	// [Unavailable] and this text in its reason. Its existing nodes stay
	// as they are. The zero value, "", is a pool Solve launches from.
	Unavailable string
}

// LimitNodes is the [NodePool.Limits] name that caps the node count.
const LimitNodes resources.Name = "nodes"

// DaemonSet is the pod template of a daemonset: its pod runs on every node
// it tolerates and whose labels satisfy its node affinity. Namespace and
// Name are the daemonset's own; which bound pods are its pods says
// [DaemonSet.Owns]. The zero Namespace is a namespace like any other: it
// owns the pods whose Namespace is "" too.
type DaemonSet struct {
	Namespace, Name string
	Requests        resources.List
	Tolerations     []requirements.Toleration
	NodeAffinity    requirements.NodeAffinity
}

// Key returns "namespace/name", or Name alone when Namespace is "", the
// name by which the daemonset is known in messages. O(len).
func (ds *DaemonSet) Key() string {
	if ds.Namespace == "" {
		return ds.Name
	}
	return ObjectKey(ds.Namespace, ds.Name)
}

// Owns reports whether bound pod p is a pod of ds: p is in ds's Namespace
// and its Owner is "DaemonSet/<ds.Name>". This is the one rule by which
// Solve finds the daemonsets already running on an existing node (their
// requests are in the node's pods, so no room is kept for them again);
// two daemonsets of one name in different namespaces own different pods.
// Owns is O(len(Name)) and allocates nothing.
func (ds *DaemonSet) Owns(p *Pod) bool {
	return p.Namespace == ds.Namespace && p.IsDaemon() && p.Owner[len(daemonOwner):] == ds.Name
}

// Problem is the input of [Solve]. The zero Problem is invalid: it needs a
// Catalog (or every NodePool its own).
type Problem struct {
	Pods       []Pod // pending pods
	NodePools  []NodePool
	Catalog    *instancetypes.Catalog
	Nodes      []Node // existing and in-flight nodes with their pods
	DaemonSets []DaemonSet
}
