package consolidation_test

import (
	"errors"
	"math"
	"testing"

	"github.com/nodeplan/nodeplan/consolidation"
	"github.com/nodeplan/nodeplan/internal/problemgen"
	"github.com/nodeplan/nodeplan/packing"
	"github.com/nodeplan/nodeplan/packing/verify"
)

// FuzzPlan decodes bytes into a small cluster (problemgen.Decode: its
// nodes, pools, catalog and daemonsets, its pods pending) and plans it:
// Plan must not panic, and on a valid cluster whose existing nodes already
// pass verify.Plan, VerifyCommands must accept the commands.
func FuzzPlan(f *testing.F) {
	for _, seed := range [][]byte{nil, {1}, {3, 1, 4, 1, 5, 9, 2, 6}, []byte("consolidate me"),
		{255, 0, 255, 0, 7, 7, 7, 7, 1, 2, 3}, {9, 200, 13, 44, 5, 0, 0, 1, 8, 3, 3, 3, 3, 90, 2, 1, 1, 60}} {
		f.Add(seed)
	}
	for seed := range uint64(24) {
		p := problemgen.Generate(seed, problemgen.Size{})
		f.Add([]byte(problemgen.Dump(p))[:min(64, len(problemgen.Dump(p)))])
	}
	// long inputs leave bytes for hostile fields and options
	for _, b := range problemgen.RandomInputs(3, 5, 24, 64, 5) {
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		p, rest := problemgen.DecodeRest(data)
		c := consolidation.Cluster{Nodes: p.Nodes, NodePools: p.NodePools, Catalog: p.Catalog, DaemonSets: p.DaemonSets,
			Pending: p.Pods, Now: now}
		o := decodeOptions(rest, len(data)%2 == 1)
		r, err := consolidation.Plan(c, o)
		switch {
		case err != nil && !errors.Is(err, consolidation.ErrInvalidCluster) && !errors.Is(err, consolidation.ErrInvalidOptions):
			t.Fatalf("Plan returned an error that names neither the cluster nor the options: %v", err)
		case err != nil && errors.Is(err, consolidation.ErrInvalidOptions) && o.Validate() == nil:
			t.Fatalf("Plan rejected options Validate accepts: %v", err)
		case err != nil:
			return
		case o.Validate() != nil:
			t.Fatalf("Plan accepted options %+v that Validate rejects", o)
		}
		base := packing.Problem{NodePools: p.NodePools, Catalog: p.Catalog, Nodes: p.Nodes, DaemonSets: p.DaemonSets}
		if len(verify.Plan(base, packing.Plan{})) > 0 {
			return // the snapshot is already invalid; only "no panic" holds
		}
		if v := consolidation.VerifyCommands(c, r.Commands); len(v) > 0 {
			t.Fatalf("violations %v\ncommands %v\n%s", v, r.Commands, problemgen.Dump(p))
		}
	})
}

// decodeOptions reads consolidation options from the bytes Decode left:
// Karpenter's defaults (with repack as asked) once they run out, else
// thresholds and caps among valid, negative, NaN and extreme values, and
// solver options from problemgen.DecodeOptions.
func decodeOptions(s *problemgen.Stream, repack bool) consolidation.Options {
	o := consolidation.Options{Repack: repack}
	if s.IntN(4) != 3 {
		return o
	}
	fractions := []float64{0, 0.5, 1, -0.1, 1.5, math.NaN(), math.Inf(1)}
	counts := []int64{0, 1, 2, 7, -1, math.MinInt64, math.MaxInt64}
	o.MinPriceImprovement = fractions[s.IntN(len(fractions))]
	o.MinScore = fractions[s.IntN(len(fractions))]
	o.SpotToSpot = s.IntN(2) == 1
	o.MaxCandidates = int(s.Pick(counts))
	o.MaxSingle = int(s.Pick(counts))
	o.MaxIterations = int(min(s.Pick(counts), 64)) // a huge cap would only slow the fuzzer
	o.Solver = problemgen.DecodeOptions(s)
	return o
}
