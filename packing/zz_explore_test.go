package packing_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/nodeplan/nodeplan/internal/problemgen"
	"github.com/nodeplan/nodeplan/packing"
)

func TestZZExplore(t *testing.T) {
	start := time.Now()
	bad := 0
	var slow time.Duration
	var slowSeed uint64
	for seed := range uint64(10000) {
		t0 := time.Now()
		p := problemgen.Generate(seed, problemgen.Size{})
		plan, err := packing.Solve(p, packing.Options{})
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		vs := packing.Verify(p, plan)
		if d := time.Since(t0); d > slow {
			slow, slowSeed = d, seed
		}
		if len(vs) > 0 {
			bad++
			if bad <= 15 {
				fmt.Printf("seed %d: %d violations, first: %v\n", seed, len(vs), vs[0])
			}
		}
	}
	fmt.Println("bad", bad, "elapsed", time.Since(start), "slowest", slow, slowSeed)
}
