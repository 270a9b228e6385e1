package sidebyside

import (
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/nodeplan/nodeplan/benchmarks/workload"
	"github.com/nodeplan/nodeplan/consolidation"
	"github.com/nodeplan/nodeplan/disruption"
	"github.com/nodeplan/nodeplan/instancetypes"
	"github.com/nodeplan/nodeplan/packing"
	"github.com/nodeplan/nodeplan/requirements"
)

// Fragmented is a running cluster to consolidate, expressed once for both
// sides: Workload holds Karpenter's fake instance types, the one NodePool
// (on-demand only) and every pod, all of them bound (Nodes say where).
// The pool consolidates WhenEmptyOrUnderutilized with consolidateAfter
// 0s under one budget of Budget nodes. Pods live in namespace "default".
type Fragmented struct {
	Name     string
	Seed     uint64
	Workload workload.Workload
	Nodes    []BoundNode
	PDBs     []PDB
	// DoNotDisrupt holds the names of the pods annotated
	// karpenter.sh/do-not-disrupt: "true".
	DoNotDisrupt map[string]bool
	// Budget is the pool's one disruption budget, "20%" or "3" say.
	Budget string
	// Launched counts the nodes completed commands launched
	// ([Fragmented.Complete]), named launch-00, launch-01, …
	Launched int
}

// BoundNode is an initialized on-demand node of the pool: its instance
// type, zone and the indexes, in Workload.Pods, of the pods bound to it.
type BoundNode struct {
	Name, InstanceType, Zone string
	Pods                     []int
}

// PDB is a PodDisruptionBudget in namespace "default" over the pods whose
// labels match Selector, with its status's disruptionsAllowed.
type PDB struct {
	Name               string
	Selector           map[string]string
	DisruptionsAllowed int32
}

// fragmentedNow is the moment both sides judge the cluster at.
var fragmentedNow = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

const (
	fragmentedNamespace = "default"
	onDemand            = "on-demand"
	zoneKey             = "topology.kubernetes.io/zone"
	hostnameKey         = "kubernetes.io/hostname"
)

// fragmentedZones are the zones of the fake types' on-demand offerings.
var fragmentedZones = []string{"test-zone-1", "test-zone-2", "test-zone-3"}

// deployment is one generated deployment's shape.
type deployment struct {
	app         string
	replicas    int
	cpu, memory int64
	spread      string // "", zoneKey or hostnameKey
}

// GenerateFragmented draws a fragmented cluster from seed: nodes nodes
// (0 draws 5 to 60) of fake-it-1 … fake-it-7 (2 to 8 cores) spread over
// three zones, filled to 20–60 % of their CPU by deployments whose
// replicas land on random nodes with room (a zone-spread deployment
// round-robins zones, a hostname-spread one puts at most one replica per
// node), a PDB on some deployments (0, 1 or 2 disruptions allowed), one
// pod in 25 do-not-disrupt and a budget of 100 %, 50 %, 20 % or 3 nodes.
// Nodes left without pods stay (emptiness finds them). The same seed gives
// the same cluster.
func GenerateFragmented(seed uint64, nodes int) Fragmented {
	rng := rand.New(rand.NewPCG(seed, 0x21))
	if nodes <= 0 {
		nodes = 5 + rng.IntN(56)
	}
	types := workload.FakeInstanceTypes(10)
	pool := workload.NodePool{Name: "default", Requirements: []workload.Requirement{
		{Key: "karpenter.sh/capacity-type", Operator: "In", Values: []string{onDemand}}}}
	f := Fragmented{Name: fmt.Sprintf("fragmented-%d", seed), Seed: seed, DoNotDisrupt: map[string]bool{},
		Budget:   []string{"100%", "50%", "20%", "3"}[rng.IntN(4)],
		Workload: workload.Workload{Name: fmt.Sprintf("fragmented-%d", seed), InstanceTypes: types, NodePools: []workload.NodePool{pool}}}
	g := placer{rng: rng, f: &f}
	for i := range nodes {
		t := types[1+rng.IntN(7)]
		f.Nodes = append(f.Nodes, BoundNode{Name: fmt.Sprintf("node-%02d", i), InstanceType: t.Name,
			Zone: fragmentedZones[rng.IntN(len(fragmentedZones))]})
		g.free = append(g.free, room{cpu: t.CPUMilli - t.OverheadCPUMilli, memory: t.MemoryBytes - t.OverheadMemoryBytes, pods: t.Pods})
		g.total += t.CPUMilli - t.OverheadCPUMilli
	}
	fill := 0.2 + 0.4*rng.Float64()
	for d, misses := 0, 0; float64(g.used) < fill*float64(g.total) && misses < 3 && d < 60; d++ {
		if g.deploy(g.draw(d)) == 0 {
			misses++
		}
	}
	return f
}

// room is what a node has left.
type room struct{ cpu, memory, pods int64 }

// placer places the generated deployments.
type placer struct {
	rng         *rand.Rand
	f           *Fragmented
	free        []room
	total, used int64
}

func (g *placer) draw(d int) deployment {
	cpus := []int64{100, 200, 250, 500, 750, 1000, 1500}
	mems := []int64{128, 256, 512, 1024, 2048}
	dep := deployment{app: fmt.Sprintf("app-%d", d), replicas: 1 + g.rng.IntN(8),
		cpu: cpus[g.rng.IntN(len(cpus))], memory: mems[g.rng.IntN(len(mems))] << 20}
	switch g.rng.IntN(4) {
	case 2:
		dep.spread = zoneKey
	case 3:
		dep.spread = hostnameKey
	}
	return dep
}

