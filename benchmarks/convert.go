package benchmarks

import (
	"fmt"
	"maps"
	"slices"

	"github.com/nodeplan/nodeplan/benchmarks/workload"
	"github.com/nodeplan/nodeplan/instancetypes"
	"github.com/nodeplan/nodeplan/packing"
	"github.com/nodeplan/nodeplan/requirements"
	"github.com/nodeplan/nodeplan/resources"
)

// Problem converts a neutral workload into nodeplan's input. Instance types
// come from the workload unless catalog is non-nil (workloads on a real
// catalog carry none).
func Problem(w workload.Workload, catalog *instancetypes.Catalog) (packing.Problem, error) {
	var err error
	if catalog == nil {
		if catalog, err = Catalog(w.InstanceTypes); err != nil {
			return packing.Problem{}, err
		}
	}
	p := packing.Problem{Catalog: catalog}
	for _, wd := range w.DaemonSets {
		ds, err := daemonSet(wd)
		if err != nil {
			return p, err
		}
		p.DaemonSets = append(p.DaemonSets, ds)
	}
	for _, np := range w.NodePools {
		pool, err := nodePool(np)
		if err != nil {
			return p, err
		}
		p.NodePools = append(p.NodePools, pool)
	}
	for _, wp := range w.Pods {
		pod, err := Pod(wp)
		if err != nil {
			return p, err
		}
		p.Pods = append(p.Pods, pod)
	}
	return p, nil
}

// Catalog builds a catalog from neutral instance types.
func Catalog(its []workload.InstanceType) (*instancetypes.Catalog, error) {
	types := make([]instancetypes.InstanceType, 0, len(its))
	for _, it := range its {
		t, err := instanceType(it)
		if err != nil {
			return nil, err
		}
		types = append(types, t)
	}
	return instancetypes.New(types)
}

func instanceType(it workload.InstanceType) (instancetypes.InstanceType, error) {
	t := instancetypes.InstanceType{Name: it.Name,
		Capacity: resources.List{CPU: it.CPUMilli, Memory: it.MemoryBytes, Pods: it.Pods},
		Overhead: resources.List{CPU: it.OverheadCPUMilli, Memory: it.OverheadMemoryBytes}}
	if it.GPU > 0 {
		t.Capacity = t.Capacity.With(resources.GPU, it.GPU)
	}
	zones, cts := map[string]bool{}, map[string]bool{}
	for _, o := range it.Offerings {
		off, err := offering(o)
		if err != nil {
			return t, fmt.Errorf("instance type %s: %w", it.Name, err)
		}
		t.Offerings = append(t.Offerings, off)
		zones[o.Zone], cts[o.CapacityType] = true, true
	}
	in := func(key string, values ...string) requirements.Expression {
		return requirements.Expression{Key: key, Operator: requirements.In, Values: values}
	}
	reqs, err := requirements.Parse(in(requirements.LabelInstanceType, it.Name), in(requirements.LabelArch, it.Arch),
		in(requirements.LabelOS, it.OS...), in(requirements.LabelZone, slices.Sorted(maps.Keys(zones))...),
		in(requirements.LabelCapacityType, slices.Sorted(maps.Keys(cts))...))
	if err != nil {
		return t, fmt.Errorf("instance type %s: %w", it.Name, err)
	}
	t.Requirements = reqs.Intersect(requirements.FromLabels(it.Labels))
	return t, nil
}

func offering(o workload.Offering) (instancetypes.Offering, error) {
	ct, err := instancetypes.ParseCapacityType(o.CapacityType)
	if err != nil {
		return instancetypes.Offering{}, err
	}
	price, err := instancetypes.PriceFromDollars(o.PricePerHour)
	return instancetypes.Offering{Zone: o.Zone, CapacityType: ct, Price: price, Available: o.Available}, err
}

