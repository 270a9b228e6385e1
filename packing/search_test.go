package packing_test

import (
	"reflect"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nodeplan/nodeplan/internal/problemgen"
	"github.com/nodeplan/nodeplan/packing"
	"github.com/nodeplan/nodeplan/packing/verify"
)

// restartProblems are generated problems large enough to have ties.
func restartProblems(n int) []packing.Problem {
	size := problemgen.Size{Pods: 40, Types: 12, Nodes: 2, BoundPods: 2}
	ps := make([]packing.Problem, n)
	for i := range ps {
		ps[i] = problemgen.Generate(uint64(i)+5<<40, size)
	}
	return ps
}

// TestRestartsOnlyImprove: Best with its default restarts places as many
// pods as Best without any, never at a higher price, and is strictly
// cheaper on some problems (else the restarts would be doing nothing).
func TestRestartsOnlyImprove(t *testing.T) {
	cheaper := 0
	for i, p := range restartProblems(150) {
		greedy, err := packing.Solve(p, packing.Options{Restarts: -1})
		require.NoError(t, err)
		searched, err := packing.Solve(p, packing.Options{})
		require.NoError(t, err)
		require.Empty(t, verify.Plan(p, searched), "problem %d", i)
		require.LessOrEqual(t, len(searched.Unschedulable), len(greedy.Unschedulable), "problem %d", i)
		if len(searched.Unschedulable) == len(greedy.Unschedulable) {
			require.LessOrEqual(t, searched.Price, greedy.Price, "problem %d", i)
		}
		if len(searched.Unschedulable) < len(greedy.Unschedulable) || searched.Price < greedy.Price {
			cheaper++
		}
	}
	t.Logf("restarts improved %d of 150 problems", cheaper)
	assert.Positive(t, cheaper, "the restarts improved no problem")
}

// TestRestartsSeed: the same Seed gives the same plan; another Seed may
// give another one, and does on some problem, so the seed reaches the
// tie-breaks.
func TestRestartsSeed(t *testing.T) {
	differs := false
	for _, p := range restartProblems(100) {
		a, err := packing.Solve(p, packing.Options{Restarts: 3, Seed: 1})
		require.NoError(t, err)
		b, err := packing.Solve(p, packing.Options{Restarts: 3, Seed: 1})
		require.NoError(t, err)
		require.Equal(t, a, b)
		c, err := packing.Solve(p, packing.Options{Restarts: 3, Seed: 2})
		require.NoError(t, err)
		differs = differs || !reflect.DeepEqual(a, c)
	}
	assert.True(t, differs, "seeds 1 and 2 gave the same plans on every problem")
}

// TestRestartsOff: Plain and CostAware never restart, nor does Best with a
// negative Restarts: their plans do not depend on Seed or Restarts.
func TestRestartsOff(t *testing.T) {
	cases := []struct{ greedy, seeded packing.Options }{
		{packing.Options{Strategy: packing.Plain}, packing.Options{Strategy: packing.Plain, Restarts: 8, Seed: 7}},
		{packing.Options{Strategy: packing.CostAware}, packing.Options{Strategy: packing.CostAware, Restarts: 8, Seed: 7}},
		{packing.Options{Restarts: -1}, packing.Options{Restarts: -1, Seed: 7}},
	}
	for i, p := range restartProblems(50) {
		for _, tc := range cases {
			want, err := packing.Solve(p, tc.greedy)
			require.NoError(t, err)
			got, err := packing.Solve(p, tc.seeded)
			require.NoError(t, err)
			assert.Equal(t, want, got, "problem %d, %+v", i, tc.seeded)
		}
	}
}
