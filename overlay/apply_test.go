package overlay_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nodeplan/nodeplan/instancetypes"
	"github.com/nodeplan/nodeplan/overlay"
	"github.com/nodeplan/nodeplan/packing"
	"github.com/nodeplan/nodeplan/resources"
)

const (
	fuse     resources.Name = "smarter-devices/fuse"
	buz      resources.Name = "smarter-devices/buz"
	hugepage resources.Name = "hugepages-1Gi"
)

func fuseOf(n int64) resources.List { return capacity(resources.Amount{Name: fuse, Value: n}) }

// TestApplyStatus: which overlays apply, conflict or are invalid. Rows
// from K/controllers/nodeoverlay/suite_test.go, on the fake provider's six
// types ("Requirements Validations" reset the provider) unless said.
func TestApplyStatus(t *testing.T) {
	S, C, I, N := overlay.Applied, overlay.Conflict, overlay.Invalid, overlay.SelectsNothing
	a := func(w int32, price string, rs ...overlay.Requirement) overlay.Overlay {
		return overlay.Overlay{Name: "overlay-a", Weight: w, Price: price, Requirements: rs}
	}
	b := func(w int32, price string, rs ...overlay.Requirement) overlay.Overlay {
		return overlay.Overlay{Name: "overlay-b", Weight: w, Price: price, Requirements: rs}
	}
	withAdj := func(o overlay.Overlay, adj string) overlay.Overlay { o.Price, o.PriceAdjustment = "", adj; return o }
	withCap := func(o overlay.Overlay, c resources.List) overlay.Overlay { o.Price, o.Capacity = "", c; return o }
	named := func(o overlay.Overlay, name string) overlay.Overlay { o.Name = name; return o }
	long := "test.com.test/test-" + string(make([]byte, 250))
	for i := range 250 {
		long = long[:19+i] + "a" + long[20+i:]
	}
	tests := []struct {
		name     string
		overlays []overlay.Overlay
		want     map[string]overlay.Status
		with     string // the overlay the loser conflicts with
	}{
		// suite_test.go:118
		{"single overlay", []overlay.Overlay{a(10, "", req(itype, "In", defaultType))}, map[string]overlay.Status{"overlay-a": S}, ""},
		// suite_test.go:139: a key of 269 characters fails run-time validation
		{"invalid key", []overlay.Overlay{a(10, "", req(long, "Exists"))}, map[string]overlay.Status{"overlay-a": I}, ""},
		// restricted domain and hostname (v1.IsRestrictedLabel)
		{"restricted label", []overlay.Overlay{a(10, "", req("karpenter.sh/custom", "Exists")), b(10, "", req("kubernetes.io/hostname", "In", "n1"))},
			map[string]overlay.Status{"overlay-a": I, "overlay-b": I}, ""},
		// nodeoverlay_validation_test.go:101: karpenter.sh/nodepool is allowed
		{"nodepool key", []overlay.Overlay{a(10, "1", req("karpenter.sh/nodepool", "In", "default"))}, map[string]overlay.Status{"overlay-a": S}, ""},
		// capacity type with only unknown values (validateWellKnownValues)
		{"unknown capacity type", []overlay.Overlay{a(10, "1", req(ct, "In", "cheap"))}, map[string]overlay.Status{"overlay-a": I}, ""},
		// suite_test.go:189: arch In [arm64] and capacity type Exists overlap on arm-instance-type
		{"overlap", []overlay.Overlay{a(10, "1.03", req("kubernetes.io/arch", "In", "arm64")), b(10, "23", req(ct, "Exists"))},
			map[string]overlay.Status{"overlay-a": C, "overlay-b": S}, "overlay-b"},
		// suite_test.go:234: arch arm64 vs os ios select the same arm type... but the suite's own catalog there has
		// an arm type without ios; here os "plan9" selects nothing, which nodeplan reports
		{"disjoint", []overlay.Overlay{a(10, "1.03", req("kubernetes.io/arch", "In", "arm64")), b(10, "23", req("kubernetes.io/os", "In", "plan9"))},
			map[string]overlay.Status{"overlay-a": S, "overlay-b": N}, ""},
		// suite_test.go:331: zones [1, 4] vs capacity type Exists overlap on zone 1
		{"overlap on zone", []overlay.Overlay{a(10, "1.03", req(zone, "In", "test-zone-1", "test-zone-4")), b(10, "23", req(ct, "Exists"))},
			map[string]overlay.Status{"overlay-a": C, "overlay-b": S}, "overlay-b"},
		// suite_test.go:376
		{"overlap on capacity type", []overlay.Overlay{a(10, "1.03", req(ct, "Exists")), b(10, "23", req(ct, "In", "spot"))},
			map[string]overlay.Status{"overlay-a": C, "overlay-b": S}, "overlay-b"},
		// suite_test.go:421: zones [6, 4] select no offering; spot does
		{"disjoint offerings", []overlay.Overlay{a(10, "1.03", req(zone, "In", "test-zone-6", "test-zone-4")), b(10, "23", req(ct, "In", "spot"))},
			map[string]overlay.Status{"overlay-a": N, "overlay-b": S}, ""},
		// suite_test.go:515 table: price 1.03 vs 23
		{"price conflict", []overlay.Overlay{a(10, "1.03", req(itype, "In", defaultType, smallType)), b(10, "23", req(itype, "In", defaultType, "gpu-vendor-instance-type"))},
			map[string]overlay.Status{"overlay-a": C, "overlay-b": S}, "overlay-b"},
		// suite_test.go:515 table: adjustments +54 vs -2
		{"adjustment conflict", []overlay.Overlay{withAdj(a(10, "", req(itype, "In", defaultType, smallType)), "+54"), withAdj(b(10, "", req(itype, "In", defaultType, "gpu-vendor-instance-type")), "-2")},
			map[string]overlay.Status{"overlay-a": C, "overlay-b": S}, "overlay-b"},
		// suite_test.go:565: the same value still conflicts
		{"same price conflicts", []overlay.Overlay{a(10, "100", req(itype, "In", defaultType, smallType)), b(10, "100", req(itype, "In", defaultType, "gpu-vendor-instance-type"))},
			map[string]overlay.Status{"overlay-a": C, "overlay-b": S}, "overlay-b"},
		// suite_test.go:615: In vs NotIn
		{"mutually exclusive", []overlay.Overlay{a(10, "1", req(itype, "In", defaultType)), b(10, "2", req(itype, "NotIn", defaultType))},
			map[string]overlay.Status{"overlay-a": S, "overlay-b": S}, ""},
		// suite_test.go:664: weights 10 and 20
		{"different weights", []overlay.Overlay{a(10, "1", req(itype, "In", defaultType)), b(20, "2", req(itype, "In", defaultType, "gpu-vendor-instance-type"))},
			map[string]overlay.Status{"overlay-a": S, "overlay-b": S}, ""},
		// unset weights are 0 and equal
		{"unset weights conflict", []overlay.Overlay{a(0, "1", req(itype, "In", defaultType)), b(0, "2")},
			map[string]overlay.Status{"overlay-a": C, "overlay-b": S}, "overlay-b"},
		// suite_test.go:715: fuse 1 vs fuse 54
		{"capacity conflict", []overlay.Overlay{withCap(a(10, "", req(itype, "In", defaultType, smallType)), fuseOf(1)), withCap(b(10, "", req(itype, "In", defaultType, "gpu-vendor-instance-type")), fuseOf(54))},
			map[string]overlay.Status{"overlay-a": C, "overlay-b": S}, "overlay-b"},
		// suite_test.go:765: good{fuse}, then conflicting-2{hugepage}, then conflicting-1{hugepage}: only the last conflicts
		{"capacity quirk", []overlay.Overlay{
			named(withCap(a(10, "", req(itype, "In", defaultType, smallType)), capacity(resources.Amount{Name: hugepage, Value: 2 << 30})), "conflicting-overlay-1"),
			named(withCap(a(10, "", req(itype, "In", defaultType)), fuseOf(1)), "good-overlay-1"),
			named(withCap(a(10, "", req(itype, "In", defaultType)), capacity(resources.Amount{Name: hugepage, Value: 3 << 30})), "conflicting-overlay-2")},
			map[string]overlay.Status{"conflicting-overlay-1": C, "good-overlay-1": S, "conflicting-overlay-2": S}, "conflicting-overlay-2"},
		// the quirk the other way: A{fuse}, B{hugepage}, C{fuse} at one weight does not flag C (store.go:200-236)
		{"capacity quirk unflagged", []overlay.Overlay{
			named(withCap(a(10, "", req(itype, "In", defaultType)), fuseOf(1)), "c"),
			named(withCap(a(10, "", req(itype, "In", defaultType)), capacity(resources.Amount{Name: hugepage, Value: 1})), "b"),
			named(withCap(a(10, "", req(itype, "In", defaultType)), fuseOf(2)), "a")},
			map[string]overlay.Status{"a": S, "b": S, "c": S}, ""},
		// suite_test.go:836: identical capacity still conflicts
		{"same capacity conflicts", []overlay.Overlay{withCap(a(10, "", req(itype, "In", defaultType, smallType)), fuseOf(54)), withCap(b(10, "", req(itype, "In", defaultType, "gpu-vendor-instance-type")), fuseOf(54))},
			map[string]overlay.Status{"overlay-a": C, "overlay-b": S}, "overlay-b"},
		// suite_test.go:886
		{"capacity exclusive", []overlay.Overlay{withCap(a(10, "", req(itype, "In", defaultType)), fuseOf(54)), withCap(b(10, "", req(itype, "NotIn", defaultType)), fuseOf(5))},
			map[string]overlay.Status{"overlay-a": S, "overlay-b": S}, ""},
		// suite_test.go:936
		{"capacity weights", []overlay.Overlay{withCap(a(10, "", req(itype, "In", defaultType)), fuseOf(55)), withCap(b(20, "", req(itype, "In", defaultType, "gpu-vendor-instance-type")), fuseOf(5))},
			map[string]overlay.Status{"overlay-a": S, "overlay-b": S}, ""},
		// suite_test.go:986
		{"capacity different resources", []overlay.Overlay{withCap(a(10, "", req(itype, "In", defaultType)), fuseOf(55)), withCap(b(10, "", req(itype, "In", defaultType, "gpu-vendor-instance-type")), capacity(resources.Amount{Name: buz, Value: 5}))},
			map[string]overlay.Status{"overlay-a": S, "overlay-b": S}, ""},
		// a price and a capacity overlay of one weight do not conflict (suite_test.go:2504)
		{"price and capacity", []overlay.Overlay{withAdj(a(10, "", req(itype, "In", defaultType)), "+1000.0"), withCap(b(10, "", req(itype, "In", defaultType)), fuseOf(1))},
			map[string]overlay.Status{"overlay-a": S, "overlay-b": S}, ""},
		// an undefined custom label selects nothing; NotIn of it selects everything
		{"undefined label", []overlay.Overlay{a(10, "1", req("example.com/team", "In", "x")), b(20, "2", req("example.com/team", "NotIn", "x"))},
			map[string]overlay.Status{"overlay-a": N, "overlay-b": S}, ""},
	}
	cat := catalogOf(t, fakeTypes()...)
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res, err := overlay.Apply(cat, poolsOf("default"), tc.overlays)
			require.NoError(t, err)
			assert.Equal(t, tc.want, statuses(res.Report))
			for _, o := range res.Report {
				if o.Status == overlay.Conflict {
					assert.Equal(t, tc.with, o.With)
				}
			}
		})
	}
}

