package consolidation_test

import (
	"fmt"
	"reflect"
	"testing"

	"github.com/leanovate/gopter"
	"github.com/leanovate/gopter/gen"
	"github.com/leanovate/gopter/prop"

	"github.com/nodeplan/nodeplan/consolidation"
	"github.com/nodeplan/nodeplan/disruption"
	"github.com/nodeplan/nodeplan/packing"
)

// spec is a generated cluster: per node a size index and pod millicores;
// every fifth pod is do-not-disrupt, every seventh node too.
type spec struct {
	Sizes  []int
	Pods   [][]int
	Budget int
	Repack bool
}

func genSpec() gopter.Gen {
	return gen.IntRange(1, 8).FlatMap(func(v any) gopter.Gen {
		n := v.(int)
		return gopter.CombineGens(
			gen.SliceOfN(n, gen.IntRange(1, 3)),
			gen.SliceOfN(n, gen.SliceOfN(3, gen.IntRange(0, 1500))),
			gen.IntRange(0, 4),
			gen.Bool(),
		).Map(func(vs []any) spec {
			return spec{Sizes: vs[0].([]int), Pods: vs[1].([][]int), Budget: vs[2].(int), Repack: vs[3].(bool)}
		})
	}, reflect.TypeOf(spec{}))
}

func (sp spec) cluster() consolidation.Cluster {
	c := newCluster(pool("default", packing.Budget{Nodes: fmt.Sprint(sp.Budget)}))
	k := 0
	for i, size := range sp.Sizes {
		var pods []int64
		for _, m := range sp.Pods[i] {
			if m >= 200 { // 0..199 means no pod
				pods = append(pods, int64(m))
			}
		}
		n := c.node(fmt.Sprint("n", i), sizes[size], pods...)
		for j := range n.Pods {
			if k++; k%5 == 0 {
				n.Pods[j].DoNotDisrupt = "true"
			}
		}
		if i%7 == 6 {
			n.Annotations = map[string]string{disruption.AnnotationDoNotDisrupt: "true"}
		}
	}
	return c.Cluster
}

func TestPlanProperties(t *testing.T) {
	params := gopter.DefaultTestParametersWithSeed(20261214) // fixed: every run checks the same cases
	params.MinSuccessfulTests = 150
	props := gopter.NewProperties(params)
	props.Property("safe, within budget, every pod housed, deterministic", prop.ForAll(func(sp spec) string {
		c := sp.cluster()
		o := consolidation.Options{Repack: sp.Repack}
		r, err := consolidation.Plan(c, o)
		if err != nil {
			return err.Error()
		}
		again, _ := consolidation.Plan(c, o)
		if !reflect.DeepEqual(r, again) {
			return "not deterministic"
		}
		if msg := checkCommands(c, r, sp.Budget); msg != "" {
			return msg
		}
		if len(r.Commands) > 0 {
			if err := consolidation.Validate(r.Commands[0], c); err != nil {
				return "first command does not validate: " + err.Error()
			}
		}
		return ""
	}, genSpec()))
	props.Property("repack saves at least as much as Karpenter's methods", prop.ForAll(func(sp spec) bool {
		c := sp.cluster()
		k, err1 := consolidation.Plan(c, consolidation.Options{})
		m, err2 := consolidation.Plan(c, consolidation.Options{Repack: true})
		return err1 == nil && err2 == nil && savings(m) >= savings(k)
	}, genSpec()))
	props.TestingRun(t)
}

func savings(r consolidation.Result) int64 {
	var s int64
	for _, c := range r.Commands {
		s += int64(c.Savings)
	}
	return s
}

// checkCommands returns "" when every command saves, spares protected
// nodes and pods, places every displaced pod, and the commands stay within
// the budget (the generated pool has one count budget for all reasons).
func checkCommands(c consolidation.Cluster, r consolidation.Result, budget int) string {
	byName := map[string]packing.Node{}
	for _, n := range c.Nodes {
		byName[n.Name] = n
	}
	disrupted := 0
	for _, cmd := range r.Commands {
		if cmd.Savings <= 0 {
			return "command does not save: " + cmd.String()
		}
		placed := map[string]bool{}
		for _, p := range cmd.Homes {
			placed[p.Pod.String()] = true
		}
		for _, name := range cmd.Candidates {
			disrupted++
			n, ok := byName[name]
			if !ok {
				continue // a replacement launched by an earlier command
			}
			if blocked, _ := disruption.NodeBlocks(n); blocked {
				return "touched a do-not-disrupt node " + name
			}
			for _, p := range n.Pods {
				if p.DoNotDisrupt != "" {
					return "touched a do-not-disrupt pod on " + name
				}
				if !placed[p.Namespace+"/"+p.Name] && cmd.Method != consolidation.Emptiness {
					return "pod without a home: " + p.Name
				}
			}
		}
	}
	if disrupted > budget {
		return fmt.Sprintf("%d nodes disrupted, budget %d", disrupted, budget)
	}
	return ""
}
