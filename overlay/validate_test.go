package overlay_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nodeplan/nodeplan/instancetypes"
	"github.com/nodeplan/nodeplan/overlay"
	"github.com/nodeplan/nodeplan/resources"
)

// TestValidate: what the CRD schema refuses. Rows from
// K/apis/v1alpha1/nodeoverlay_validation_test.go.
func TestValidate(t *testing.T) {
	base := func() overlay.Overlay {
		return overlay.Overlay{Name: "o", Requirements: reqs(req(ct, "Exists"))} // :40-49
	}
	with := func(f func(*overlay.Overlay)) overlay.Overlay { o := base(); f(&o); return o }
	price := func(s string) overlay.Overlay { return with(func(o *overlay.Overlay) { o.Price = s }) }
	adj := func(s string) overlay.Overlay { return with(func(o *overlay.Overlay) { o.PriceAdjustment = s }) }
	tests := []struct {
		name  string
		o     overlay.Overlay
		field string // "" when valid
	}{
		{"base", base(), ""},
		{"In without values :53", with(func(o *overlay.Overlay) { o.Requirements = reqs(req(zone, "In")) }), "spec.requirements[0]"},
		{"NotIn without values :60", with(func(o *overlay.Overlay) { o.Requirements = reqs(req(zone, "NotIn")) }), "spec.requirements[0]"},
		{"unsupported op :132", with(func(o *overlay.Overlay) { o.Requirements = reqs(req(zone, "Within", "a")) }), "spec.requirements[0]"},
		{"Gt no value :205", with(func(o *overlay.Overlay) { o.Requirements = reqs(req(zone, "Gt")) }), "spec.requirements[0]"},
		{"Gt two values :205", with(func(o *overlay.Overlay) { o.Requirements = reqs(req(zone, "Gt", "1", "2")) }), "spec.requirements[0]"},
		{"Lt a :205", with(func(o *overlay.Overlay) { o.Requirements = reqs(req(zone, "Lt", "a")) }), "spec.requirements[0]"},
		{"Gte -1 :221", with(func(o *overlay.Overlay) { o.Requirements = reqs(req(zone, "Gte", "-1")) }), "spec.requirements[0]"},
		{"Lte 0 ok", with(func(o *overlay.Overlay) { o.Requirements = reqs(req("example.com/gen", "Lte", "0")) }), ""},
		{"empty requirements :195", with(func(o *overlay.Overlay) { o.Requirements = nil }), ""},
		{"101 requirements", with(func(o *overlay.Overlay) {
			o.Requirements = make([]overlay.Requirement, 101)
			for i := range o.Requirements {
				o.Requirements[i] = req(zone, "Exists")
			}
		}), "spec.requirements"},
		{"both prices :238", with(func(o *overlay.Overlay) { o.Price, o.PriceAdjustment = "0.432", "+10%" }), "spec"},
		{"unsigned adjustment % :267", adj("1%"), "spec.priceAdjustment"},
		{"unsigned adjustment :271", adj("1"), "spec.priceAdjustment"},
		{"unsigned adjustment float :275", adj("1.3"), "spec.priceAdjustment"},
		{"-101.1% :264", adj("-101.1%"), "spec.priceAdjustment"},
		{"-150%", adj("-150%"), "spec.priceAdjustment"},
		{"+1% :279", adj("+1%"), ""},
		{"-1% :283", adj("-1%"), ""},
		{"-100% :287", adj("-100%"), ""},
		{"+100.102% :291", adj("+100.102%"), ""},
		{"+298% :295", adj("+298%"), ""},
		{"+43 :299", adj("+43"), ""},
		{"-43 :303", adj("-43"), ""},
		{"+34.43 :307", adj("+34.43"), ""},
		{"-34.43 :311", adj("-34.43"), ""},
		{"-.5", adj("-.5"), ""},
		{"price 43 :338", price("43"), ""},
		{"price 34.43 :342", price("34.43"), ""},
		{"capacity custom :348", with(func(o *overlay.Overlay) { o.Capacity = fuseOf(1) }), ""},
		{"capacity cpu :355", with(func(o *overlay.Overlay) { o.Capacity = resources.List{CPU: 1000} }), "spec.capacity.cpu"},
		{"capacity memory :362", with(func(o *overlay.Overlay) { o.Capacity = resources.List{Memory: 1} }), "spec.capacity.memory"},
		{"capacity pods :369", with(func(o *overlay.Overlay) { o.Capacity = resources.List{Pods: 1} }), "spec.capacity.pods"},
		{"capacity ephemeral-storage", with(func(o *overlay.Overlay) { o.Capacity = resources.List{EphemeralStorage: 1} }), "spec.capacity.ephemeral-storage"},
		{"weight 10001", with(func(o *overlay.Overlay) { o.Weight = 10001 }), "spec.weight"},
		{"weight -1", with(func(o *overlay.Overlay) { o.Weight = -1 }), "spec.weight"},
		{"weight 10000", with(func(o *overlay.Overlay) { o.Weight = 10000 }), ""},
		{"no name", with(func(o *overlay.Overlay) { o.Name = "" }), "metadata.name"},
	}
	// nodeoverlay_validation_test.go:322-336: price strings the pattern refuses
	for _, s := range []string{"+42", ".5", "42.", "42%", "3,14", "1e10", "0x42", "forty-two", "42a", "42 ", " 42", "42.0.0", "-", ".", "-.42", "-100.0%", "-129"} {
		tests = append(tests, struct {
			name  string
			o     overlay.Overlay
			field string
		}{"price " + s, price(s), "spec.price"})
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := overlay.Validate(tc.o)
			if tc.field == "" {
				require.NoError(t, err)
				return
			}
			require.ErrorIs(t, err, overlay.ErrInvalid)
			var fe *overlay.FieldError
			require.ErrorAs(t, err, &fe)
			assert.Equal(t, tc.field, fe.Field)
			assert.Equal(t, tc.o.Name, fe.Overlay)
		})
	}
}

