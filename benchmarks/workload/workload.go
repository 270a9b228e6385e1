package workload

import (
	"fmt"
	"hash/fnv"
)

// Workload is one benchmark input: a catalog of instance types, the NodePools
// that may launch them and the pending pods to place. Catalog, when not
// empty, names an embedded catalog (only [CatalogAWS] so far) that runners
// use instead of InstanceTypes, which is then empty. The zero Workload has no
// instance types, no NodePools and no pods. DaemonSets are the pod
// templates of the cluster's daemonsets: each runs on every new node whose
// labels satisfy its NodeSelector, so its requests are overhead there.
type Workload struct {
	Name          string
	Catalog       string
	InstanceTypes []InstanceType
	NodePools     []NodePool
	Pods          []Pod
	DaemonSets    []Pod
}

// InstanceType is a machine shape. Quantities are integers: CPU in
// millicores, memory in bytes, Pods as a count. Allocatable capacity is
// capacity minus the overhead; GPU is the nvidia.com/gpu devices, 0 for
// none. Labels holds the labels beyond the well-known
// ones (instance type, arch, os, zone, capacity type), for example `integer`,
// `size` and `special`. The zero InstanceType has no capacity and no
// offerings.
type InstanceType struct {
	Name                string
	CPUMilli            int64
	MemoryBytes         int64
	Pods                int64
	GPU                 int64
	OverheadCPUMilli    int64
	OverheadMemoryBytes int64
	Labels              map[string]string
	Offerings           []Offering
	Arch                string
	OS                  []string
}

// Offering is one way to buy an instance type: a zone and a capacity type
// ("spot" or "on-demand") at a price in dollars per hour. The zero Offering
// is unavailable.
type Offering struct {
	Zone         string
	CapacityType string
	PricePerHour float64
	Available    bool
}

// NodePool is a template for new nodes: requirements on node labels, taints,
// a weight (higher is tried first) and limits on the total CPU (millicores)
// and memory (bytes) it may launch. A zero limit means no limit. The zero
// NodePool has no requirements, no taints and no limits.
type NodePool struct {
	Name              string
	Weight            int32
	Requirements      []Requirement
	Taints            []Taint
	LimitsCPUMilli    int64
	LimitsMemoryBytes int64
}

// Requirement is a constraint on one node label, in Kubernetes terms: Operator
// is one of In, NotIn, Exists, DoesNotExist, Gt, Lt. MinValues, on a
// NodePool's requirement, asks for at least that many distinct values among
// a new node's instance type options (Karpenter's minValues); 0 asks for
// none. The zero Requirement has no key and is not valid.
type Requirement struct {
	Key       string
	Operator  string
	Values    []string
	MinValues int
}

// Taint is a node taint; Effect is NoSchedule, PreferNoSchedule or
// NoExecute. The zero Taint is not valid.
type Taint struct {
	Key    string
	Value  string
	Effect string
}

// Pod is a pending pod: its requests (CPU in millicores, memory in bytes,
// GPU in whole nvidia.com/gpu devices), its node selector and its scheduling
// constraints. The zero Pod requests nothing and has no constraints.
type Pod struct {
	Namespace             string
	Name                  string
	Labels                map[string]string
	CPUMilli              int64
	MemoryBytes           int64
	GPU                   int64
	NodeSelector          map[string]string
	TopologySpread        []Spread
	PodAffinity           []AffinityTerm
	PodAntiAffinity       []AffinityTerm
	PreferredNodeAffinity []PreferredTerm
}

// Spread is a topology spread constraint over the pods matching Selector
// (match labels, same namespace). DoNotSchedule false means ScheduleAnyway.
// The zero Spread has no key and is not valid.
type Spread struct {
	Key           string
	MaxSkew       int32
	DoNotSchedule bool
	Selector      map[string]string
}

// AffinityTerm is a pod (anti-)affinity term towards the pods matching
// Selector (match labels, same namespace) within TopologyKey. Weight 0 makes
// the term required; a positive weight (1 to 100) makes it preferred.
type AffinityTerm struct {
	TopologyKey string
	Selector    map[string]string
	Weight      int32
}

// PreferredTerm is a preferred node affinity term: a conjunction of
// requirements worth Weight (1 to 100) when a node satisfies all of them.
type PreferredTerm struct {
	Weight       int32
	Requirements []Requirement
}

// UID is the pod's UID in every conversion of a workload: a hash of
// namespace/name followed by the name, so UIDs are stable across runs but
// not in name order (Karpenter's own benchmark uses random UIDs). Both
// schedulers break ties of equal requests and creation time by UID, so the
// two sides of a comparison must agree on it.
func (p Pod) UID() string {
	h := fnv.New64a()
	h.Write([]byte(p.Namespace + "/" + p.Name))
	return fmt.Sprintf("%016x-%s", h.Sum64(), p.Name)
}