// TestApplyPrices: the prices each pool's catalog holds after Apply. Rows
// from K/controllers/nodeoverlay/suite_test.go "Price Updates", on the
// suite's one type (spot in test-zone-1 at 1.02) unless said; pool "two"
// is the suite's nodePoolTwo.
func TestApplyPrices(t *testing.T) {
	spotOD := itOf(defaultType, offering("test-zone-1", instancetypes.Spot, 1.02), offering("test-zone-2", instancetypes.OnDemand, 5.02))
	spotSpot := itOf(defaultType, offering("test-zone-1", instancetypes.Spot, 1.02), offering("test-zone-2", instancetypes.Spot, 5.02))
	np := req("karpenter.sh/nodepool", "In", "default")
	labelled := []packing.NodePool{{Name: "default"}, {Name: "two", Labels: map[string]string{"test-label": "test-value"}}}
	ov := func(name string, w int32, change string, rs ...overlay.Requirement) overlay.Overlay {
		o := overlay.Overlay{Name: name, Weight: w, Requirements: rs}
		if change[0] == '+' || change[0] == '-' {
			o.PriceAdjustment = change
		} else {
			o.Price = change
		}
		return o
	}
	tests := []struct {
		name     string
		typ      instancetypes.InstanceType
		pools    []packing.NodePool
		overlays []overlay.Overlay
		want     map[string]float64 // key(pool, type, zone) -> dollars
	}{
		// suite_test.go:105: no overlay
		{"none", suiteType(), poolsOf("default"), nil, map[string]float64{key("default", defaultType, "test-zone-1"): 1.02}},
		// suite_test.go:1079: price 13234.223 for the pool named, not the other
		{"price by nodepool", suiteType(), poolsOf("default", "two"), []overlay.Overlay{ov("o", 10, "13234.223", np)},
			map[string]float64{key("default", defaultType, "test-zone-1"): 13234.223, key("two", defaultType, "test-zone-1"): 1.02}},
		// suite_test.go:1080: +1000 on 1.02
		{"adjustment by nodepool", suiteType(), poolsOf("default", "two"), []overlay.Overlay{ov("o", 10, "+1000", np)},
			map[string]float64{key("default", defaultType, "test-zone-1"): 1001.02, key("two", defaultType, "test-zone-1"): 1.02}},
		// suite_test.go:1146: a template label selects pool two only
		{"template label", suiteType(), labelled, []overlay.Overlay{ov("o", 10, "13234.223", req("test-label", "In", "test-value"))},
			map[string]float64{key("default", defaultType, "test-zone-1"): 1.02, key("two", defaultType, "test-zone-1"): 13234.223}},
		// suite_test.go:1189: an invalid overlay changes nothing
		{"invalid", suiteType(), poolsOf("default"), []overlay.Overlay{ov("o", 10, "+1000", req("karpenter.sh/x", "Exists"))},
			map[string]float64{key("default", defaultType, "test-zone-1"): 1.02}},
		// suite_test.go:1224: no overlap
		{"no overlap", suiteType(), poolsOf("default"), []overlay.Overlay{ov("o", 10, "13234.223", req(itype, "In", "default-instance-type-not-found"))},
			map[string]float64{key("default", defaultType, "test-zone-1"): 1.02}},
		// suite_test.go:1284: on-demand only
		{"capacity type", spotOD, poolsOf("default"), []overlay.Overlay{ov("o", 10, "12321.32", req(ct, "In", "on-demand"))},
			map[string]float64{key("default", defaultType, "test-zone-2"): 12321.32, key("default", defaultType, "test-zone-1"): 1.02}},
		{"capacity type adjustment", spotOD, poolsOf("default"), []overlay.Overlay{ov("o", 10, "+1000", req(ct, "In", "on-demand"))},
			map[string]float64{key("default", defaultType, "test-zone-2"): 1005.02, key("default", defaultType, "test-zone-1"): 1.02}},
		// suite_test.go:1349: zone 1 only
		{"zone", spotSpot, poolsOf("default"), []overlay.Overlay{ov("o", 10, "121.421", req(zone, "In", "test-zone-1"))},
			map[string]float64{key("default", defaultType, "test-zone-1"): 121.421, key("default", defaultType, "test-zone-2"): 5.02}},
		// suite_test.go:1414: zones 2 and 4 take one overlay, spot the other
		{"two overlays", threeOfferings(), poolsOf("default"), []overlay.Overlay{ov("z", 10, "121.421", req(zone, "In", "test-zone-2", "test-zone-4")), ov("s", 10, "165.421", req(ct, "In", "spot"))},
			map[string]float64{key("default", defaultType, "test-zone-2"): 121.421, key("default", defaultType, "test-zone-4"): 121.421, key("default", defaultType, "test-zone-1"): 165.421}},
		{"two adjustments", threeOfferings(), poolsOf("default"), []overlay.Overlay{ov("z", 10, "+201", req(zone, "In", "test-zone-2", "test-zone-4")), ov("s", 10, "-0.5", req(ct, "In", "spot"))},
			map[string]float64{key("default", defaultType, "test-zone-2"): 203.02, key("default", defaultType, "test-zone-4"): 205.02, key("default", defaultType, "test-zone-1"): 0.52}},
		// suite_test.go:1520: the higher weight wins zone 2, the lower keeps zone 4
		{"weights", threeOfferings(), poolsOf("default"), []overlay.Overlay{ov("a-test-100", 20, "121.421", req(zone, "In", "test-zone-2")), ov("b-test-100", 10, "165.421", req(zone, "In", "test-zone-2", "test-zone-4"))},
			map[string]float64{key("default", defaultType, "test-zone-2"): 121.421, key("default", defaultType, "test-zone-4"): 165.421, key("default", defaultType, "test-zone-1"): 1.02}},
		{"weighted adjustments", threeOfferings(), poolsOf("default"), []overlay.Overlay{ov("a-test-100", 20, "+201", req(zone, "In", "test-zone-2")), ov("b-test-100", 10, "-1.5", req(zone, "In", "test-zone-2", "test-zone-4"))},
			map[string]float64{key("default", defaultType, "test-zone-2"): 203.02, key("default", defaultType, "test-zone-4"): 2.52}},
		// AdjustedPrice clamps at 0
		{"clamp", suiteType(), poolsOf("default"), []overlay.Overlay{ov("o", 0, "-5")}, map[string]float64{key("default", defaultType, "test-zone-1"): 0}},
		// a reservation id In selects nothing: the base set (the type's requirements) does not define the label
		{"reservation In", threeOfferings(), poolsOf("default"), []overlay.Overlay{ov("o", 1, "0.01", req("karpenter.k8s.aws/capacity-reservation-id", "In", "cr-test-zone-4"))},
			map[string]float64{key("default", defaultType, "test-zone-4"): 4.02, key("default", defaultType, "test-zone-2"): 2.02}},
		// NotIn passes the base set and leaves out the reserved offering of that id (Offerings.Compatible)
		{"reservation NotIn", threeOfferings(), poolsOf("default"), []overlay.Overlay{ov("o", 1, "0.01", req("karpenter.k8s.aws/capacity-reservation-id", "NotIn", "cr-test-zone-4"))},
			map[string]float64{key("default", defaultType, "test-zone-4"): 4.02, key("default", defaultType, "test-zone-2"): 0.01, key("default", defaultType, "test-zone-1"): 0.01}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cat := catalogOf(t, tc.typ)
			res, err := overlay.Apply(cat, tc.pools, tc.overlays)
			require.NoError(t, err)
			for k, want := range tc.want {
				var pool, typ, z string
				splitKey(k, &pool, &typ, &z)
				assert.Equal(t, usd(want), price(t, cat, res, pool, typ, z), k)
			}
		})
	}
}

