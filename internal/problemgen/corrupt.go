package problemgen

import (
	"math/rand/v2"

	"github.com/nodeplan/nodeplan/packing"
	"github.com/nodeplan/nodeplan/requirements"
	"github.com/nodeplan/nodeplan/resources"
)

// Corrupt returns a copy of p with one field made invalid, chosen by seed,
// and a phrase naming what it broke. Every corruption is one
// [packing.Problem.Validate] must reject; p is not modified.
func Corrupt(p packing.Problem, seed uint64) (packing.Problem, string) {
	g := &gen{src: rand.New(rand.NewPCG(seed, ^seed))}
	q := Clone(p)
	return q, g.corrupt(&q)
}

// corruption breaks one field of p, which it may modify in place (the
// caller owns p), and says what it broke; ok is false when p has no such
// field.
type corruption func(g *gen, p *packing.Problem) (what string, ok bool)

var corruptions = []corruption{
	corruptPodCPU, corruptPodName, corruptPodDuplicate, corruptSkew, corruptSpreadKey,
	corruptHostPort, corruptAffinityWeight, corruptPoolLimit, corruptPoolTaint,
	corruptNodeName, corruptNodeAllocatable, corruptBoundPod, corruptDaemonSet, corruptExtended,
	corruptCatalog, corruptPoolName,
}

// nodeCorruptions break a node or one of its pods; the first always fits.
var nodeCorruptions = []corruption{corruptNodeName, corruptNodeAllocatable, corruptBoundPod}

// CorruptNode returns a copy of n with one field made invalid, chosen by
// seed: its name (empty), its allocatable or, when it has pods, a bound
// pod's requests; and a phrase naming what it broke. Every corruption is
// one [packing.Problem.Validate] must reject in a problem holding the
// node: a simulation's test adds it as an in-flight node. n is not
// modified.
func CorruptNode(n packing.Node, seed uint64) (packing.Node, string) {
	g := &gen{src: rand.New(rand.NewPCG(seed, ^seed))}
	p := packing.Problem{Nodes: []packing.Node{cloneNode(n)}}
	what := g.corruptWith(nodeCorruptions, &p)
	return p.Nodes[0], what
}

// corrupt applies a random corruption that fits p; the last ones always
// fit.
func (g *gen) corrupt(p *packing.Problem) string { return g.corruptWith(corruptions, p) }

// corruptWith applies a random corruption of list that fits p; one of
// them must.
func (g *gen) corruptWith(list []corruption, p *packing.Problem) string {
	for i := g.intn(len(list)); ; i = (i + 1) % len(list) {
		if what, ok := list[i](g, p); ok {
			return what
		}
	}
}

// somePod returns a random pending pod of p, or nil when it has none.
func (g *gen) somePod(p *packing.Problem) *packing.Pod {
	if len(p.Pods) == 0 {
		return nil
	}
	return &p.Pods[g.intn(len(p.Pods))]
}

func corruptPodCPU(g *gen, p *packing.Problem) (string, bool) {
	pod := g.somePod(p)
	if pod == nil {
		return "", false
	}
	pod.Requests.CPU = -1 - int64(g.intn(1000))
	return "negative cpu request", true
}

func corruptPodName(g *gen, p *packing.Problem) (string, bool) {
	pod := g.somePod(p)
	if pod == nil {
		return "", false
	}
	pod.Name = ""
	return "empty pod name", true
}

func corruptPodDuplicate(g *gen, p *packing.Problem) (string, bool) {
	pod := g.somePod(p)
	if pod == nil {
		return "", false
	}
	p.Pods = append(p.Pods, *pod)
	return "duplicate pod", true
}

func corruptSkew(g *gen, p *packing.Problem) (string, bool) {
	pod := g.somePod(p)
	if pod == nil {
		return "", false
	}
	pod.TopologySpread = append(pod.TopologySpread,
		packing.TopologySpread{TopologyKey: requirements.LabelZone, MaxSkew: -int32(g.intn(2))})
	return "maxSkew below 1", true
}

func corruptSpreadKey(g *gen, p *packing.Problem) (string, bool) {
	pod := g.somePod(p)
	if pod == nil {
		return "", false
	}
	pod.TopologySpread = append(pod.TopologySpread, packing.TopologySpread{TopologyKey: "not a key!", MaxSkew: 1})
	return "invalid topology key", true
}

