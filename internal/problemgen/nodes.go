package problemgen

import (
	"fmt"
	"maps"
	"time"

	"github.com/nodeplan/nodeplan/instancetypes"
	"github.com/nodeplan/nodeplan/packing"
	"github.com/nodeplan/nodeplan/requirements"
	"github.com/nodeplan/nodeplan/resources"
)

// nodes draws up to Size.Nodes existing nodes, each launched from a pool
// (or unmanaged) as one of its catalog's types.
func (g *gen) nodes(c *instancetypes.Catalog) []packing.Node {
	n := g.intn(g.size.Nodes + 1)
	if n == 0 {
		return nil
	}
	out := make([]packing.Node, n)
	for i := range out {
		out[i] = g.node(i, c)
	}
	return out
}

func (g *gen) node(i int, c *instancetypes.Catalog) packing.Node {
	var pool *packing.NodePool
	if len(g.pools) > 0 && g.chance(3, 4) {
		pool = &g.pools[g.intn(len(g.pools))]
	}
	if pool != nil && pool.Catalog != nil {
		c = pool.Catalog
	}
	t := pick(g, c.Types())
	off := pick(g, t.Offerings)
	name := fmt.Sprintf("node-%d", i)
	if pool != nil && i%3 == 1 {
		// The name a claim of the pool would take: a claim's hostname
		// must still be its own (packing skips it; verify checks it).
		// Decided without a draw, so the rest of a problem is as before.
		name = fmt.Sprintf("%s-%d", pool.Name, i/3+1)
	}
	n := packing.Node{Name: name, InstanceType: t.Name, Zone: off.Zone, CapacityType: off.CapacityType,
		Allocatable: t.Allocatable, Initialized: !g.chance(1, 5), MarkedForDeletion: g.chance(1, 10),
		Price: off.Price, CreationTime: epoch.Add(time.Duration(i) * time.Minute)}
	n.Labels = typeLabels(t)
	n.Labels[requirements.LabelHostname] = n.Name
	n.Labels[requirements.LabelZone] = off.Zone
	n.Labels[requirements.LabelCapacityType] = off.CapacityType.String()
	if pool != nil {
		n.NodePool = pool.Name
		n.Labels[requirements.LabelNodePool] = pool.Name
		maps.Copy(n.Labels, pool.Labels)
		n.Taints = append(n.Taints, pool.Taints...)
		if !n.Initialized {
			n.Taints = append(n.Taints, pool.StartupTaints...)
		}
	}
	if !n.Initialized && g.chance(1, 2) {
		n.Taints = append(n.Taints, requirements.Taint{Key: "node.kubernetes.io/not-ready", Effect: requirements.NoSchedule})
	}
	if g.chance(1, 10) {
		n.Taints = append(n.Taints, requirements.Taint{Key: TaintDedicated, Value: "node", Effect: requirements.NoSchedule})
	}
	n.Pods = g.boundPods(&n)
	return n
}

// typeLabels are the labels a node of type t carries: every requirement
// of t with a single value.
func typeLabels(t *instancetypes.InstanceType) map[string]string {
	l := map[string]string{}
	for r := range t.Requirements.All() {
		if vals := r.Values(); !r.Complement() && len(vals) == 1 {
			l[r.Key()] = vals[0]
		}
	}
	return l
}

// boundPods draws the pods already on n; they fit its allocatable, except
// rarely, when the node is overcommitted.
func (g *gen) boundPods(n *packing.Node) []packing.Pod {
	count := g.intn(g.size.BoundPods + 1)
	overcommit := g.chance(1, 30)
	var pods []packing.Pod
	var used resources.List
	for j := range count {
		p := g.pod(fmt.Sprintf("bound-%s-%d", n.Name, j), g.template(false))
		total := used.Add(p.Requests).Add(resources.List{Pods: 1})
		if !overcommit && !total.Fits(n.Allocatable) {
			continue
		}
		used, pods = total, append(pods, p)
	}
	return pods
}
