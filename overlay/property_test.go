package overlay_test

import (
	"fmt"
	"reflect"
	"slices"
	"testing"

	"github.com/leanovate/gopter"
	"github.com/leanovate/gopter/gen"
	"github.com/leanovate/gopter/prop"

	"github.com/nodeplan/nodeplan/instancetypes"
	"github.com/nodeplan/nodeplan/overlay"
	"github.com/nodeplan/nodeplan/packing"
	"github.com/nodeplan/nodeplan/resources"
)

func params() *gopter.TestParameters {
	p := gopter.DefaultTestParameters()
	p.MinSuccessfulTests = 200
	p.Rng.Seed(18)
	return p
}

var (
	genReqs = [][]overlay.Requirement{nil, reqs(req(itype, "In", defaultType)), reqs(req(itype, "NotIn", defaultType)),
		reqs(req(ct, "In", "spot")), reqs(req(zone, "In", "test-zone-2")), reqs(req("karpenter.sh/nodepool", "In", "b")),
		reqs(req("team", "In", "x")), reqs(req("kubernetes.io/arch", "In", "arm64")), reqs(req("karpenter.sh/bad", "Exists"))}
	genPrices = []string{"", "1.5", "+10%", "-0.5", "-100%", "0.25"}
	genCaps   = []resources.List{{}, fuseOf(1), capacity(resources.Amount{Name: buz, Value: 2}), fuseOf(3)}
)

// overlaysOf decodes generated numbers into overlays named o0, o1, ...
func overlaysOf(xs []int) []overlay.Overlay {
	out := make([]overlay.Overlay, len(xs))
	for i, x := range xs {
		o := overlay.Overlay{Name: fmt.Sprintf("o%d", i), Weight: []int32{0, 10, 20}[x%3]}
		x /= 3
		o.Requirements, x = genReqs[x%len(genReqs)], x/len(genReqs)
		p := genPrices[x%len(genPrices)]
		if p != "" && (p[0] == '+' || p[0] == '-') {
			o.PriceAdjustment = p
		} else {
			o.Price = p
		}
		x /= len(genPrices)
		o.Capacity = genCaps[x%len(genCaps)]
		out[i] = o
	}
	return out
}

// snapshot copies every type of c by value, offerings included.
func snapshot(c *instancetypes.Catalog) []instancetypes.InstanceType {
	var out []instancetypes.InstanceType
	for _, t := range c.Types() {
		cp := *t
		cp.Offerings = slices.Clone(t.Offerings)
		out = append(out, cp)
	}
	return out
}

func propPools() []packing.NodePool {
	return []packing.NodePool{{Name: "a"}, {Name: "b", Labels: map[string]string{"team": "x"}}}
}

func genOverlays() gopter.Gen { return gen.SliceOfN(6, gen.IntRange(0, 1<<20)) }

