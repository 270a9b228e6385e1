package repair_test

import (
	"errors"
	"testing"

	"github.com/nodeplan/nodeplan/internal/problemgen"
	"github.com/nodeplan/nodeplan/packing"
	"github.com/nodeplan/nodeplan/packing/verify"
	"github.com/nodeplan/nodeplan/repair"
)

// FuzzPlan: on a cluster problemgen.Decode reads from data (invalid ones
// included) and a Result naming the nodes the mask picks and the extra
// name (hostile strings, a name not in the cluster), Plan never panics; it
// fails with ErrInvalidInput for a name not in the cluster or named
// twice, with packing's error for an invalid cluster, and otherwise
// returns a plan that passes verify.Plan whenever the snapshot does.
func FuzzPlan(f *testing.F) {
	f.Add([]byte{}, uint8(0), "")
	f.Add([]byte{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16}, uint8(0xff), "")
	f.Add([]byte{200, 17, 3, 90, 4, 4, 4, 4, 31, 7, 250, 1, 0, 0, 9}, uint8(0x55), "")
	for _, s := range problemgen.HostileStrings() {
		f.Add([]byte{7, 7, 7, 7, 7, 7, 7, 7}, uint8(1), s)
	}
	f.Fuzz(func(t *testing.T, data []byte, mask uint8, extra string) {
		p := problemgen.Decode(data)
		cl := repair.Cluster{Nodes: p.Nodes, NodePools: p.NodePools, Catalog: p.Catalog, DaemonSets: p.DaemonSets}
		var res repair.Result
		for i, n := range p.Nodes {
			if mask>>(i%8)&1 != 0 {
				res.Replace = append(res.Replace, repair.Repair{Node: n.Name})
			}
		}
		if extra != "" {
			res.Replace = append(res.Replace, repair.Repair{Node: extra})
		}
		rep, err := repair.Plan(res, cl)
		if err != nil {
			if errors.Is(err, repair.ErrInvalidInput) || errors.Is(err, packing.ErrInvalidProblem) {
				return
			}
			t.Fatalf("unexpected error: %v", err)
		}
		base := packing.Problem{Nodes: p.Nodes, NodePools: p.NodePools, Catalog: p.Catalog, DaemonSets: p.DaemonSets}
		if len(verify.Plan(base, packing.Plan{})) > 0 {
			return
		}
		if msg := planProblem(cl, res, rep); msg != "" {
			t.Fatal(msg)
		}
	})
}
