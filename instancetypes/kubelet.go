package instancetypes

import (
	"cmp"
	"errors"
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"

	"github.com/nodeplan/nodeplan/internal/enum"
	"github.com/nodeplan/nodeplan/resources"
)

// Kubelet is the kubelet configuration of a NodeClass (the AWS provider's
// EC2NodeClass spec.kubelet) as far as it changes what a node of each type
// holds, and the AMI family, which decides how ([Catalog.WithKubelet]).
// The zero Kubelet changes nothing. Maps name resources by
// [resources.Name]; values are in the units of [resources.List].
//
// [Catalog.WithKubelet] accepts exactly what the provider's EC2NodeClass
// CRD (v1.14.1) accepts, and rejects the rest with a [*FieldError] naming
// the field ("Kubelet.KubeReserved[nvidia.com/gpu]") and wrapping
// [ErrInvalidOptions]: see each field.
type Kubelet struct {
	// MaxPods, when HasMaxPods, is the pod capacity of every type
	// (kubelet maxPods), instead of its ENI-limited count: 0..2^31−1 (the
	// CRD's int32, minimum 0). It must be 0 without HasMaxPods.
	MaxPods    int64
	HasMaxPods bool
	// PodsPerCore, when positive, caps the pod capacity at PodsPerCore ×
	// vCPUs (kubelet podsPerCore), for the families that honour it:
	// 0..2^31−1.
	PodsPerCore int64
	// KubeReserved replaces the model's kube-reserved cpu, memory or
	// ephemeral-storage for each it names; SystemReserved is added. The
	// keys are cpu, memory, ephemeral-storage and pid (which no pod
	// requests: checked, then ignored), the values 0..resources.MaxAmount.
	KubeReserved, SystemReserved map[resources.Name]int64
	// MemoryAvailable and NodeFSAvailable are the hard eviction
	// thresholds memory.available and nodefs.available (kubelet
	// evictionHard), instead of the model's 100Mi and 10%.
	MemoryAvailable, NodeFSAvailable Threshold
	// Family is the AMI family of the nodes.
	Family AMIFamily
}

// Threshold is a hard eviction threshold: Quantity, or Percent of the
// node's capacity when IsPercent (100% disables it, as in the kubelet).
// The zero Threshold is unset. As the CRD's pattern and the kubelet
// require, Percent is 0..100 with at most two decimals and Quantity is
// 0..resources.MaxAmount (bytes); the field not chosen by IsPercent, and
// both when Set is false, must be 0.
type Threshold struct {
	Quantity  int64
	Percent   float64
	IsPercent bool
	Set       bool
}

// AMIFamily is what the AWS provider's AMI family decides about a node's
// pods and overhead (its feature flags). The zero value is DefaultFamily.
type AMIFamily uint8

const (
	// DefaultFamily is AL2, AL2023 and Custom: ENI-limited pods,
	// kube-reserved memory sized for the ENI-limited count, podsPerCore
	// honoured.
	DefaultFamily AMIFamily = iota
	// Bottlerocket sizes kube-reserved memory for the pod capacity and
	// ignores podsPerCore.
	Bottlerocket
	// Windows has 110 pods unless maxPods says otherwise and sizes
	// kube-reserved memory for the pod capacity.
	Windows
)

var familyNames = [...]string{"Default", "Bottlerocket", "Windows"}

// String returns the family's name.
func (f AMIFamily) String() string { return enum.String(f, "AMIFamily", familyNames[:]) }

func (f AMIFamily) valid() bool { return int(f) < len(familyNames) }

// flags are the AWS provider's AMI family feature flags.
func (f AMIFamily) flags() (eniDensity, eniMemory, podsPerCore bool) {
	switch f {
	case Bottlerocket:
		return true, false, false
	case Windows:
		return false, false, true
	}
	return true, true, true
}

// isZero reports whether k changes nothing.
func (k *Kubelet) isZero() bool {
	return !k.HasMaxPods && k.PodsPerCore == 0 && len(k.KubeReserved) == 0 && len(k.SystemReserved) == 0 &&
		!k.MemoryAvailable.Set && !k.NodeFSAvailable.Set && k.Family == DefaultFamily
}

// maxKubeletCount is the largest maxPods and podsPerCore: the CRD's
// fields are int32.
const maxKubeletCount = math.MaxInt32

// reservedKeys are the keys of kubeReserved and systemReserved that the
// CRD accepts; pidKey is the one that changes no type.
var reservedKeys = []resources.Name{resources.CPU, resources.Memory, resources.EphemeralStorage, pidKey}

const pidKey = resources.Name("pid")

