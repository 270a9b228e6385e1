package overlay_test

import (
	"errors"
	"reflect"
	"testing"

	"github.com/nodeplan/nodeplan/instancetypes"
	"github.com/nodeplan/nodeplan/overlay"
)

// FuzzApply: any price strings and requirement make Apply return an
// error wrapping ErrInvalid, or a report of one outcome, the same twice;
// never a panic. The seeds run in normal tests.
func FuzzApply(f *testing.F) {
	f.Add("1.5", "", itype, "In", defaultType, int32(10))
	f.Add("", "+10%", ct, "NotIn", "spot", int32(0))
	f.Add("", "-100%", zone, "Gt", "3", int32(1))
	f.Add("", "-.5", "karpenter.sh/nodepool", "In", "default", int32(10000))
	f.Add("99999999999999999999999999", "", "x/../y", "Exists", "", int32(-1))
	f.Add("0.1", "+1", "\x00\u202e", "In\n", "'; DROP TABLE", int32(10001))
	f.Add("", "+1e999%", "kubernetes.io/hostname", "Lte", "-9223372036854775809", int32(5))
	f.Add("１", "", "ünïcode/ключ", "DoesNotExist", "💥", int32(3))
	f.Add("", "-99.99999999999999999999%", "a/b", "Gte", "9223372036854775807", int32(7))
	cat := catalogOf(f, fakeTypes()...)
	f.Fuzz(func(t *testing.T, price, adj, key, op, value string, weight int32) {
		o := overlay.Overlay{Name: "f", Weight: weight, Price: price, PriceAdjustment: adj,
			Requirements: reqs(req(key, op, value))}
		valid := overlay.Validate(o) == nil
		res, err := overlay.Apply(cat, poolsOf("default"), []overlay.Overlay{o})
		switch {
		case !valid && !errors.Is(err, overlay.ErrInvalid):
			t.Fatalf("Apply of an invalid overlay: %v", err)
		case valid && (err != nil || len(res.Report) != 1):
			t.Fatalf("Apply = %+v, %v", res, err)
		}
		again, err2 := overlay.Apply(cat, poolsOf("default"), []overlay.Overlay{o})
		if !reflect.DeepEqual(res.Report, again.Report) || (err == nil) != (err2 == nil) {
			t.Fatal("Apply is not deterministic")
		}
	})
}

// FuzzAdjust: a change either matches a CRD pattern and gives a price in
// 0..MaxValidPrice, or is an error; never a panic.
func FuzzAdjust(f *testing.F) {
	for _, s := range []string{"", "0", "1.5", "+1", "-1", "+10%", "-100%", "-99.9%", "+.5", "-.5", "1e9", "+1%%", "NaN", "+Inf", "-0", "٣", "+" + string(make([]byte, 64))} {
		f.Add(int64(1_020_000_000), s)
	}
	f.Add(int64(instancetypes.MaxValidPrice), "+1000000%")
	f.Fuzz(func(t *testing.T, p int64, change string) {
		if p < 0 || p > int64(instancetypes.MaxValidPrice) {
			return // not a catalog price
		}
		got, err := overlay.Adjust(instancetypes.Price(p), change)
		if err != nil {
			if !errors.Is(err, overlay.ErrInvalid) {
				t.Fatalf("Adjust(%d, %q): %v does not wrap ErrInvalid", p, change, err)
			}
			return
		}
		if got < 0 || got > instancetypes.MaxValidPrice {
			t.Fatalf("Adjust(%d, %q) = %d", p, change, got)
		}
	})
}
