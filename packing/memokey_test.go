package packing_test

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nodeplan/nodeplan/packing"
	"github.com/nodeplan/nodeplan/packing/verify"
	"github.com/nodeplan/nodeplan/requirements"
)

// TestLongValueListsDistinct: requirements whose value lists agree on
// their first values and differ further on are different requirements to
// every memo of a solve (signatures, prices, merges). Each pod here admits
// six instance types, five of them too small, and the sixth its own; a
// key that read only the first values would give the second pod the
// first's type.
func TestLongValueListsDistinct(t *testing.T) {
	var specs []typeSpec
	for i := range 5 {
		specs = append(specs, typeSpec{name: fmt.Sprintf("small-%d", i), cpu: 1, memGi: 1, pods: 10})
	}
	specs = append(specs, typeSpec{name: "zz-big-a", cpu: 8, memGi: 16, pods: 10}, typeSpec{name: "zz-big-b", cpu: 8, memGi: 32, pods: 10})
	small := []string{"small-0", "small-1", "small-2", "small-3", "small-4"}
	only := func(big string) podOpt {
		return term(in(requirements.LabelInstanceType, append(small[:len(small):len(small)], big)...))
	}
	for _, zones := range [][]string{nil, {zone1, zone2, zone3}} {
		for _, o := range []packing.Options{{}, {Strategy: packing.Plain}, {Strategy: packing.CostAware}} {
			p := packing.Problem{Catalog: buildCatalog(t, specs), NodePools: []packing.NodePool{pool("default")},
				Pods: []packing.Pod{mkPod("a", req("cpu", "4"), only("zz-big-a")), mkPod("b", req("cpu", "4"), only("zz-big-b"))}}
			if zones != nil {
				for i := range p.Pods {
					p.Pods[i].TopologySpread = []packing.TopologySpread{spreadBy(requirements.LabelZone, 1, "app", "x")}
					p.Pods[i].Labels = map[string]string{"app": "x"}
				}
			}
			plan, err := packing.Solve(p, o)
			require.NoError(t, err)
			assert.Empty(t, verify.Plan(p, plan), "%v %v", zones, o.Strategy)
			types := map[string]string{}
			for _, nc := range plan.NodeClaims {
				for _, i := range nc.Pods {
					types[p.Pods[i].Name] = nc.InstanceType
				}
			}
			assert.Equal(t, map[string]string{"a": "zz-big-a", "b": "zz-big-b"}, types, "%v %v", zones, o.Strategy)
		}
	}
}

// TestLongSelectorsDistinct: two spreads whose selectors read alike (the
// same first values) but differ are two topology counters. Pod y's
// selector matches the two pods already on the node in zone 1; pod x's
// matches none, and is compiled first. Counted with x's counter, y would
// join that node and skew its spread to 3.
func TestLongSelectorsDistinct(t *testing.T) {
	vals := []string{"v1", "v2", "v3", "v4", "v5"}
	sel := func(last string) requirements.Set {
		return requirements.NewSet(requirements.MustNew("app", requirements.In, append(vals[:5:5], last)...))
	}
	spreadOf := func(last string) podOpt {
		return spread(packing.TopologySpread{TopologyKey: requirements.LabelZone, MaxSkew: 1, Selector: sel(last)})
	}
	node := mkNode("n1", "", "default-instance-type", zone1,
		mkPod("y0", req("cpu", "100m"), podLabels("app", "vy")), mkPod("y1", req("cpu", "100m"), podLabels("app", "vy")))
	p := packing.Problem{Catalog: buildCatalog(t, defaultTypes()), NodePools: []packing.NodePool{pool("default")},
		Nodes: []packing.Node{node},
		Pods: []packing.Pod{mkPod("x", req("cpu", "100m"), podLabels("app", "vx"), spreadOf("vx")),
			mkPod("y", req("cpu", "100m"), podLabels("app", "vy"), spreadOf("vy"))}}
	for _, o := range []packing.Options{{}, {Strategy: packing.Plain}, {Strategy: packing.CostAware}} {
		plan, err := packing.Solve(p, o)
		require.NoError(t, err)
		assert.Empty(t, verify.Plan(p, plan), "%v", o.Strategy)
		for _, b := range plan.Bindings {
			assert.NotEqual(t, "y", p.Pods[b.Pod].Name, "%v: y on n1, in zone 1 beside two of its own", o.Strategy)
		}
	}
}
