package packing_test

import (
	"fmt"
	"reflect"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/nodeplan/nodeplan/instancetypes"
	"github.com/nodeplan/nodeplan/internal/problemgen"
	"github.com/nodeplan/nodeplan/packing"
	"github.com/nodeplan/nodeplan/packing/verify"
)

// sharedProblems returns n generated problems that all draw from catalog:
// their own catalogs are replaced by it, so that every Solve reads it.
func sharedProblems(catalog *instancetypes.Catalog, n int) []packing.Problem {
	out := make([]packing.Problem, n)
	for i := range out {
		p := problemgen.Clone(problemgen.Generate(uint64(5<<40+i), problemgen.Size{Pods: 24}))
		p.Catalog = catalog
		for j := range p.NodePools {
			p.NodePools[j].Catalog = nil
		}
		out[i] = p
	}
	return out
}

// TestConcurrentSolveSharedCatalog solves problems sharing one Catalog
// (and each problem shared by several goroutines) in parallel, and checks
// every plan equals the one a lone Solve gives. Run it under the race
// detector: go test -race -run Concurrent ./packing/
func TestConcurrentSolveSharedCatalog(t *testing.T) {
	synthetic, err := instancetypes.Synthetic(80, 7)
	require.NoError(t, err)
	catalogs := map[string]*instancetypes.Catalog{
		"synthetic": synthetic,
		"diverse":   instancetypes.KarpenterDiverse(),
	}
	for _, name := range []string{"synthetic", "diverse"} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			problems := sharedProblems(catalogs[name], 12)
			want := make([]packing.Plan, len(problems))
			for i, p := range problems {
				plan, err := packing.Solve(p, packing.Options{})
				require.NoError(t, err)
				want[i] = plan
			}
			solveAllConcurrently(t, problems, want)
		})
	}
}

// solveAllConcurrently runs 4 goroutines, each solving every problem with
// every strategy in its own order, and compares each Best plan to want.
func solveAllConcurrently(t *testing.T, problems []packing.Problem, want []packing.Plan) {
	const workers = 4
	errs := make(chan error, workers*len(problems))
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			for k := range problems {
				i := (k*(w+1) + w) % len(problems) // a different order per worker
				if err := solveAndCompare(problems[i], want[i]); err != nil {
					errs <- fmt.Errorf("worker %d, problem %d: %w", w, i, err)
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

func solveAndCompare(p packing.Problem, want packing.Plan) error {
	for _, s := range []packing.Strategy{packing.Plain, packing.CostAware} {
		if _, err := packing.Solve(p, packing.Options{Strategy: s}); err != nil {
			return err
		}
	}
	got, err := packing.Solve(p, packing.Options{})
	if err != nil {
		return err
	}
	if !reflect.DeepEqual(got, want) {
		return fmt.Errorf("the plan differs from the one solved alone:\n got %+v\nwant %+v", got, want)
	}
	verify.Plan(p, got) // verify.Plan too reads the shared catalog
	return nil
}
