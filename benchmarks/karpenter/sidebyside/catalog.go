package sidebyside

import (
	"errors"
	"fmt"
	"strconv"
	"sync"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	v1 "sigs.k8s.io/karpenter/pkg/apis/v1"
	"sigs.k8s.io/karpenter/pkg/cloudprovider"
	"sigs.k8s.io/karpenter/pkg/scheduling"

	"github.com/nodeplan/nodeplan/benchmarks"
	"github.com/nodeplan/nodeplan/benchmarks/workload"
	"github.com/nodeplan/nodeplan/instancetypes"
	"github.com/nodeplan/nodeplan/packing"
	"github.com/nodeplan/nodeplan/requirements"
	"github.com/nodeplan/nodeplan/resources"
)

// Errors of the conversions; branch on them with errors.Is.
var (
	// ErrUnknownCatalog is returned for a [workload.Workload.Catalog] that
	// names no embedded catalog.
	ErrUnknownCatalog = errors.New("sidebyside: unknown catalog")
	// ErrUnknownInstanceType is returned for a node group naming a type the
	// catalog lacks.
	ErrUnknownInstanceType = errors.New("sidebyside: unknown instance type")
)

// awsCatalog builds the embedded AWS catalog once per process; the catalog
// is immutable and safe for concurrent use, so every run shares it.
var awsCatalog = sync.OnceValues(func() (*instancetypes.Catalog, error) {
	return instancetypes.AWS(instancetypes.Options{})
})

// Catalog returns the nodeplan catalog w runs on: the embedded catalog
// w.Catalog names, or one built from w.InstanceTypes when it names none.
// The embedded catalog is built on first use and shared afterwards.
func Catalog(w workload.Workload) (*instancetypes.Catalog, error) {
	switch w.Catalog {
	case "":
		return benchmarks.Catalog(w.InstanceTypes)
	case workload.CatalogAWS:
		return awsCatalog()
	}
	return nil, fmt.Errorf("workload %q: catalog %q: %w", w.Name, w.Catalog, ErrUnknownCatalog)
}

// karpenterTypes returns Karpenter's view of w's instance types: the
// workload's own, or the named catalog's converted by [catalogTypes].
func karpenterTypes(w workload.Workload) ([]*cloudprovider.InstanceType, error) {
	if w.Catalog == "" {
		return instanceTypes(w.InstanceTypes), nil
	}
	c, err := Catalog(w)
	if err != nil {
		return nil, err
	}
	return catalogTypes(c), nil
}

// catalogTypes converts a nodeplan catalog into Karpenter instance types
// with the same requirements, capacity and offerings. The whole nodeplan
// overhead becomes Karpenter's kube-reserved, so allocatable (capacity minus
// the total overhead) is the same on both sides. The complexity is
// O(types × (requirements + offerings)).
func catalogTypes(c *instancetypes.Catalog) []*cloudprovider.InstanceType {
	types := c.Types()
	out := make([]*cloudprovider.InstanceType, 0, len(types))
	for _, t := range types {
		out = append(out, &cloudprovider.InstanceType{
			Name:         t.Name,
			Requirements: karpenterRequirements(t.Requirements),
			Offerings:    karpenterOfferings(t.Offerings),
			Capacity:     resourceList(t.Capacity),
			Overhead:     &cloudprovider.InstanceTypeOverhead{KubeReserved: resourceList(t.Overhead)},
		})
	}
	return out
}

func karpenterRequirements(s requirements.Set) scheduling.Requirements {
	out := scheduling.NewRequirements()
	for r := range s.All() {
		for _, kr := range karpenterRequirement(r) {
			out.Add(kr)
		}
	}
	return out
}

// karpenterRequirement translates one requirement; integer bounds become
// Karpenter's Gt and Lt (both when the requirement has both).
func karpenterRequirement(r requirements.Requirement) []*scheduling.Requirement {
	gte, hasGte, lte, hasLte := r.Bounds()
	var out []*scheduling.Requirement
	if hasGte {
		out = append(out, scheduling.NewRequirement(r.Key(), corev1.NodeSelectorOpGt, strconv.FormatInt(gte-1, 10)))
	}
	if hasLte {
		out = append(out, scheduling.NewRequirement(r.Key(), corev1.NodeSelectorOpLt, strconv.FormatInt(lte+1, 10)))
	}
	if len(out) > 0 {
		return out
	}
	switch r.Operator() {
	case requirements.Exists:
		return []*scheduling.Requirement{scheduling.NewRequirement(r.Key(), corev1.NodeSelectorOpExists)}
	case requirements.DoesNotExist:
		return []*scheduling.Requirement{scheduling.NewRequirement(r.Key(), corev1.NodeSelectorOpDoesNotExist)}
	}
	op := corev1.NodeSelectorOpIn
	if r.Complement() {
		op = corev1.NodeSelectorOpNotIn
	}
	return []*scheduling.Requirement{scheduling.NewRequirement(r.Key(), op, r.Values()...)}
}

func karpenterOfferings(ofs []instancetypes.Offering) cloudprovider.Offerings {
	out := make(cloudprovider.Offerings, 0, len(ofs))
	for _, o := range ofs {
		out = append(out, &cloudprovider.Offering{
			Requirements: scheduling.NewLabelRequirements(map[string]string{
				v1.CapacityTypeLabelKey:  o.CapacityType.String(),
				corev1.LabelTopologyZone: o.Zone,
			}),
			Price:     o.Price.Dollars(),
			Available: o.Usable(),
		})
	}
	return out
}

// resourceList converts a nodeplan resource list, extended resources
// included; absent dimensions stay absent.
func resourceList(l resources.List) corev1.ResourceList {
	out := corev1.ResourceList{}
	put := func(name corev1.ResourceName, q *resource.Quantity, v int64) {
		if v != 0 {
			out[name] = *q
		}
	}
	put(corev1.ResourceCPU, resource.NewMilliQuantity(l.CPU, resource.DecimalSI), l.CPU)
	put(corev1.ResourceMemory, resource.NewQuantity(l.Memory, resource.BinarySI), l.Memory)
	put(corev1.ResourceEphemeralStorage, resource.NewQuantity(l.EphemeralStorage, resource.BinarySI), l.EphemeralStorage)
	put(corev1.ResourcePods, resource.NewQuantity(l.Pods, resource.DecimalSI), l.Pods)
	for name, v := range l.Extended() {
		put(corev1.ResourceName(name), resource.NewQuantity(v, resource.DecimalSI), v)
	}
	return out
}

// nodeplanProblem converts w for nodeplan: benchmarks.Problem on w's
// catalog.
func nodeplanProblem(w workload.Workload) (packing.Problem, error) {
	c, err := Catalog(w)
	if err != nil {
		return packing.Problem{}, err
	}
	return benchmarks.Problem(w, c)
}
