package packing

import (
	"context"
	"fmt"
	"runtime"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nodeplan/nodeplan/instancetypes"
	"github.com/nodeplan/nodeplan/internal/vouch"
	"github.com/nodeplan/nodeplan/resources"
)

// faultProblem is a small problem with enough pods for several restarts.
func faultProblem() Problem {
	p := Problem{Catalog: instancetypes.KarpenterDiverse(), NodePools: []NodePool{{Name: "default"}}}
	for i := range 12 {
		p.Pods = append(p.Pods, Pod{Namespace: "default", Name: fmt.Sprintf("p%d", i),
			Requests: resources.List{CPU: int64(250 * (1 + i%4)), Memory: int64(1+i%4) << 28}})
	}
	return p
}

// settle waits until at most want goroutines run, as goroutines that have
// returned may take a moment to be gone, and reports how many remain.
func settle(want int) int {
	for range 200 {
		if n := runtime.NumGoroutine(); n <= want {
			return n
		}
		time.Sleep(5 * time.Millisecond)
	}
	return runtime.NumGoroutine()
}

// TestSolveRecoversPanics injects a panic on each of Best's goroutines
// (and on both): Solve returns an error wrapping ErrInternal with the
// panic value and no plan, and no goroutine it started is left.
func TestSolveRecoversPanics(t *testing.T) {
	tests := []struct {
		name  string
		fault func(cost bool)
	}{
		{"cost-aware goroutine", func(cost bool) {
			if cost {
				panic("injected in cost-aware")
			}
		}},
		{"plain", func(cost bool) {
			if !cost {
				panic("injected in plain")
			}
		}},
		{"both", func(cost bool) { panic(fmt.Errorf("injected in both (cost %v)", cost)) }},
	}
	for _, tc := range tests {
		for _, restarts := range []int{16, 1} { // 1: the greedy passes at once (greedyAtOnce)
			t.Run(fmt.Sprintf("%s, restarts %d", tc.name, restarts), func(t *testing.T) {
				before := runtime.NumGoroutine()
				plan, err := solveContext(context.Background(), faultProblem(), Options{Restarts: restarts}, vouch.Nodes{}, hooks{fault: tc.fault})
				require.ErrorIs(t, err, ErrInternal)
				assert.Contains(t, err.Error(), "injected")
				assert.Empty(t, plan.NodeClaims)
				assert.Empty(t, plan.Unschedulable)
				assert.LessOrEqual(t, settle(before), before, "a goroutine of Solve outlived it")
			})
		}
	}
}

// TestSolveOtherStrategyStops: when one strategy panics at once, the other
// stops its restarts instead of running them all.
func TestSolveOtherStrategyStops(t *testing.T) {
	passes := 0
	_, err := solveContext(context.Background(), faultProblem(), Options{Restarts: maxRestartsOption}, vouch.Nodes{}, hooks{fault: func(cost bool) {
		if !cost {
			panic("plain fails")
		}
		passes++
	}})
	require.ErrorIs(t, err, ErrInternal)
	assert.Less(t, passes, 50, "the cost-aware search ran on after the plain one failed")
}

func TestSolveContextCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for _, s := range []Strategy{Best, Plain, CostAware} {
		plan, err := SolveContext(ctx, faultProblem(), Options{Strategy: s})
		assert.ErrorIs(t, err, context.Canceled, s)
		assert.Empty(t, plan.NodeClaims, s)
		assert.Empty(t, plan.Unschedulable, s)
		assert.Equal(t, Plan{}, plan, s)
	}
}

// flipContext is a live context whose Err turns to context.Canceled after
// its first `after` calls (never when after is negative), so that a test
// cancels a solve at a chosen check, without timing.
type flipContext struct {
	context.Context
	after int64
	calls atomic.Int64
}

func (c *flipContext) Err() error {
	if n := c.calls.Add(1); c.after >= 0 && n > c.after {
		return context.Canceled
	}
	return nil
}

// manyPods is faultProblem with enough pods for several checks a pass.
func manyPods() Problem {
	p := faultProblem()
	for i := range 300 {
		p.Pods = append(p.Pods, Pod{Namespace: "default", Name: fmt.Sprintf("q%d", i),
			Requests: resources.List{CPU: int64(100 * (1 + i%7)), Memory: int64(1+i%5) << 27}})
	}
	return p
}

// TestSolveContextCancelledMidSolve cancels a solve at its second check,
// inside the first pass: it returns no plan and context.Canceled, having
// stopped before the checks a full solve makes.
func TestSolveContextCancelledMidSolve(t *testing.T) {
	for _, s := range []Strategy{Best, Plain, CostAware} {
		o := Options{Strategy: s, Restarts: 4}
		live := &flipContext{Context: context.Background(), after: -1}
		_, err := SolveContext(live, manyPods(), o)
		require.NoError(t, err, s)
		full := live.calls.Load()
		require.Greater(t, full, int64(4), "%v: too few checks to cancel in between", s)

		ctx := &flipContext{Context: context.Background(), after: 2}
		plan, err := SolveContext(ctx, manyPods(), o)
		assert.ErrorIs(t, err, context.Canceled, s)
		assert.Equal(t, Plan{}, plan, s)
		assert.Less(t, ctx.calls.Load(), full, "%v: the solve ran to its end", s)
	}
}

// TestSolveContextLive: with a live context, SolveContext gives Solve's
// plan byte for byte.
func TestSolveContextLive(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	for _, s := range []Strategy{Best, Plain, CostAware} {
		o := Options{Strategy: s, Restarts: 4}
		want, err := Solve(manyPods(), o)
		require.NoError(t, err, s)
		for _, c := range []context.Context{ctx, &flipContext{Context: context.Background(), after: -1}} {
			got, err := SolveContext(c, manyPods(), o)
			require.NoError(t, err, s)
			assert.Equal(t, fmt.Sprintf("%#v", want), fmt.Sprintf("%#v", got), s)
		}
	}
}

// TestSearchStopsWhenFree: once a pass places every pod at no charge (on
// the existing nodes), neither strategy runs another pass, as none can
// beat it; without such a pass the restarts run.
func TestSearchStopsWhenFree(t *testing.T) {
	passes := func(p Problem, restarts int) (plain, costed int64) {
		var n [2]atomic.Int64
		plan, err := solveContext(context.Background(), p, Options{Restarts: restarts}, vouch.Nodes{}, hooks{fault: func(cost bool) {
			if cost {
				n[1].Add(1)
			} else {
				n[0].Add(1)
			}
		}})
		require.NoError(t, err)
		require.Empty(t, plan.Unschedulable)
		return n[0].Load(), n[1].Load()
	}
	free := faultProblem()
	free.Nodes = []Node{{Name: "big", Initialized: true, Allocatable: resources.List{CPU: 64_000, Memory: 256 << 30, Pods: 110}}}
	for _, restarts := range []int{16, 1} { // 1: the greedy passes as tasks (greedyAtOnce)
		plain, costed := passes(free, restarts)
		assert.Equal(t, int64(1), plain, "restarts %d: Plain's first pass is free", restarts)
		assert.Equal(t, int64(1), costed, "restarts %d: so is CostAware's", restarts)
	}
	plain, costed := passes(faultProblem(), 16)
	assert.Greater(t, plain, int64(2), "claims to launch: Plain restarts")
	assert.Greater(t, costed, int64(2), "and CostAware")
	plain, costed = passes(faultProblem(), 1)
	assert.Equal(t, [2]int64{2, 2}, [2]int64{plain, costed}, "one restart: each strategy's two greedy passes")
}
