package repair_test

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/leanovate/gopter"
	"github.com/leanovate/gopter/gen"
	"github.com/leanovate/gopter/prop"

	"github.com/nodeplan/nodeplan/disruption"
	"github.com/nodeplan/nodeplan/internal/problemgen"
	"github.com/nodeplan/nodeplan/packing"
	"github.com/nodeplan/nodeplan/packing/verify"
	"github.com/nodeplan/nodeplan/repair"
)

// generatedRepair is a problemgen cluster (its pending pods left out) and
// a Result replacing a random part of its nodes; ok is false when the
// snapshot itself does not pass verify.Plan (an overcommitted node).
func generatedRepair(seed uint64, size problemgen.Size) (repair.Cluster, repair.Result, bool) {
	p := problemgen.Generate(seed, size)
	cl := repair.Cluster{Nodes: p.Nodes, NodePools: p.NodePools, Catalog: p.Catalog, DaemonSets: p.DaemonSets}
	base := packing.Problem{Nodes: p.Nodes, NodePools: p.NodePools, Catalog: p.Catalog, DaemonSets: p.DaemonSets}
	r := rand.New(rand.NewPCG(seed, 5))
	var res repair.Result
	seen := map[string]bool{}
	for _, n := range p.Nodes {
		if !seen[n.Name] && r.IntN(3) == 0 {
			res.Replace = append(res.Replace, repair.Repair{Node: n.Name, NodePool: n.NodePool})
		}
		seen[n.Name] = true
	}
	return cl, res, len(verify.Plan(base, packing.Plan{})) == 0
}

// planProblem says what is wrong with rep, the plan of res on cl, or "":
// it must pass verify.Plan, give every reschedulable pod of each repaired
// node exactly one home (in the node's pod order), and leave the
// repaired nodes marked for deletion and empty.
func planProblem(cl repair.Cluster, res repair.Result, rep repair.Replacement) string {
	if v := verify.Plan(rep.Problem, rep.Solution); len(v) > 0 {
		return fmt.Sprintf("violations: %v", v)
	}
	if len(rep.Moves) != len(res.Replace) {
		return fmt.Sprintf("%d moves for %d repairs", len(rep.Moves), len(res.Replace))
	}
	for k, m := range rep.Moves {
		i := index(cl.Nodes, m.Node)
		var want []disruption.PodRef
		for _, p := range cl.Nodes[i].Pods {
			if p.Reschedulable() {
				want = append(want, disruption.Ref(&p))
			}
		}
		var got []disruption.PodRef
		for _, h := range m.Homes {
			got = append(got, h.Pod)
			set := 0
			for _, s := range []string{h.Node, h.NodeClaim, h.Unschedulable} {
				if s != "" {
					set++
				}
			}
			if set != 1 || h.Node == m.Node {
				return fmt.Sprintf("move %d: home %+v", k, h)
			}
		}
		if !reflect.DeepEqual(want, got) {
			return fmt.Sprintf("move %d (%s): pods %v, want %v", k, m.Node, got, want)
		}
		if n := rep.Problem.Nodes[i]; !n.MarkedForDeletion || len(n.Pods) > 0 {
			return fmt.Sprintf("%s not retired in the plan's cluster", m.Node)
		}
	}
	return ""
}

func index(nodes []packing.Node, name string) int {
	for i := range nodes {
		if nodes[i].Name == name {
			return i
		}
	}
	return -1
}

// TestPlanProperties: on problemgen's clusters (unusual shapes included),
// the replacement plan verifies (packing/verify.Plan), every displaced pod
// has exactly one home, the same input gives the same plan, and the input
// is not modified.
func TestPlanProperties(t *testing.T) {
	params := gopter.DefaultTestParametersWithSeed(20261208) // fixed: every run checks the same cases
	params.MinSuccessfulTests = 200
	props := gopter.NewProperties(params)
	props.Property("the plan verifies, each pod once, deterministic, input unmodified", prop.ForAll(func(seed uint64) string {
		cl, res, ok := generatedRepair(seed, problemgen.Size{Nodes: 8})
		if !ok {
			return ""
		}
		before := problemgen.Clone(packing.Problem{Nodes: cl.Nodes, NodePools: cl.NodePools, Catalog: cl.Catalog, DaemonSets: cl.DaemonSets})
		rep, err := repair.Plan(res, cl)
		if err != nil {
			return fmt.Sprintf("seed %d: %v", seed, err)
		}
		if msg := planProblem(cl, res, rep); msg != "" {
			return fmt.Sprintf("seed %d: %s", seed, msg)
		}
		if again, _ := repair.Plan(res, cl); !reflect.DeepEqual(rep, again) {
			return fmt.Sprintf("seed %d: not deterministic", seed)
		}
		if !reflect.DeepEqual(before.Nodes, cl.Nodes) {
			return fmt.Sprintf("seed %d: cluster modified", seed)
		}
		return ""
	}, gen.UInt64()))
	props.TestingRun(t)
}