// validate checks k as the provider's EC2NodeClass CRD checks
// spec.kubelet, and that no field is set without its flag. Every error is
// a *FieldError naming the field of k, wrapping ErrInvalidOptions.
func (k *Kubelet) validate() error {
	var errs []error
	bad := func(field, format string, args ...any) {
		errs = append(errs, fieldErr("", "Kubelet."+field, ErrInvalidOptions, format, args...))
	}
	switch {
	case k.MaxPods < 0 || k.MaxPods > maxKubeletCount:
		bad("MaxPods", "%d not in 0..%d", k.MaxPods, maxKubeletCount)
	case k.MaxPods != 0 && !k.HasMaxPods:
		bad("MaxPods", "%d without HasMaxPods", k.MaxPods)
	}
	if k.PodsPerCore < 0 || k.PodsPerCore > maxKubeletCount {
		bad("PodsPerCore", "%d not in 0..%d", k.PodsPerCore, maxKubeletCount)
	}
	for _, r := range []struct {
		field string
		m     map[resources.Name]int64
	}{{"KubeReserved", k.KubeReserved}, {"SystemReserved", k.SystemReserved}} {
		for _, n := range slices.Sorted(maps.Keys(r.m)) {
			field := fmt.Sprintf("%s[%s]", r.field, n)
			switch v := r.m[n]; {
			case !slices.Contains(reservedKeys, n):
				bad(field, "not one of %s", joinNames(reservedKeys))
			case v < 0 || v > resources.MaxAmount:
				bad(field, "%d not in 0..%d", v, int64(resources.MaxAmount))
			}
		}
	}
	for _, t := range []struct {
		field string
		t     Threshold
	}{{"MemoryAvailable", k.MemoryAvailable}, {"NodeFSAvailable", k.NodeFSAvailable}} {
		if sub, msg := t.t.check(); msg != "" {
			bad(t.field+sub, "%s", msg)
		}
	}
	if !k.Family.valid() {
		bad("Family", "%s is not one of %s", k.Family, strings.Join(familyNames[:], ", "))
	}
	return errors.Join(errs...)
}

// check returns the field of t that is wrong ("" for t itself) and what
// is wrong with it; msg is "" when nothing is.
func (t Threshold) check() (field, msg string) {
	switch {
	case !t.Set && t != Threshold{}:
		return "", "Quantity, Percent or IsPercent given, but not Set"
	case t.IsPercent && t.Quantity != 0:
		return ".Quantity", fmt.Sprintf("%d given with IsPercent", t.Quantity)
	case t.IsPercent && !(t.Percent >= 0 && t.Percent <= 100):
		return ".Percent", fmt.Sprintf("%v not in 0..100", t.Percent)
	case t.IsPercent && math.Round(t.Percent*100)/100 != t.Percent:
		return ".Percent", fmt.Sprintf("%v has more than two decimals (the CRD's pattern)", t.Percent)
	case !t.IsPercent && t.Percent != 0:
		return ".Percent", fmt.Sprintf("%v given without IsPercent", t.Percent)
	case t.Quantity < 0 || t.Quantity > resources.MaxAmount:
		return ".Quantity", fmt.Sprintf("%d not in 0..%d", t.Quantity, int64(resources.MaxAmount))
	}
	return "", ""
}

// joinNames joins names with ", ".
func joinNames(names []resources.Name) string {
	s := make([]string, len(names))
	for i, n := range names {
		s[i] = string(n)
	}
	return strings.Join(s, ", ")
}

// ErrNoModel is wrapped (with [ErrInvalid]) by the error of
// [Catalog.WithKubelet] on a type that [New] built from given capacity
// and overhead, which no kubelet setting can be applied to.
var ErrNoModel = errors.New("no overhead model")

// WithKubelet returns the catalog its types would be under k, as the AWS
// provider computes them (pkg/providers/instancetype/types.go: pods,
// kubeReservedResources, systemReservedResources, evictionThreshold):
//
//   - pods: k.MaxPods, else the ENI-limited count (110 for Windows), at
//     most PodsPerCore × vCPUs when set and the family honours it;
//   - kube-reserved: cpu by the EKS tiers, memory 11 MiB × pods + 255 MiB
//     (pods: the ENI-limited count for DefaultFamily, else the capacity),
//     ephemeral-storage 1Gi; each replaced by k.KubeReserved;
//   - system-reserved: k.SystemReserved;
//   - eviction: memory.available 100Mi and nodefs.available 10% of the
//     root volume, each replaced by its threshold of k.
//
// A catalog file's capacity and overhead overrides still apply, last. A
// type that then holds no pod (0 pods, or an overhead above its capacity)
// is left out, as no pod fits it. Offerings, labels and the origin are
// kept. The zero k returns c itself. A k the CRD would reject (see
// [Kubelet]) is a *FieldError wrapping [ErrInvalidOptions], whatever the
// catalog. A type [New] built from given capacity and overhead is a
// *FieldError wrapping [ErrNoModel]. The receiver and k are unchanged;
// the complexity is that of [New].
func (c *Catalog) WithKubelet(k Kubelet) (*Catalog, error) {
	if err := k.validate(); err != nil {
		return nil, err
	}
	if k.isZero() {
		return c, nil
	}
	types := make([]InstanceType, 0, len(c.types))
	for _, t := range c.types {
		if t.src == nil {
			return nil, fieldErr(t.Name, "kubelet", ErrNoModel, "its capacity and overhead were given, not built by the EKS model")
		}
		capacity, overhead, err := t.src.resources(k)
		if err != nil {
			return nil, err
		}
		if capacity.Pods <= 0 || !overhead.Fits(capacity) {
			continue
		}
		cp := *t
		cp.Capacity, cp.Overhead = capacity, overhead
		types = append(types, cp)
	}
	out, err := New(types)
	if err != nil {
		return nil, err
	}
	out.origin = c.Origin()
	return out, nil
}

