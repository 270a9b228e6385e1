package overlay

import (
	"testing"

	"github.com/nodeplan/nodeplan/instancetypes"
	"github.com/nodeplan/nodeplan/packing"
	"github.com/nodeplan/nodeplan/requirements"
	"github.com/nodeplan/nodeplan/resources"
)

// TestMatcherAgreesWithBaseSet: the matcher decides what building
// Karpenter's base set (pool ∩ type) and calling StrictlyCompatible
// decides, including for a type that defines a key of the pool's.
func TestMatcherAgreesWithBaseSet(t *testing.T) {
	mk := func(name string, reqs ...requirements.Requirement) *instancetypes.InstanceType {
		return &instancetypes.InstanceType{Name: name, Requirements: requirements.NewSet(reqs...),
			Capacity: resources.List{CPU: 1000}}
	}
	types := []*instancetypes.InstanceType{
		mk("plain", requirements.MustNew(requirements.LabelArch, requirements.In, "amd64")),
		mk("team-y", requirements.MustNew("team", requirements.In, "y")),
		mk("team-xy", requirements.MustNew("team", requirements.In, "x", "y")),
	}
	pools := []packing.NodePool{{Name: "a"}, {Name: "b", Labels: map[string]string{"team": "x"}}}
	overlays := [][]requirements.Requirement{
		nil,
		{requirements.MustNew("team", requirements.In, "x")},
		{requirements.MustNew("team", requirements.NotIn, "x")},
		{requirements.MustNew("team", requirements.DoesNotExist)},
		{requirements.MustNew(requirements.LabelNodePool, requirements.In, "b"), requirements.MustNew(requirements.LabelArch, requirements.In, "amd64")},
		{requirements.MustNew(requirements.LabelNodePool, requirements.NotIn, "b"), requirements.MustNew("team", requirements.Exists)},
	}
	for _, np := range pools {
		base := poolBase(&np)
		for i, rs := range overlays {
			reqs := requirements.NewSet(rs...)
			m := newMatcher(base, reqs)
			for _, it := range types {
				want := base.Intersect(it.Requirements).StrictlyCompatible(reqs) == nil
				if got := m.compatible(it); got != want {
					t.Errorf("pool %s, overlay %d, type %s: matcher %v, base set %v", np.Name, i, it.Name, got, want)
				}
			}
		}
	}
}
