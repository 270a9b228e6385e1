package consolidation_test

import (
	"testing"

	"github.com/nodeplan/nodeplan/consolidation"
	"github.com/nodeplan/nodeplan/internal/problemgen"
	"github.com/nodeplan/nodeplan/packing"
)

// FuzzPlan decodes bytes into a small cluster (problemgen.Decode: its
// nodes, pools, catalog and daemonsets, its pods pending) and plans it:
// Plan must not panic, and on a valid cluster whose existing nodes already
// pass packing.Verify, VerifyCommands must accept the commands.
func FuzzPlan(f *testing.F) {
	for _, seed := range [][]byte{nil, {1}, {3, 1, 4, 1, 5, 9, 2, 6}, []byte("consolidate me"),
		{255, 0, 255, 0, 7, 7, 7, 7, 1, 2, 3}, {9, 200, 13, 44, 5, 0, 0, 1, 8, 3, 3, 3, 3, 90, 2, 1, 1, 60}} {
		f.Add(seed)
	}
	for seed := range uint64(24) {
		p := problemgen.Generate(seed, problemgen.Size{})
		f.Add([]byte(problemgen.Dump(p))[:min(64, len(problemgen.Dump(p)))])
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		p := problemgen.Decode(data)
		c := consolidation.Cluster{Nodes: p.Nodes, NodePools: p.NodePools, Catalog: p.Catalog, DaemonSets: p.DaemonSets,
			Pending: p.Pods, Now: now}
		r, err := consolidation.Plan(c, consolidation.Options{Repack: len(data)%2 == 1})
		if err != nil {
			return
		}
		base := packing.Problem{NodePools: p.NodePools, Catalog: p.Catalog, Nodes: p.Nodes, DaemonSets: p.DaemonSets}
		if len(packing.Verify(base, packing.Plan{})) > 0 {
			return // the snapshot is already invalid; only "no panic" holds
		}
		if v := consolidation.VerifyCommands(c, r.Commands); len(v) > 0 {
			t.Fatalf("violations %v\ncommands %v\n%s", v, r.Commands, problemgen.Dump(p))
		}
	})
}
