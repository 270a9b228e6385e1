package problemgen

import (
	"fmt"
	"strconv"

	"github.com/nodeplan/nodeplan/instancetypes"
	"github.com/nodeplan/nodeplan/packing"
	"github.com/nodeplan/nodeplan/requirements"
	"github.com/nodeplan/nodeplan/resources"
)

// nodePools draws zero (rarely) to Size.Pools pools.
func (g *gen) nodePools(c *instancetypes.Catalog) []packing.NodePool {
	if g.chance(1, 16) {
		return nil
	}
	pools := make([]packing.NodePool, 1+g.intn(g.size.Pools))
	for i := range pools {
		pools[i] = g.nodePool(fmt.Sprintf("pool-%d", i), c)
	}
	return pools
}

func (g *gen) nodePool(name string, c *instancetypes.Catalog) packing.NodePool {
	np := packing.NodePool{Name: name, Weight: int32(g.intn(3) * 50), Requirements: g.poolRequirements()}
	if g.chance(1, 3) {
		np.Labels = map[string]string{LabelTeam: pick(g, []string{"a", "b"})}
	}
	np.Taints = g.poolTaints()
	if g.chance(1, 6) {
		np.StartupTaints = []requirements.Taint{{Key: TaintStartup, Effect: requirements.NoSchedule}}
	}
	np.Limits = g.limits()
	if g.chance(1, 10) {
		np.Catalog = g.randomCatalog(name, 1+g.intn(g.size.Types))
	}
	return np
}

// poolRequirements draws a few requirements, each with its own chance, on
// the labels the generated types carry.
func (g *gen) poolRequirements() requirements.Set {
	var reqs []requirements.Requirement
	add := func(k, n int, key string, op requirements.Operator, values ...string) {
		if g.chance(k, n) {
			reqs = append(reqs, requirements.MustNew(key, op, values...))
		}
	}
	add(1, 4, requirements.LabelArch, requirements.In, "amd64")
	add(1, 8, requirements.LabelArch, requirements.In, "amd64", "arm64")
	add(1, 4, requirements.LabelCapacityType, requirements.In, "on-demand")
	add(1, 6, requirements.LabelCapacityType, requirements.In, "spot", "on-demand")
	add(1, 8, requirements.LabelCapacityType, requirements.NotIn, "reserved")
	add(1, 4, requirements.LabelZone, requirements.In, subset(g, g.zones)...)
	add(1, 8, requirements.LabelZone, requirements.NotIn, pick(g, g.zones))
	add(1, 6, requirements.LabelInstanceCPU, requirements.Lt, strconv.Itoa(8+g.intn(25)))
	add(1, 6, LabelGeneration, requirements.Gt, strconv.Itoa(g.intn(4)))
	add(1, 30, requirements.LabelArch, requirements.In, "s390x") // no type has it
	if g.chance(1, 6) {
		reqs = append(reqs, minValues(requirements.LabelInstanceType, 1+g.intn(3)))
	}
	if g.chance(1, 10) {
		reqs = append(reqs, minValues(requirements.LabelInstanceFamily, 1+g.intn(2)))
	}
	return requirements.NewSet(reqs...)
}

// minValues is key Exists asking for n distinct values.
func minValues(key string, n int) requirements.Requirement {
	r, err := requirements.MustNew(key, requirements.Exists).WithMinValues(n)
	if err != nil {
		panic(fmt.Sprintf("problemgen: %v", err)) // n is within 1..3
	}
	return r
}

func (g *gen) poolTaints() []requirements.Taint {
	var taints []requirements.Taint
	if g.chance(1, 4) {
		taints = append(taints, requirements.Taint{Key: TaintDedicated, Value: pick(g, []string{"gpu", "batch"}), Effect: requirements.NoSchedule})
	}
	if g.chance(1, 8) {
		taints = append(taints, requirements.Taint{Key: TaintSoft, Effect: requirements.PreferNoSchedule})
	}
	if g.chance(1, 12) {
		taints = append(taints, requirements.Taint{Key: TaintDedicated, Value: "evict", Effect: requirements.NoExecute})
	}
	return taints
}

func (g *gen) limits() map[resources.Name]int64 {
	lim := map[resources.Name]int64{}
	if g.chance(1, 4) {
		lim[resources.CPU] = int64(4+g.intn(64)) * 1000
	}
	if g.chance(1, 6) {
		lim[resources.Memory] = int64(8+g.intn(256)) * gib
	}
	if g.chance(1, 6) {
		lim[packing.LimitNodes] = int64(1 + g.intn(4))
	}
	if g.chance(1, 12) {
		lim[resources.GPU] = int64(g.intn(4))
	}
	if len(lim) == 0 {
		return nil
	}
	return lim
}

// daemonSets draws up to Size.DaemonSets small daemonsets.
func (g *gen) daemonSets() []packing.DaemonSet {
	n := g.intn(g.size.DaemonSets + 1)
	if n == 0 {
		return nil
	}
	out := make([]packing.DaemonSet, n)
	for i := range out {
		ds := packing.DaemonSet{Name: fmt.Sprintf("ds-%d", i),
			Requests: resources.List{CPU: int64(50 + 50*g.intn(4)), Memory: int64(64<<g.intn(3)) * mib}}
		if g.chance(1, 3) {
			ds.Tolerations = []requirements.Toleration{{Operator: requirements.TolerateExists}}
		}
		if g.chance(1, 4) {
			ds.NodeAffinity = requirements.NodeAffinity{Selector: requirements.NewSet(
				requirements.MustNew(requirements.LabelArch, requirements.In, pick(g, []string{"amd64", "arm64"})))}
		}
		out[i] = ds
	}
	return out
}