func nodePool(np workload.NodePool) (packing.NodePool, error) {
	exprs, err := expressions(np.Requirements)
	if err != nil {
		return packing.NodePool{}, fmt.Errorf("nodepool %s: %w", np.Name, err)
	}
	reqs, err := requirements.Parse(exprs...)
	pool := packing.NodePool{Name: np.Name, Weight: np.Weight, Requirements: reqs, Limits: map[resources.Name]int64{}}
	for _, t := range np.Taints {
		eff, perr := requirements.ParseEffect(t.Effect)
		err = joinErr(err, perr)
		pool.Taints = append(pool.Taints, requirements.Taint{Key: t.Key, Value: t.Value, Effect: eff})
	}
	if np.LimitsCPUMilli > 0 {
		pool.Limits[resources.CPU] = np.LimitsCPUMilli
	}
	if np.LimitsMemoryBytes > 0 {
		pool.Limits[resources.Memory] = np.LimitsMemoryBytes
	}
	return pool, err
}

func expressions(rs []workload.Requirement) ([]requirements.Expression, error) {
	out := make([]requirements.Expression, 0, len(rs))
	for _, r := range rs {
		op, err := requirements.ParseOperator(r.Operator)
		if err != nil {
			return nil, err
		}
		out = append(out, requirements.Expression{Key: r.Key, Operator: op, Values: r.Values, MinValues: r.MinValues})
	}
	return out, nil
}

// Pod converts a neutral pod: its requests (GPUs included), labels, node
// selector, preferred node affinity, spreads and pod (anti-)affinity.
func Pod(wp workload.Pod) (packing.Pod, error) {
	p := packing.Pod{Namespace: wp.Namespace, Name: wp.Name, UID: wp.UID(), Labels: wp.Labels,
		Requests: resources.List{CPU: wp.CPUMilli, Memory: wp.MemoryBytes}}
	if wp.GPU > 0 {
		p.Requests = p.Requests.With(resources.GPU, wp.GPU)
	}
	var prefs []requirements.WeightedTerm
	for _, t := range wp.PreferredNodeAffinity {
		exprs, err := expressions(t.Requirements)
		if err != nil {
			return p, err
		}
		prefs = append(prefs, requirements.WeightedTerm{Weight: t.Weight, Expressions: exprs})
	}
	aff, err := requirements.NewNodeAffinity(wp.NodeSelector, nil, prefs)
	p.NodeAffinity = aff
	for _, s := range wp.TopologySpread {
		ts := packing.TopologySpread{TopologyKey: s.Key, MaxSkew: s.MaxSkew, Selector: requirements.FromLabels(s.Selector)}
		if !s.DoNotSchedule {
			ts.WhenUnsatisfiable = packing.ScheduleAnyway
		}
		p.TopologySpread = append(p.TopologySpread, ts)
	}
	p.Affinity = terms(wp.PodAffinity)
	p.AntiAffinity = terms(wp.PodAntiAffinity)
	return p, err
}

// daemonSet converts a daemonset's pod template: its requests (GPUs
// included) and its node selector.
func daemonSet(wd workload.Pod) (packing.DaemonSet, error) {
	p, err := Pod(wd)
	if err != nil {
		return packing.DaemonSet{}, fmt.Errorf("daemonset %s: %w", wd.Name, err)
	}
	return packing.DaemonSet{Namespace: wd.Namespace, Name: wd.Name, Requests: p.Requests, NodeAffinity: p.NodeAffinity}, nil
}

func terms(ts []workload.AffinityTerm) []packing.PodAffinityTerm {
	out := make([]packing.PodAffinityTerm, 0, len(ts))
	for _, t := range ts {
		out = append(out, packing.PodAffinityTerm{TopologyKey: t.TopologyKey, Selector: requirements.FromLabels(t.Selector), Weight: t.Weight})
	}
	return out
}

func joinErr(a, b error) error {
	if a != nil {
		return a
	}
	return b
}