// TestApplyCapacity: the capacity of the adjusted types. Rows from
// suite_test.go "Capacity Updates".
func TestApplyCapacity(t *testing.T) {
	zones := []instancetypes.InstanceType{
		itOf("default-instance-type-zone-one", offering("test-zone-1", instancetypes.Spot, 1.02)),
		itOf("default-instance-type-zone-two", offering("test-zone-2", instancetypes.OnDemand, 2.02)),
		itOf("default-instance-type-zone-four", offering("test-zone-4", instancetypes.Reserved, 4.02))}
	hp := func(n int64) resources.List { return capacity(resources.Amount{Name: hugepage, Value: n}) }
	tests := []struct {
		name     string
		types    []instancetypes.InstanceType
		pools    []string
		overlays []overlay.Overlay
		want     map[string]int64 // pool/type/resource -> value (0: absent)
	}{
		// suite_test.go:1807: capacity only for the pool named
		{"by nodepool", []instancetypes.InstanceType{suiteType()}, []string{"default", "two"},
			[]overlay.Overlay{{Name: "o", Weight: 10, Capacity: fuseOf(1), Requirements: reqs(req("karpenter.sh/nodepool", "In", "default"))}},
			map[string]int64{"default/" + defaultType + "/" + string(fuse): 1, "two/" + defaultType + "/" + string(fuse): 0}},
		// suite_test.go:2029: zone overlay gives fuse to zone two and four types, spot overlay hugepages to zone one
		{"several types", zones, []string{"default"},
			[]overlay.Overlay{{Name: "z", Weight: 10, Capacity: fuseOf(1), Requirements: reqs(req(zone, "In", "test-zone-2", "test-zone-4"))},
				{Name: "s", Weight: 10, Capacity: hp(2 << 30), Requirements: reqs(req(ct, "In", "spot"))}},
			map[string]int64{"default/default-instance-type-zone-one/" + string(hugepage): 2 << 30, "default/default-instance-type-zone-one/" + string(fuse): 0,
				"default/default-instance-type-zone-two/" + string(fuse): 1, "default/default-instance-type-zone-four/" + string(fuse): 1}},
		// suite_test.go:2124: two overlays merge on one type
		{"merged", zones[:1], []string{"default"},
			[]overlay.Overlay{{Name: "f", Weight: 10, Capacity: fuseOf(1), Requirements: reqs(req(itype, "In", "default-instance-type-zone-one"))},
				{Name: "h", Weight: 10, Capacity: hp(2 << 30), Requirements: reqs(req(itype, "In", "default-instance-type-zone-one"))}},
			map[string]int64{"default/default-instance-type-zone-one/" + string(hugepage): 2 << 30, "default/default-instance-type-zone-one/" + string(fuse): 1}},
		// suite_test.go:2277: the higher weight wins the resource
		{"weight wins", []instancetypes.InstanceType{suiteType()}, []string{"default"},
			[]overlay.Overlay{{Name: "overlay-a", Weight: 10, Capacity: fuseOf(5), Requirements: reqs(req(itype, "In", defaultType))},
				{Name: "overlay-b", Weight: 20, Capacity: fuseOf(99), Requirements: reqs(req(itype, "In", defaultType))}},
			map[string]int64{"default/" + defaultType + "/" + string(fuse): 99}},
		// a capacity replaces the type's own value (lo.Assign, K/cloudprovider/types.go:313-316)
		{"replaces", []instancetypes.InstanceType{withGPU(suiteType(), 8)}, []string{"default"},
			[]overlay.Overlay{{Name: "o", Capacity: capacity(resources.Amount{Name: resources.GPU, Value: 4})}},
			map[string]int64{"default/" + defaultType + "/" + string(resources.GPU): 4}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cat := catalogOf(t, tc.types...)
			res, err := overlay.Apply(cat, poolsOf(tc.pools...), tc.overlays)
			require.NoError(t, err)
			for k, want := range tc.want {
				var pool, typ, name string
				splitKey(k, &pool, &typ, &name)
				it := typeIn(t, cat, res, pool, typ)
				assert.Equal(t, want, it.Capacity.Get(resources.Name(name)), k)
				assert.Equal(t, want, it.Allocatable.Get(resources.Name(name)), k+" allocatable")
			}
		})
	}
}

