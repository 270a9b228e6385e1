package parallel

import (
	"fmt"
	"runtime"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestRangeCoversOnce checks that every index is visited exactly once, in
// ranges no longer than the chunk, for several GOMAXPROCS.
func TestRangeCoversOnce(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	for _, procs := range []int{1, 2, 4} {
		runtime.GOMAXPROCS(procs)
		for _, tc := range []struct{ n, chunk int }{{0, 4}, {1, 4}, {4, 4}, {5, 4}, {100, 7}, {1000, 64}, {10, 0}} {
			t.Run(fmt.Sprintf("procs=%d/n=%d/chunk=%d", procs, tc.n, tc.chunk), func(t *testing.T) {
				seen := make([]int, tc.n)
				var bad atomic.Int64 // ranges too long or empty: counted here, asserted on the test's goroutine
				Range(tc.n, tc.chunk, func() func(lo, hi int) {
					return func(lo, hi int) {
						if hi-lo > max(tc.chunk, 1) || lo >= hi {
							bad.Add(1)
						}
						for i := lo; i < hi; i++ {
							seen[i]++
						}
					}
				})
				assert.Zero(t, bad.Load())
				for i, c := range seen {
					assert.Equal(t, 1, c, "index %d", i)
				}
			})
		}
	}
}

// TestRangePanic checks that a body's panic reaches the caller.
func TestRangePanic(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	for _, procs := range []int{1, 2} {
		runtime.GOMAXPROCS(procs)
		assert.PanicsWithValue(t, "boom", func() {
			Range(100, 10, func() func(lo, hi int) {
				return func(lo, hi int) {
					if lo == 50 {
						panic("boom")
					}
				}
			})
		}, "GOMAXPROCS %d", procs)
	}
}

// TestBoth checks that both functions run and a panic in either reaches
// the caller.
func TestBoth(t *testing.T) {
	var a, b bool
	Both(func() { a = true }, func() { b = true })
	assert.True(t, a && b)
	assert.PanicsWithValue(t, "a", func() { Both(func() { panic("a") }, func() {}) })
	assert.PanicsWithValue(t, "b", func() { Both(func() {}, func() { panic("b") }) })
	assert.PanicsWithValue(t, "a", func() { Both(func() { panic("a") }, func() { panic("b") }) })
}
