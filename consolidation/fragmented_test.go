package consolidation_test

import (
	"fmt"
	"math/rand/v2"

	"github.com/nodeplan/nodeplan/consolidation"
	"github.com/nodeplan/nodeplan/disruption"
	"github.com/nodeplan/nodeplan/packing"
	"github.com/nodeplan/nodeplan/requirements"
)

// fragmentedCluster is a scaled-down cluster drawn from seed, the shape
// of the differential clusters: 5 to 60 on-demand nodes of 2 to
// 32 cores in two zones, each 5–75 % used by pods of a few deployments
// (200m to 2.5 cores each), some pods zone-pinned or do-not-disrupt, a
// do-not-disrupt node now and then, a PodDisruptionBudget allowing no
// eviction over one deployment on some seeds, and a budget of 100 %, 10 %
// or 3 nodes.
func fragmentedCluster(seed uint64) consolidation.Cluster {
	rng := rand.New(rand.NewPCG(seed, 21))
	budget := []string{"100%", "10%", "3"}[rng.IntN(3)]
	c := newCluster(pool("default", packing.Budget{Nodes: budget}))
	apps := []struct {
		name  string
		milli int64
	}{{"web", 250}, {"api", 500}, {"worker", 1000}, {"cache", 1500}, {"batch", 2500}, {"db", 750}}
	for i := range 5 + rng.IntN(56) {
		cpu := sizes[1+rng.IntN(len(sizes)-1)]
		n := c.node(fmt.Sprintf("n%02d", i), cpu)
		if rng.IntN(2) == 1 {
			n.Zone = "b"
		}
		if rng.IntN(25) == 0 {
			n.Annotations = map[string]string{disruption.AnnotationDoNotDisrupt: "true"}
		}
		fill := cpu * 1000 * int64(5+rng.IntN(71)) / 100
		for used, j := int64(0), 0; ; j++ {
			a := apps[rng.IntN(len(apps))]
			if used+a.milli > fill {
				break
			}
			used += a.milli
			p := pod(fmt.Sprintf("%s-%s-%d", n.Name, a.name, j), a.milli)
			p.Labels = map[string]string{"app": a.name}
			if rng.IntN(20) == 0 {
				p.NodeAffinity.Selector = requirements.NewSet(requirements.MustNew(requirements.LabelZone, requirements.In, n.Zone))
			}
			if rng.IntN(30) == 0 {
				p.DoNotDisrupt = "true"
			}
			n.Pods = append(n.Pods, p)
		}
	}
	if rng.IntN(3) == 0 {
		c.PDBs = []disruption.PDB{{Namespace: "default", Name: "db",
			Selector: requirements.NewSet(requirements.MustNew("app", requirements.In, "db"))}}
	}
	return c.Cluster
}