func corruptHostPort(g *gen, p *packing.Problem) (string, bool) {
	pod := g.somePod(p)
	if pod == nil {
		return "", false
	}
	pod.HostPorts = append(pod.HostPorts, packing.HostPort{Port: pick(g, []int32{0, -1, 65536, 70000})})
	return "host port out of range", true
}

func corruptAffinityWeight(g *gen, p *packing.Problem) (string, bool) {
	pod := g.somePod(p)
	if pod == nil {
		return "", false
	}
	pod.Affinity = append(pod.Affinity, packing.PodAffinityTerm{TopologyKey: requirements.LabelZone, Weight: pick(g, []int32{-1, 101})})
	return "pod affinity weight outside 0..100", true
}

func corruptPoolLimit(g *gen, p *packing.Problem) (string, bool) {
	if len(p.NodePools) == 0 {
		return "", false
	}
	np := &p.NodePools[g.intn(len(p.NodePools))]
	np.Limits = map[resources.Name]int64{resources.CPU: -1}
	return "negative NodePool limit", true
}

func corruptPoolTaint(g *gen, p *packing.Problem) (string, bool) {
	if len(p.NodePools) == 0 {
		return "", false
	}
	np := &p.NodePools[g.intn(len(p.NodePools))]
	np.Taints = append(np.Taints, requirements.Taint{Key: TaintDedicated, Effect: requirements.AnyEffect})
	return "NodePool taint without an effect", true
}

func corruptNodeName(g *gen, p *packing.Problem) (string, bool) {
	if len(p.Nodes) == 0 {
		return "", false
	}
	i := g.intn(len(p.Nodes))
	p.Nodes[i].Name = ""
	if len(p.Nodes) > 1 && g.chance(1, 2) {
		p.Nodes[i].Name = p.Nodes[(i+1)%len(p.Nodes)].Name
	}
	return "empty or duplicate node name", true
}

func corruptNodeAllocatable(g *gen, p *packing.Problem) (string, bool) {
	if len(p.Nodes) == 0 {
		return "", false
	}
	p.Nodes[g.intn(len(p.Nodes))].Allocatable.Memory = -1
	return "negative node allocatable", true
}

func corruptBoundPod(g *gen, p *packing.Problem) (string, bool) {
	for _, i := range g.order(len(p.Nodes)) {
		if n := &p.Nodes[i]; len(n.Pods) > 0 {
			n.Pods[g.intn(len(n.Pods))].Requests.Memory = -1
			return "negative request of a bound pod", true
		}
	}
	return "", false
}

func corruptDaemonSet(g *gen, p *packing.Problem) (string, bool) {
	if len(p.DaemonSets) == 0 {
		return "", false
	}
	p.DaemonSets[g.intn(len(p.DaemonSets))].Requests.CPU = -1
	return "negative daemonset request", true
}

func corruptExtended(g *gen, p *packing.Problem) (string, bool) {
	pod := g.somePod(p)
	if pod == nil {
		return "", false
	}
	pod.Requests = pod.Requests.With(resources.GPU, -1)
	return "negative extended resource request", true
}

// corruptCatalog removes the catalog, which is invalid when a pool lacks
// its own.
func corruptCatalog(g *gen, p *packing.Problem) (string, bool) {
	for _, np := range p.NodePools {
		if np.Catalog == nil {
			p.Catalog = nil
			return "no catalog", true
		}
	}
	return "", false
}

// corruptPoolName adds a pool with an empty name or the name of another;
// it always applies.
func corruptPoolName(g *gen, p *packing.Problem) (string, bool) {
	name := ""
	if len(p.NodePools) > 0 && g.chance(1, 2) {
		name = p.NodePools[0].Name
	}
	p.NodePools = append(p.NodePools, packing.NodePool{Name: name})
	return "empty or duplicate NodePool name", true
}

// order returns 0..n-1 rotated by a random offset.
func (g *gen) order(n int) []int {
	out := make([]int, n)
	start := g.intn(n)
	for i := range out {
		out[i] = (start + i) % n
	}
	return out
}