// deploy places dep's replicas one by one and stops at the first that
// finds no node; it returns how many it placed.
func (g *placer) deploy(dep deployment) int {
	zones := map[string]int{}
	used := map[int]bool{}
	placed := 0
	for r := range dep.replicas {
		n := g.pick(dep, zones, used)
		if n < 0 {
			break
		}
		pod := workload.Pod{Namespace: fragmentedNamespace, Name: fmt.Sprintf("%s-%d", dep.app, r),
			Labels: map[string]string{"app": dep.app}, CPUMilli: dep.cpu, MemoryBytes: dep.memory}
		if dep.spread != "" {
			pod.TopologySpread = []workload.Spread{{Key: dep.spread, MaxSkew: 1, DoNotSchedule: true,
				Selector: map[string]string{"app": dep.app}}}
		}
		if g.rng.IntN(25) == 0 {
			g.f.DoNotDisrupt[pod.Name] = true
		}
		g.f.Nodes[n].Pods = append(g.f.Nodes[n].Pods, len(g.f.Workload.Pods))
		g.f.Workload.Pods = append(g.f.Workload.Pods, pod)
		g.free[n] = room{cpu: g.free[n].cpu - dep.cpu, memory: g.free[n].memory - dep.memory, pods: g.free[n].pods - 1}
		g.used += dep.cpu
		zones[g.f.Nodes[n].Zone]++
		used[n] = true
		placed++
	}
	if placed > 1 && g.rng.IntN(4) == 0 {
		g.f.PDBs = append(g.f.PDBs, PDB{Name: dep.app, Selector: map[string]string{"app": dep.app},
			DisruptionsAllowed: []int32{0, 1, 1, 2}[g.rng.IntN(4)]})
	}
	return placed
}

// pick draws a node with room for one replica of dep that keeps its
// spread: the least used zone for a zone spread, a node without a replica
// for a hostname spread; -1 when none has room.
func (g *placer) pick(dep deployment, zones map[string]int, used map[int]bool) int {
	zone := ""
	if dep.spread == zoneKey {
		zone = fragmentedZones[0]
		for _, z := range fragmentedZones[1:] {
			if zones[z] < zones[zone] {
				zone = z
			}
		}
	}
	var fits []int
	for i, r := range g.free {
		if r.cpu < dep.cpu || r.memory < dep.memory || r.pods < 1 ||
			zone != "" && g.f.Nodes[i].Zone != zone || dep.spread == hostnameKey && used[i] {
			continue
		}
		fits = append(fits, i)
	}
	if len(fits) == 0 {
		return -1
	}
	return fits[g.rng.IntN(len(fits))]
}

// Price is the cluster's hourly price: each node at its type's on-demand
// offering in its zone.
func (f Fragmented) Price() float64 {
	var sum float64
	for _, n := range f.Nodes {
		sum += f.nodePrice(n)
	}
	return sum
}

func (f Fragmented) nodePrice(n BoundNode) float64 {
	for _, t := range f.Workload.InstanceTypes {
		if t.Name != n.InstanceType {
			continue
		}
		for _, o := range t.Offerings {
			if o.Zone == n.Zone && o.CapacityType == onDemand {
				return o.PricePerHour
			}
		}
	}
	return 0
}

// NodeplanCluster converts f into consolidation's input: the pool with its
// budget (consolidateAfter 0 and WhenEmptyOrUnderutilized are the zero
// Disruption), each node initialized at its offering's price with its pods
// (converted as for provisioning, do-not-disrupt marked), the PDBs, at one
// fixed Now.
func (f Fragmented) NodeplanCluster() (consolidation.Cluster, error) {
	p, err := nodeplanProblem(f.Workload)
	if err != nil {
		return consolidation.Cluster{}, err
	}
	pools := make([]packing.NodePool, len(p.NodePools))
	copy(pools, p.NodePools)
	for i := range pools {
		pools[i].Disruption = packing.Disruption{Budgets: []packing.Budget{{Nodes: f.Budget}}}
	}
	c := consolidation.Cluster{NodePools: pools, Catalog: p.Catalog, Now: fragmentedNow}
	for _, n := range f.Nodes {
		node, err := f.nodeplanNode(n, p)
		if err != nil {
			return c, err
		}
		c.Nodes = append(c.Nodes, node)
	}
	for _, b := range f.PDBs {
		c.PDBs = append(c.PDBs, disruption.PDB{Namespace: fragmentedNamespace, Name: b.Name,
			Selector: requirements.FromLabels(b.Selector), DisruptionsAllowed: b.DisruptionsAllowed})
	}
	return c, nil
}

func (f Fragmented) nodeplanNode(n BoundNode, p packing.Problem) (packing.Node, error) {
	t, ok := p.Catalog.Get(n.InstanceType)
	if !ok {
		return packing.Node{}, fmt.Errorf("node %s: instance type %q: %w", n.Name, n.InstanceType, ErrUnknownInstanceType)
	}
	price, err := instancetypes.PriceFromDollars(f.nodePrice(n))
	if err != nil {
		return packing.Node{}, fmt.Errorf("node %s: %w", n.Name, err)
	}
	node := packing.Node{Name: n.Name, NodePool: f.Workload.NodePools[0].Name, InstanceType: n.InstanceType, Zone: n.Zone,
		CapacityType: instancetypes.OnDemand, Allocatable: t.Allocatable, Initialized: true, Price: price,
		CreationTime: fragmentedNow.Add(-time.Hour)}
	for _, i := range n.Pods {
		pod := p.Pods[i]
		pod.CreationTime = fragmentedNow.Add(-time.Hour)
		if f.DoNotDisrupt[pod.Name] {
			pod.DoNotDisrupt = "true"
		}
		node.Pods = append(node.Pods, pod)
	}
	return node, nil
}
