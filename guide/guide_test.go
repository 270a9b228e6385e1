package guide_test

import (
	"errors"
	"fmt"
	"reflect"
	"slices"
	"testing"

	"github.com/leanovate/gopter/prop"

	"github.com/nodeplan/nodeplan/benchmarks"
	"github.com/nodeplan/nodeplan/benchmarks/workload"
	"github.com/nodeplan/nodeplan/bound"
	"github.com/nodeplan/nodeplan/guide"
	"github.com/nodeplan/nodeplan/instancetypes"
	"github.com/nodeplan/nodeplan/internal/problemgen"
	"github.com/nodeplan/nodeplan/packing"
	"github.com/nodeplan/nodeplan/packing/verify"
	"github.com/nodeplan/nodeplan/requirements"
)

func diverse(t testing.TB, n int, seed int64) packing.Problem {
	t.Helper()
	p, err := benchmarks.Problem(workload.KarpenterDiverse(n, seed), nil)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestSolveGuided: on Karpenter's diverse benchmark (1,000 pods) the
// guided plan is cheaper than packing.Solve's, places every pod and
// passes the checker; the bound is ForPlan's of the unguided plan.
func TestSolveGuided(t *testing.T) {
	p := diverse(t, 1000, 1)
	res, err := guide.Solve(p, guide.Options{})
	if err != nil {
		t.Fatal(err)
	}
	base, err := packing.Solve(p, packing.Options{})
	if err != nil {
		t.Fatal(err)
	}
	b, err := bound.ForPlan(p, base, bound.Options{})
	if err != nil {
		t.Fatal(err)
	}
	switch {
	case !res.Guided:
		t.Fatalf("not guided: %v, unguided %v, violations %v", res.Plan.Price, res.Unguided, res.Violations)
	case res.Unguided != base.Price || res.Plan.Price >= base.Price:
		t.Fatalf("guided %v, unguided %v, packing.Solve %v", res.Plan.Price, res.Unguided, base.Price)
	case len(res.Plan.Unschedulable) > 0:
		t.Fatalf("%d pods unschedulable", len(res.Plan.Unschedulable))
	case !reflect.DeepEqual(res.Bound, b):
		t.Fatalf("bound %+v, ForPlan %+v", res.Bound, b)
	}
	if v := verify.Plan(p, res.Plan); len(v) > 0 {
		t.Fatal(v)
	}
	t.Logf("%v → %v (bound %.2f)", base.Price, res.Plan.Price, b.Dollars)
}

// TestSolveTopTypes: on the mixed workload (1,000 pods on the AWS
// catalog, GPU pods beside general ones, the GPU pool open to both) the
// LP runs nearly everything on two GPU types, with a little of a few
// others. Narrowed to all the LP's types, or to those and the first
// plan's, the search packs the GPU pods four to a node on a type the LP
// barely uses; narrowed to each pool's most used types, it follows the
// LP. Solve's plan is cheaper than both of the first two narrowings'.
func TestSolveTopTypes(t *testing.T) {
	cat, err := instancetypes.AWS(instancetypes.Options{})
	if err != nil {
		t.Fatal(err)
	}
	p, err := benchmarks.Problem(workload.Mixed(1000, 42), cat)
	if err != nil {
		t.Fatal(err)
	}
	res, err := guide.Solve(p, guide.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !res.Guided {
		t.Fatalf("not guided: %v, violations %v", res.Plan.Price, res.Violations)
	}
	if v := verify.Plan(p, res.Plan); len(v) > 0 {
		t.Fatal(v)
	}
	base, err := packing.Solve(p, packing.Options{})
	if err != nil {
		t.Fatal(err)
	}
	all := res.Bound.Configurations
	union := slices.Clone(all)
	for _, c := range base.NodeClaims {
		union = append(union, bound.Configuration{NodePool: c.NodePool, Type: c.InstanceType})
	}
	for _, n := range []struct {
		name string
		cs   []bound.Configuration
	}{{"the LP's types", all}, {"with the plan's", union}} {
		t.Run(n.name, func(t *testing.T) {
			q, ok := guide.Narrow(p, n.cs)
			if !ok {
				t.Fatal("not narrowed")
			}
			g, err := packing.Solve(q, packing.Options{})
			if err != nil {
				t.Fatal(err)
			}
			if res.Plan.Price >= g.Price {
				t.Errorf("Solve %v, narrowed %v", res.Plan.Price, g.Price)
			}
		})
	}
	t.Logf("%v → %v (bound %.2f)", res.Unguided, res.Plan.Price, res.Bound.Dollars)
}

// TestNarrow: a pool the configurations name is narrowed to their types,
// within its own requirement; the others and the caller's pools are left
// as they were.
func TestNarrow(t *testing.T) {
	own := requirements.NewSet(requirements.MustNew(requirements.LabelInstanceType, requirements.In, "a", "b", "c"))
	p := packing.Problem{NodePools: []packing.NodePool{{Name: "x", Requirements: own}, {Name: "y"}}}
	before := fmt.Sprint(p.NodePools)
	if _, ok := guide.Narrow(p, nil); ok {
		t.Fatal("narrowed without configurations")
	}
	q, ok := guide.Narrow(p, []bound.Configuration{{NodePool: "x", Type: "b", Nodes: 1}, {NodePool: "x", Type: "d", Nodes: 2}})
	switch {
	case !ok:
		t.Fatal("not narrowed")
	case fmt.Sprint(p.NodePools) != before:
		t.Fatalf("the caller's pools changed: %v", p.NodePools)
	case !slices.Equal(q.NodePools[0].Requirements.Get(requirements.LabelInstanceType).Values(), []string{"b"}):
		t.Fatalf("x: %v", q.NodePools[0].Requirements)
	case q.NodePools[1].Requirements.Len() != 0:
		t.Fatalf("y: %v", q.NodePools[1].Requirements)
	}
}

// TestPropertySolve: on generated problems (spreads, affinities, zones,
// volumes, limits, daemonsets, existing nodes) the result passes the
// checker against the problem as given, costs no more than packing.Solve's
// plan, leaves out the same pods, is deterministic and leaves p as it was.
func TestPropertySolve(t *testing.T) {
	props := problemgen.Properties(2104, 150)
	guided := 0
	props.Property("Solve is a checked plan no dearer than packing.Solve's", prop.ForAll(func(s problemgen.Seeded) string {
		before := problemgen.Clone(s.Problem)
		msg := check(s.Problem)
		if !reflect.DeepEqual(before, s.Problem) {
			msg += "; the problem changed"
		}
		if msg != "" {
			return fmt.Sprintf("seed %d: %s", s.Seed, msg)
		}
		if res, _ := guide.Solve(s.Problem, guide.Options{}); res.Guided {
			guided++
		}
		return ""
	}, problemgen.GenSeeded(problemgen.Size{Pods: 30, Types: 12})))
	props.TestingRun(t)
	t.Logf("guided plans taken: %d", guided)
}

func check(p packing.Problem) (msg string) {
	defer func() {
		if r := recover(); r != nil {
			msg = fmt.Sprintf("panic: %v", r)
		}
	}()
	res, err := guide.Solve(p, guide.Options{})
	base, errBase := packing.Solve(p, packing.Options{})
	switch {
	case errBase != nil:
		if err == nil {
			return fmt.Sprintf("packing.Solve: %v, guide.Solve: no error", errBase)
		}
		return ""
	case err != nil:
		return fmt.Sprintf("guide.Solve: %v", err)
	case res.Plan.Price > base.Price || res.Unguided != base.Price:
		return fmt.Sprintf("price %v (unguided %v), packing.Solve %v", res.Plan.Price, res.Unguided, base.Price)
	case !res.Guided && !reflect.DeepEqual(res.Plan, base):
		return "unguided plan differs from packing.Solve's"
	case fmt.Sprint(unschedulable(res.Plan)) != fmt.Sprint(unschedulable(base)):
		return fmt.Sprintf("unschedulable %v, packing.Solve %v", unschedulable(res.Plan), unschedulable(base))
	}
	if v := verify.Plan(p, res.Plan); len(v) > 0 {
		return fmt.Sprintf("violations %v", v)
	}
	again, err := guide.Solve(p, guide.Options{})
	if err != nil || !reflect.DeepEqual(again, res) {
		return "not deterministic"
	}
	return ""
}

func unschedulable(plan packing.Plan) []packing.Unschedulable {
	out := slices.Clone(plan.Unschedulable)
	slices.SortFunc(out, func(a, b packing.Unschedulable) int { return a.Pod - b.Pod })
	return out
}

// FuzzSolve decodes arbitrary bytes into a problem (problemgen.DecodeRest:
// possibly invalid, with hostile strings and extreme numbers) and checks
// that Solve never panics, rejects an invalid problem with
// packing.ErrInvalidProblem, and otherwise returns a checked plan no
// dearer than packing.Solve's. Its seed corpus runs in the normal go
// test; fuzz it with
//
//	go test -run xxx -fuzz FuzzSolve -fuzztime 10m ./guide/
func FuzzSolve(f *testing.F) {
	f.Add([]byte(nil))
	f.Add([]byte{0})
	f.Add(make([]byte, 256))
	for _, b := range problemgen.RandomInputs(22, 1, 24, 16, 6) {
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		p, _ := problemgen.DecodeRest(data)
		if p.Validate() != nil {
			if _, err := guide.Solve(p, guide.Options{}); !errors.Is(err, packing.ErrInvalidProblem) {
				t.Fatalf("invalid problem: got %v, want ErrInvalidProblem", err)
			}
			return
		}
		if msg := check(p); msg != "" {
			t.Fatalf("%s\n%s", msg, problemgen.Dump(p))
		}
	})
}
