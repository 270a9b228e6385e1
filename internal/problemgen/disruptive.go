package problemgen

import (
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"strings"
	"time"

	"github.com/nodeplan/nodeplan/disruption"
	"github.com/nodeplan/nodeplan/packing"
)

// Disruptive returns a copy of p with what disruption reads, drawn from
// seed, and PodDisruptionBudgets over its bound pods: each pool gets a
// node budget (a count or a percentage, sometimes none, Karpenter's 10 %),
// a consolidation policy, a consolidateAfter and a terminationGracePeriod
// (or none); some bound pods and nodes
// are marked do-not-disrupt, some bound pods are terminating or mirror
// pods; some apps get a PDB allowing zero or one
// disruption. For the consolidation and drift properties over generated
// clusters. The same (p, seed) always gives the same result; p is not
// modified.
func Disruptive(p packing.Problem, seed uint64) (packing.Problem, []disruption.PDB) {
	g := &gen{src: rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))}
	q := Clone(p)
	for i := range q.NodePools {
		q.NodePools[i].Disruption = g.disruption()
	}
	apps := map[string]bool{}
	for i := range q.Nodes {
		n := &q.Nodes[i]
		if g.chance(1, 12) {
			n.Annotations = map[string]string{disruption.AnnotationDoNotDisrupt: "true"}
		}
		for j := range n.Pods {
			if g.chance(1, 10) {
				n.Pods[j].DoNotDisrupt = "true"
			}
			g.stays(n, &n.Pods[j])
			apps[n.Pods[j].Namespace+"/"+n.Pods[j].Labels[LabelApp]] = true
		}
	}
	return q, g.pdbs(apps)
}

// stays makes some bound pods ones that stay with their node when it is
// disrupted (packing.Pod.Reschedulable false): terminating, or a mirror
// pod of n; a few terminating ones are StatefulSet pods, which move.
func (g *gen) stays(n *packing.Node, p *packing.Pod) {
	switch {
	case g.chance(1, 15):
		p.Terminating = true
		if g.chance(1, 3) {
			p.Owner = "StatefulSet/" + p.Labels[LabelApp]
		}
	case g.chance(1, 30):
		p.Owner = "Node/" + n.Name
	}
}

func (g *gen) disruption() packing.Disruption {
	d := packing.Disruption{Policy: packing.ConsolidationPolicy(g.intn(3))}
	if g.chance(1, 4) {
		d.ConsolidateAfter = time.Duration(g.intn(3)) * time.Hour
	}
	if g.chance(1, 4) {
		d.TerminationGracePeriod = time.Hour
	}
	if g.chance(3, 4) {
		d.Budgets = []packing.Budget{{Nodes: pick(g, []string{"0", "1", "2", "10", "50%", "100%"})}}
	}
	return d
}

// pdbs draws a PDB for some of apps ("namespace/app"), in sorted order.
func (g *gen) pdbs(apps map[string]bool) []disruption.PDB {
	var out []disruption.PDB
	for _, key := range slices.Sorted(maps.Keys(apps)) {
		if !g.chance(1, 4) {
			continue
		}
		ns, app, _ := strings.Cut(key, "/")
		out = append(out, disruption.PDB{Namespace: ns, Name: fmt.Sprintf("pdb-%d", len(out)),
			Selector: appSelector(app), DisruptionsAllowed: int32(g.intn(2))})
	}
	return out
}
