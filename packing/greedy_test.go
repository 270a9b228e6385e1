package packing_test

import (
	"fmt"
	"runtime"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/nodeplan/nodeplan/instancetypes"
	"github.com/nodeplan/nodeplan/internal/problemgen"
	"github.com/nodeplan/nodeplan/packing"
)

// TestGreedyAtOnceAsSearch: when each strategy runs only its two greedy
// passes (one restart), running the four at once gives the plan of the
// searches run in turn, on generated problems under generated options
// (their limit policies, preferences and strategies included) and on
// 1,000 pods of a few shapes, where one restart is the default.
func TestGreedyAtOnceAsSearch(t *testing.T) {
	aws, err := instancetypes.AWS(instancetypes.Options{})
	require.NoError(t, err)
	var cases []planCase
	for seed := range uint64(80) {
		o := problemgen.GenerateOptions(seed)
		o.Restarts = 1
		p := problemgen.Generate(seed, problemgen.Size{Pods: 24})
		cases = append(cases,
			planCase{fmt.Sprintf("generated %d", seed), p, o},
			planCase{fmt.Sprintf("generated %d, default options", seed), p, packing.Options{Restarts: 1}})
	}
	for seed := range uint64(2) {
		cases = append(cases,
			planCase{fmt.Sprintf("shapes on AWS %d", seed), shapesProblem(aws, 1000, seed), packing.Options{}},
			planCase{fmt.Sprintf("mixed on diverse %d", seed), mixedProblem(instancetypes.KarpenterDiverse(), 1000, seed), packing.Options{}})
	}
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	for _, procs := range []int{runtime.GOMAXPROCS(0), 1, 4} { // the tasks as the machine runs them, on one goroutine, on four
		runtime.GOMAXPROCS(procs)
		t.Run(fmt.Sprintf("GOMAXPROCS=%d", procs), func(t *testing.T) { requireSamePlans(t, cases, packing.SolveSequential) })
	}
}