func TestProperties(t *testing.T) {
	cat := catalogOf(t, fakeTypes()...)
	before := snapshot(cat)
	props := gopter.NewProperties(params())
	props.Property("the input catalog and overlays are unchanged", prop.ForAll(func(xs []int) bool {
		ovs := overlaysOf(xs)
		keep := slices.Clone(ovs)
		_, err := overlay.Apply(cat, propPools(), ovs)
		return err == nil && reflect.DeepEqual(before, snapshot(cat)) && reflect.DeepEqual(keep, ovs)
	}, genOverlays()))
	props.Property("the result does not depend on the order of the overlays", prop.ForAll(func(xs []int, rot int) bool {
		ovs := overlaysOf(xs)
		moved := slices.Clone(ovs)
		slices.Reverse(moved)
		if len(moved) > 0 {
			k := rot % len(moved)
			moved = append(moved[k:], moved[:k]...)
		}
		r1, err1 := overlay.Apply(cat, propPools(), ovs)
		r2, err2 := overlay.Apply(cat, propPools(), moved)
		return err1 == nil && err2 == nil && reflect.DeepEqual(r1.Report, r2.Report) && sameCatalogs(cat, r1, r2)
	}, genOverlays(), gen.IntRange(0, 100)))
	own := catalogOf(t, suiteType())
	props.Property("with no overlays every pool keeps its catalog", prop.ForAll(func(mask []bool) bool {
		pools := make([]packing.NodePool, len(mask))
		for i, withOwn := range mask {
			pools[i].Name = fmt.Sprintf("p%d", i)
			if withOwn {
				pools[i].Catalog = own
			}
		}
		res, err := overlay.Apply(cat, pools, nil)
		if err != nil || len(res.NodePools) != len(pools) || len(res.Report) != 0 {
			return false
		}
		for i := range pools {
			if res.NodePools[i].Catalog != pools[i].Catalog || res.NodePools[i].Name != pools[i].Name {
				return false
			}
		}
		return true
	}, gen.SliceOf(gen.Bool())))
	props.Property("every overlay is reported once", prop.ForAll(func(xs []int) bool {
		res, err := overlay.Apply(cat, propPools(), overlaysOf(xs))
		return err == nil && len(res.Report) == len(xs)
	}, genOverlays()))
	props.TestingRun(t)
}

func sameCatalogs(cat *instancetypes.Catalog, a, b overlay.Result) bool {
	pa, pb := packing.Problem{Catalog: cat, NodePools: a.NodePools}, packing.Problem{Catalog: cat, NodePools: b.NodePools}
	for _, np := range propPools() {
		if !reflect.DeepEqual(snapshot(pa.CatalogOf(np.Name)), snapshot(pb.CatalogOf(np.Name))) {
			return false
		}
	}
	return true
}

// TestNoOverlays: with no overlays every pool is returned as given.
func TestNoOverlays(t *testing.T) {
	cat := catalogOf(t, fakeTypes()...)
	own := catalogOf(t, suiteType())
	pools := []packing.NodePool{{Name: "a"}, {Name: "b", Catalog: own}}
	res, err := overlay.Apply(cat, pools, nil)
	if err != nil || !reflect.DeepEqual(pools, res.NodePools) || len(res.Report) != 0 {
		t.Fatalf("Apply with no overlays = %+v, %v; want the pools as given", res, err)
	}
	if res.NodePools[1].Catalog != own {
		t.Fatal("a pool's own catalog was replaced")
	}
}

// TestPlanPrice: the price an applied overlay gives a type is the price
// of the NodeClaim Solve opens on it.
func TestPlanPrice(t *testing.T) {
	cat := catalogOf(t, fakeTypes()...)
	props := gopter.NewProperties(params())
	props.Property("a price override is the plan's node price", prop.ForAll(func(millis int, adjust bool) bool {
		o := overlay.Overlay{Name: "cheap", Weight: 100, Requirements: reqs(req(itype, "In", smallType))}
		want := instancetypes.Price(millis) * 1_000_000
		if adjust { // -x on the 1.00 spot price
			o.PriceAdjustment = fmt.Sprintf("-%d.%03d", (1000-millis)/1000, (1000-millis)%1000)
		} else {
			o.Price = fmt.Sprintf("%d.%03d", millis/1000, millis%1000)
		}
		res, err := overlay.Apply(cat, poolsOf("default"), []overlay.Overlay{o})
		if err != nil || res.Report[0].Status != overlay.Applied {
			return false
		}
		pod := packing.Pod{Namespace: "ns", Name: "p", Requests: resources.List{CPU: 100}}
		plan, err := packing.Solve(packing.Problem{Catalog: cat, NodePools: res.NodePools, Pods: []packing.Pod{pod}}, packing.Options{})
		return err == nil && len(plan.NodeClaims) == 1 && plan.NodeClaims[0].InstanceType == smallType &&
			plan.NodeClaims[0].Offering.Price == want
	}, gen.IntRange(1, 999), gen.Bool()))
	props.TestingRun(t)
}
