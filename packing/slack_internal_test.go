package packing

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/nodeplan/nodeplan/resources"
)

// refScan is ascendFrom over a sorted slice, item by item: the reference
// the blocks' skipping must agree with.
func refScan(items []slackItem, probe *claim, cpu, mem int64, visits *int, visit func(*claim) bool) {
	pivot := slackItem{slack: cpu, c: probe}
	for _, it := range items {
		if lessSlack(it, pivot) {
			continue
		}
		if *visits--; *visits < 0 {
			return
		}
		if it.mem >= mem && !visit(it.c) {
			return
		}
	}
}

// TestSlackIndexAgreesWithScan runs random inserts, removals and scans on
// the block index and on a sorted slice: every scan visits the same claims
// in the same order and leaves the same visits count, across block splits
// and emptied blocks; descend visits every claim in reverse order.
func TestSlackIndexAgreesWithScan(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	pl := &pool{alloc: []resources.List{{CPU: 64_000, Memory: 256 << 30}}}
	for run := range 20 {
		s := newSlackIndex()
		var ref []slackItem
		claims := make([]*claim, 600)
		for i := range claims {
			claims[i] = &claim{id: i, pl: pl}
		}
		in := map[*claim]bool{}
		for step := range 4000 {
			c := claims[rng.IntN(len(claims))]
			if in[c] && rng.IntN(2) == 0 {
				s.remove(c)
				ref = slices.DeleteFunc(ref, func(it slackItem) bool { return it.c == c })
				delete(in, c)
			} else {
				if in[c] { // its room changes: out and in again, as commit does
					s.remove(c)
					ref = slices.DeleteFunc(ref, func(it slackItem) bool { return it.c == c })
				}
				c.used = resources.List{CPU: rng.Int64N(20) * 3_200, Memory: rng.Int64N(64) << 32}
				s.insert(c)
				a := pl.alloc[0]
				it := slackItem{slack: a.CPU - c.used.CPU, mem: a.Memory - c.used.Memory, c: c}
				j, _ := slices.BinarySearchFunc(ref, it, func(x, y slackItem) int {
					if lessSlack(x, y) {
						return -1
					}
					if lessSlack(y, x) {
						return 1
					}
					return 0
				})
				ref = slices.Insert(ref, j, it)
				in[c] = true
			}
			if step%7 != 0 {
				continue
			}
			cpu, mem := rng.Int64N(70_000), rng.Int64N(260)<<30
			accept := rng.IntN(5)
			budget := []int{1, 10, 100, 4096}[rng.IntN(4)]
			var got, want []int
			gotV, wantV := budget, budget
			s.ascendFrom(cpu, mem, &gotV, func(c *claim) bool { got = append(got, c.id); return c.id%5 != accept })
			refScan(ref, &s.probe, cpu, mem, &wantV, func(c *claim) bool { want = append(want, c.id); return c.id%5 != accept })
			require.Equal(t, want, got, "run %d step %d", run, step)
			require.Equal(t, wantV, gotV, "run %d step %d visits", run, step)
		}
		var down []int
		s.descend(func(c *claim) bool { down = append(down, c.id); return true })
		require.Len(t, down, len(ref))
		for k, it := range ref {
			require.Equal(t, it.c.id, down[len(down)-1-k])
		}
	}
}
