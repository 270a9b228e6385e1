package packing_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/nodeplan/nodeplan/instancetypes"
	"github.com/nodeplan/nodeplan/internal/problemgen"
	"github.com/nodeplan/nodeplan/packing"
	"github.com/nodeplan/nodeplan/requirements"
	"github.com/nodeplan/nodeplan/resources"
)

// twinned returns p with each pending pod followed by copies of itself
// (new names, the same spec), k in all, so that runs of twins are common;
// without limits, no NodePool limit either, so that more pools are stable.
func twinned(p packing.Problem, k int, limits bool) packing.Problem {
	q := problemgen.Clone(p)
	q.Pods = nil
	for _, pod := range p.Pods {
		for j := range k {
			c := pod
			if j > 0 {
				c.Name = fmt.Sprintf("%s-twin%d", pod.Name, j)
			}
			q.Pods = append(q.Pods, c)
		}
	}
	if !limits {
		for i := range q.NodePools {
			q.NodePools[i].Limits = nil
		}
	}
	return q
}

// shapesProblem is n pods of a few shapes, in random order, on cat under
// one NodePool: long runs of twins once ordered.
func shapesProblem(cat *instancetypes.Catalog, n int, seed uint64) packing.Problem {
	shapes := []resources.List{
		{CPU: 250, Memory: 512 << 20}, {CPU: 500, Memory: 1 << 30}, {CPU: 1000, Memory: 2 << 30},
		{CPU: 2000, Memory: 4 << 30}, {CPU: 1000, Memory: 8 << 30}, {CPU: 4000, Memory: 8 << 30},
	}
	rng := rand.New(rand.NewPCG(seed, 3))
	p := packing.Problem{Catalog: cat, NodePools: []packing.NodePool{{Name: "default"}}}
	for i := range n {
		p.Pods = append(p.Pods, packing.Pod{Namespace: "default", Name: fmt.Sprintf("pod-%d", i),
			Requests: shapes[rng.IntN(len(shapes))]})
	}
	return p
}

// mixedProblem is shapesProblem's pods, each with one of: nothing, a
// capacity-type selector, a zone selector, a toleration of the taint of a
// second, heavier NodePool, or a dearer family's requirement: pods of equal
// requests that are not twins meet in the order.
func mixedProblem(cat *instancetypes.Catalog, n int, seed uint64) packing.Problem {
	p := shapesProblem(cat, n, seed)
	p.NodePools = []packing.NodePool{pool("default"), pool("dedicated", poolWeight(10), poolTaint(taint("dedicated", requirements.NoSchedule)))}
	zone := cat.Types()[0].Offerings[0].Zone
	rng := rand.New(rand.NewPCG(seed, 5))
	for i := range p.Pods {
		var opt podOpt
		switch rng.IntN(5) {
		case 1:
			opt = nodeSelector(requirements.LabelCapacityType, "on-demand")
		case 2:
			opt = nodeSelector(requirements.LabelZone, zone)
		case 3:
			opt = tolerate(toleration("dedicated"))
		case 4:
			opt = nodeSelector(requirements.LabelInstanceType, cat.Types()[len(cat.Types())-1].Name)
		default:
			continue
		}
		pod := p.Pods[i]
		q := mkPod(pod.Name, opt)
		q.Requests = pod.Requests
		p.Pods[i] = q
	}
	return p
}

// TestTwinsSamePlans: the answers kept for runs of twins (twins.go) change
// no plan. Each problem is solved with them and without (every claim asked
// again for every pod), under the default options, CostAware alone,
// random restarts and generated options; the plans must be equal.
func TestTwinsSamePlans(t *testing.T) {
	aws, err := instancetypes.AWS(instancetypes.Options{})
	require.NoError(t, err)
	var problems []planCase
	for seed := range uint64(60) {
		p := problemgen.Generate(seed, problemgen.Size{Pods: 24})
		problems = append(problems,
			planCase{name: fmt.Sprintf("generated %d", seed), p: p},
			planCase{name: fmt.Sprintf("generated %d, twinned", seed), p: twinned(p, 3, true)},
			planCase{name: fmt.Sprintf("generated %d, twinned, no limits", seed), p: twinned(p, 3, false)})
	}
	for seed := range uint64(3) {
		problems = append(problems,
			planCase{name: fmt.Sprintf("shapes on AWS %d", seed), p: shapesProblem(aws, 400, seed)},
			planCase{name: fmt.Sprintf("shapes on diverse %d", seed), p: shapesProblem(instancetypes.KarpenterDiverse(), 300, seed)},
			planCase{name: fmt.Sprintf("mixed on AWS %d", seed), p: mixedProblem(aws, 300, seed)},
			planCase{name: fmt.Sprintf("mixed on diverse %d", seed), p: mixedProblem(instancetypes.KarpenterDiverse(), 300, seed)})
	}
	var cases []planCase
	for i, pr := range problems {
		for k, o := range []packing.Options{{}, {Strategy: packing.CostAware}, {Restarts: 6, Seed: uint64(i)}, problemgen.GenerateOptions(uint64(i))} {
			cases = append(cases, planCase{name: fmt.Sprintf("%s, options %d", pr.name, k), p: pr.p, o: o})
		}
	}
	requireSamePlans(t, cases, packing.SolveWithoutTwins)
}

// planCase is a problem, the options to solve it with, and its name.
type planCase struct {
	name string
	p    packing.Problem
	o    packing.Options
}

// requireSamePlans requires Solve and alt to give each case the same plan
// and error.
func requireSamePlans(t *testing.T, cases []planCase, alt func(packing.Problem, packing.Options) (packing.Plan, error)) {
	t.Helper()
	for _, c := range cases {
		want, wantErr := alt(c.p, c.o)
		got, err := packing.Solve(c.p, c.o)
		require.Equal(t, wantErr, err, c.name)
		require.Equal(t, want, got, "%s: %+v", c.name, c.o)
	}
}

// TestMinValuesAskedLazilySamePlans checks that asking minValues only of
// the claims whose move is worth taking (packing's worth) gives the plans
// of asking every claim that takes the pod otherwise: generated problems
// whose pools have minValues, twinned and not, and the minValues benchmark's
// problems.
func TestMinValuesAskedLazilySamePlans(t *testing.T) {
	var problems []planCase
	for seed := uint64(0); len(problems) < 60 && seed < 2000; seed++ {
		p := problemgen.Generate(seed, problemgen.Size{Pods: 24})
		if !slices.ContainsFunc(p.NodePools, hasMinValues) {
			continue
		}
		problems = append(problems,
			planCase{name: fmt.Sprintf("generated %d", seed), p: p},
			planCase{name: fmt.Sprintf("generated %d, twinned", seed), p: twinned(p, 3, false)})
	}
	require.Len(t, problems, 60)
	for _, n := range []int{20, 200} {
		problems = append(problems, planCase{name: fmt.Sprintf("benchmark, %d pods", n), p: minValuesProblem(t, n, true)})
	}
	var cases []planCase
	for i, pr := range problems {
		for k, o := range []packing.Options{{}, {Strategy: packing.CostAware}, {Restarts: 6, Seed: uint64(i)}, problemgen.GenerateOptions(uint64(i))} {
			cases = append(cases, planCase{name: fmt.Sprintf("%s, options %d", pr.name, k), p: pr.p, o: o})
		}
	}
	requireSamePlans(t, cases, packing.SolveEagerMinValues)
}

func hasMinValues(np packing.NodePool) bool {
	for r := range np.Requirements.All() {
		if r.MinValues() > 0 {
			return true
		}
	}
	return false
}