// source is how a catalog file's type got its capacity and overhead, kept
// so that [Catalog.WithKubelet] can build them again.
type source struct {
	spec        *spec
	defaultPods int64 // the provider's pod count when the type has none
	maxPods     int64 // Options.MaxPods
}

// resources returns the capacity and the overhead of the type under k:
// the EKS model, then the file's overrides (capacity first, overhead
// last, the overhead computed from the overridden capacity).
func (s *source) resources(k Kubelet) (resources.List, resources.List, error) {
	sp := s.spec
	eniDensity, eniMemory, perCore := k.Family.flags()
	eniPods := cmp.Or(s.defaultPods, DefaultPods)
	if sp.MaxPods != nil {
		eniPods = *sp.MaxPods
	}
	capacity := resources.New(sp.devices()...)
	capacity.CPU = *sp.VCPU * 1000
	capacity.Memory = vmMemory(*sp.MemoryMiB, sp.Arch == "arm64")
	capacity.EphemeralStorage = DefaultEphemeralStorage
	capacity.Pods = podCount(k, cmp.Or(s.maxPods, eniPods), eniDensity, perCore && k.PodsPerCore > 0, *sp.VCPU)
	capacity, err := override(sp.Name, "capacity", capacity, sp.Capacity)
	if err != nil {
		return capacity, capacity, err
	}
	if sp.Capacity["pods"] != "" {
		eniPods = capacity.Pods
	}
	if eniPods > 1<<20 || capacity.CPU > 1<<30 {
		return capacity, capacity, fieldErr(sp.Name, "capacity", ErrInvalidSpec, "pods above 2^20 or cpu above 2^20 cores")
	}
	reservedPods := capacity.Pods
	if eniMemory {
		reservedPods = eniPods
	}
	overhead := kubeletOverhead(k, capacity, reservedPods)
	overhead, err = override(sp.Name, "overhead", overhead, sp.Overhead)
	return capacity, overhead, err
}

// podCount is the pod capacity: kubelet maxPods, else the ENI-limited
// count (def) or 110 for a family without ENI-limited density, capped at
// podsPerCore × vcpus when capped.
func podCount(k Kubelet, def int64, eniDensity, capped bool, vcpus int64) int64 {
	n := def
	switch {
	case k.HasMaxPods:
		n = k.MaxPods
	case !eniDensity:
		n = DefaultPods
	}
	if capped {
		n = min(n, k.PodsPerCore*vcpus)
	}
	return n
}

// kubeletOverhead is kube-reserved (sized for reservedPods) plus
// system-reserved plus the eviction thresholds of a node of capacity
// under k.
func kubeletOverhead(k Kubelet, capacity resources.List, reservedPods int64) resources.List {
	kube := resources.List{CPU: kubeReservedCPU(capacity.CPU), Memory: kubeReservedMemory(reservedPods), EphemeralStorage: kubeReservedStorage}
	for n, v := range k.KubeReserved {
		if n != pidKey {
			kube = kube.With(n, v)
		}
	}
	eviction := resources.List{
		Memory:           k.MemoryAvailable.of(capacity.Memory, evictionMemory),
		EphemeralStorage: k.NodeFSAvailable.of(capacity.EphemeralStorage, evictionStorage(capacity.EphemeralStorage)),
	}
	total := kube.Add(eviction)
	for n, v := range k.SystemReserved {
		if n != pidKey {
			total = total.With(n, total.Get(n)+v)
		}
	}
	return total
}

// of is the threshold for a capacity, def when it is unset: a percentage
// rounded up in float64 as Karpenter computes it, 100% being none.
func (t Threshold) of(capacity, def int64) int64 {
	switch {
	case !t.Set:
		return def
	case !t.IsPercent:
		return t.Quantity
	case t.Percent == 100:
		return 0
	}
	return int64(math.Ceil(float64(capacity) / 100 * t.Percent))
}
