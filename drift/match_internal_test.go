package drift

import (
	"testing"

	"github.com/leanovate/gopter"
	"github.com/leanovate/gopter/gen"
	"github.com/leanovate/gopter/prop"

	"github.com/nodeplan/nodeplan/packing"
	"github.com/nodeplan/nodeplan/requirements"
)

// TestMismatchAgreesWithMatches checks the allocation-free matcher against
// requirements.Set.Matches on the node's filled-in labels.
func TestMismatchAgreesWithMatches(t *testing.T) {
	p := gopter.DefaultTestParameters()
	p.MinSuccessfulTests = 500
	p.Rng.Seed(3)
	props := gopter.NewProperties(p)
	keys := []string{requirements.LabelZone, requirements.LabelInstanceType, requirements.LabelOS, "custom"}
	vals := []string{"a", "b", "3"}
	ops := []requirements.Operator{requirements.In, requirements.NotIn, requirements.Exists, requirements.DoesNotExist, requirements.Gt, requirements.Lt}
	props.Property("mismatch < 0 iff Matches is nil", prop.ForAll(func(ki, oi, vi []int, has []bool, zone bool) bool {
		var reqs []requirements.Requirement
		for i := range ki {
			op := ops[oi[i]]
			var args []string
			switch op {
			case requirements.In, requirements.NotIn:
				args = []string{vals[vi[i]]}
			case requirements.Gt, requirements.Lt:
				args = []string{"2"}
			}
			reqs = append(reqs, requirements.MustNew(keys[ki[i]], op, args...))
		}
		n := packing.Node{Name: "n", Labels: map[string]string{}}
		for i, k := range keys {
			if has[i] {
				n.Labels[k] = vals[i%len(vals)]
			}
		}
		if zone {
			n.Zone = "b"
		}
		pl := compile(&Template{NodePool: packing.NodePool{Requirements: requirements.NewSet(reqs...)}}, nil)
		i, _, _ := mismatch(pl.reqs, &n)
		return (i < 0) == (pl.t.NodePool.Requirements.Matches(n.EffectiveLabels()) == nil)
	}, gen.SliceOfN(3, gen.IntRange(0, 3)), gen.SliceOfN(3, gen.IntRange(0, 5)), gen.SliceOfN(3, gen.IntRange(0, 2)),
		gen.SliceOfN(4, gen.Bool()), gen.Bool()))
	props.TestingRun(t)
}

func TestNoAllocs(t *testing.T) {
	n := packing.Node{Name: "n", Zone: "a", Labels: map[string]string{requirements.LabelOS: "linux"}}
	pl := compile(&Template{NodePool: packing.NodePool{Requirements: requirements.NewSet(
		requirements.MustNew(requirements.LabelOS, requirements.In, "linux"),
		requirements.MustNew(requirements.LabelZone, requirements.In, "a"))}}, nil)
	set := []string{"sg-1", "sg-2"}
	allocs := testing.AllocsPerRun(1000, func() {
		mismatch(pl.reqs, &n)
		sameSet([]string{"sg-2", "sg-1"}, set)
	})
	if allocs != 0 {
		t.Errorf("allocs = %v; want 0", allocs)
	}
}