func withGPU(t instancetypes.InstanceType, n int64) instancetypes.InstanceType {
	t.Capacity = t.Capacity.With(resources.GPU, n)
	return t
}

// TestNoPartialApplication: a conflict anywhere leaves the overlay off
// every type and pool. suite_test.go:1624 (types), :1699 (pools), :2335,
// :2404 (capacity).
func TestNoPartialApplication(t *testing.T) {
	cat := catalogOf(t, fakeTypes()...)
	gpuB := "gpu-vendor-b-instance-type"
	tests := []struct {
		name  string
		a, b  overlay.Overlay
		pools []string
	}{
		{"price types", overlay.Overlay{Name: "overlay-a", Weight: 10, Price: "382", Requirements: reqs(req(itype, "In", defaultType, smallType, gpuB))},
			overlay.Overlay{Name: "overlay-b", Weight: 10, Price: "100", Requirements: reqs(req(itype, "In", smallType, "gpu-vendor-instance-type"))}, []string{"default"}},
		{"adjustment pools", overlay.Overlay{Name: "overlay-a", Weight: 10, PriceAdjustment: "-23", Requirements: reqs(req(itype, "In", defaultType, smallType, gpuB))},
			overlay.Overlay{Name: "overlay-b", Weight: 10, PriceAdjustment: "+10", Requirements: reqs(req(itype, "In", smallType, "gpu-vendor-instance-type"))}, []string{"default", "two"}},
		{"capacity", overlay.Overlay{Name: "overlay-a", Weight: 10, Capacity: capacity(resources.Amount{Name: buz, Value: 54}), Requirements: reqs(req(itype, "In", defaultType, smallType, gpuB))},
			overlay.Overlay{Name: "overlay-b", Weight: 10, Capacity: capacity(resources.Amount{Name: buz, Value: 21}), Requirements: reqs(req(itype, "In", smallType, "gpu-vendor-instance-type"))}, []string{"default", "two"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res, err := overlay.Apply(cat, poolsOf(tc.pools...), []overlay.Overlay{tc.a, tc.b})
			require.NoError(t, err)
			assert.Equal(t, map[string]overlay.Status{"overlay-a": overlay.Conflict, "overlay-b": overlay.Applied}, statuses(res.Report))
			for _, pool := range tc.pools {
				for _, name := range []string{defaultType, gpuB} { // overlay-a's alone: untouched
					got := typeIn(t, cat, res, pool, name)
					orig, _ := cat.Get(name)
					assert.Equal(t, orig.Offerings, got.Offerings, pool+"/"+name)
					assert.Equal(t, orig.Capacity, got.Capacity, pool+"/"+name)
				}
				got, _ := cat.Get(smallType)
				assert.NotEqual(t, got, typeIn(t, cat, res, pool, smallType), "overlay-b applied to "+pool)
			}
		})
	}
}

func splitKey(k string, parts ...*string) {
	i := 0
	for _, p := range parts[:len(parts)-1] {
		j := i
		for k[j] != '/' {
			j++
		}
		*p, i = k[i:j], j+1
	}
	*parts[len(parts)-1] = k[i:]
}