// TestRuntimeInvalid: what Karpenter refuses only at run time makes the
// overlay Invalid. Rows from nodeoverlay_validation_test.go.
func TestRuntimeInvalid(t *testing.T) {
	tests := []struct {
		name string
		r    overlay.Requirement
		ok   bool
	}{
		{"valid key :67", req("test.com/test", "Exists"), true},
		{"key with brace :84", req("test.com.com}", "Exists"), false},
		{"upper-case prefix :84", req("Test.com/test", "Exists"), false},
		{"two slashes :84", req("test/test/test", "Exists"), false},
		{"empty name :84", req("test/", "Exists"), false},
		{"empty prefix :84", req("/test", "Exists"), false},
		{"nodepool :101", req("karpenter.sh/nodepool", "In", "default"), true},
		{"too long :108", req("test.com.test/test-"+strings.Repeat("a", 250), "Exists"), false},
		{"restricted domain :141", req("karpenter.sh/test", "In", "test"), false},
		{"restricted AWS domain :141", req("karpenter.k8s.aws/test", "In", "test"), false},
		{"restricted subdomain", req("x.karpenter.sh/test", "In", "test"), false},
		{"kubernetes domain :150", req("kubernetes.io/test", "In", "test"), true},
		{"kubernetes subdomain :162", req("subdomain.kubernetes.io/test", "In", "test"), true},
		{"well known :174", req("node.kubernetes.io/instance-type", "In", "test"), true},
		{"hostname", req("kubernetes.io/hostname", "In", "n1"), false},
		{"bad value", req("example.com/a", "In", "not a value"), false},
		{"capacity type unknown", req(ct, "In", "test"), false},
		{"capacity type one known", req(ct, "In", "test", "spot"), true},
	}
	cat := catalogOf(t, suiteType())
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			o := overlay.Overlay{Name: "o", Requirements: reqs(tc.r)}
			require.NoError(t, overlay.Validate(o))
			res, err := overlay.Apply(cat, poolsOf("default"), []overlay.Overlay{o})
			require.NoError(t, err)
			got := res.Report[0]
			assert.Equal(t, tc.ok, got.Status != overlay.Invalid, got.String())
			assert.Equal(t, tc.ok, got.Reason == "", got.Reason)
		})
	}
}

// TestAdjust: Karpenter's AdjustedPrice (K/cloudprovider/types.go:493-525)
// on exact prices.
func TestAdjust(t *testing.T) {
	tests := []struct {
		price  float64
		change string
		want   instancetypes.Price
	}{
		{1.02, "", usd(1.02)},
		{1.02, "13234.223", usd(13234.223)},              // suite_test.go:1079
		{1.02, "+1000", usd(1001.02)},                    // :1080
		{1.02, "-0.5", usd(0.52)},                        // :1414
		{0.096, "+10%", usd(0.1056)},                     // exact, where float64 is not
		{0.096, "-100%", 0},                              // -100%
		{0.096, "-15%", usd(0.0816)},                     // -15%
		{1, "+150%", usd(2.5)},                           // +N% for any N
		{1, "-5", 0},                                     // clamp
		{0.000000001, "+50%", 2},                         // 1.5 nano-units rounds half up
		{0.000000003, "-50%", 2},                         // 1.5 again
		{1, "999999999999", instancetypes.MaxValidPrice}, // capped
		{1, "+.5", usd(1.5)},
	}
	for _, tc := range tests {
		got, err := overlay.Adjust(usd(tc.price), tc.change)
		require.NoError(t, err, tc.change)
		assert.Equal(t, tc.want, got, "%v %s", tc.price, tc.change)
	}
	for _, bad := range []string{"x", "1e3", "+", "--1", "+1%%", "10%"} {
		_, err := overlay.Adjust(1, bad)
		assert.ErrorIs(t, err, overlay.ErrInvalid, bad)
	}
}

// TestApplyErrors: schema errors and duplicate names fail Apply.
func TestApplyErrors(t *testing.T) {
	cat := catalogOf(t, suiteType())
	_, err := overlay.Apply(cat, poolsOf("default"), []overlay.Overlay{{Name: "a"}, {Name: "a"}})
	require.ErrorIs(t, err, overlay.ErrDuplicate)
	_, err = overlay.Apply(cat, poolsOf("default"), []overlay.Overlay{{Name: "a", Price: "-1"}})
	require.ErrorIs(t, err, overlay.ErrInvalid)
	assert.ErrorContains(t, err, `NodeOverlay "a": spec.price`)
}
