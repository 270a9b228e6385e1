package consolidation_test

import (
	"fmt"
	"reflect"
	"runtime"
	"testing"

	"github.com/nodeplan/nodeplan/consolidation"
	"github.com/nodeplan/nodeplan/internal/problemgen"
)

// TestSpeculationSameCommands: on two cores, each search simulates the
// move it likely tries next ahead (multi-node, single-node, and the
// repack's scan and growth); Plan's result is the same as without
// speculation, on the fragmented clusters with and without Repack and on
// the generated ones, and both the read and the stopped (cancelled) moves
// ahead occur.
func TestSpeculationSameCommands(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(2))
	var read, stopped int
	check := func(name string, c consolidation.Cluster, o consolidation.Options) {
		t.Helper()
		want, _, _, errOff := consolidation.PlanSpeculating(c, o, false)
		got, r, s, errOn := consolidation.PlanSpeculating(c, o, true)
		if errOff != nil || errOn != nil {
			t.Fatalf("%s: errors %v, %v", name, errOff, errOn)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("%s: with speculation\n%v\nwithout\n%v", name, got.Commands, want.Commands)
		}
		read, stopped = read+r, stopped+s
	}
	for seed := range uint64(100) {
		check(fmt.Sprintf("fragmentedCluster(%d)", seed), fragmentedCluster(seed), consolidation.Options{})
		check(fmt.Sprintf("fragmentedCluster(%d), Repack", seed), fragmentedCluster(seed), consolidation.Options{Repack: true})
	}
	for seed := range uint64(200) {
		seed += 7 << 40
		p := problemgen.Generate(seed, problemgen.Size{})
		check(fmt.Sprintf("generated %d", seed), generatedCluster(p, seed), generatedOptions(seed))
	}
	check("fragmented(200)", fragmented(200), consolidation.Options{})
	check("fragmented(200), Repack", fragmented(200), consolidation.Options{Repack: true})
	t.Logf("tries ahead: %d read, %d stopped", read, stopped)
	if read == 0 || stopped == 0 {
		t.Fatalf("tries ahead: %d read, %d stopped: the test exercises neither path", read, stopped)
	}
}
