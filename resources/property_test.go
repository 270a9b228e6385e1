package resources

import (
	"math"
	"testing"

	"github.com/leanovate/gopter"
	"github.com/leanovate/gopter/gen"
	"github.com/leanovate/gopter/prop"
)

// properties returns deterministic gopter parameters (fixed seed).
func properties() *gopter.Properties {
	p := gopter.DefaultTestParametersWithSeed(20240601)
	p.MinSuccessfulTests = 500
	return gopter.NewProperties(p)
}

// genQuantity yields quantities across the whole representable range, in
// every notation.
func genQuantity() gopter.Gen {
	mant := gen.OneGenOf(gen.Int64Range(-2048, 2048), gen.Int64Range(-math.MaxInt64, math.MaxInt64),
		gen.Int64Range(-64, 64).Map(func(v int64) int64 { return v << 30 }))
	return gopter.CombineGens(mant, gen.IntRange(minExp, maxExp), gen.IntRange(0, 2)).Map(func(v []any) Quantity {
		return clampQuantity(v[0].(int64), v[1].(int), notation(v[2].(int)))
	})
}

// clampQuantity builds m×10^e, lowering e until the value is in range.
func clampQuantity(m int64, e int, not notation) Quantity {
	if m == 0 {
		return Quantity{not: not}
	}
	for ; ; e-- {
		if q, err := fromMagnitude(abs(m), int64(e), m < 0, not); err == nil {
			return q
		}
	}
}

var extNames = []Name{AMDGPU, Neuron, GPU, PodENI}

// genList yields Lists with small values (so that Add and Sub do not
// saturate) and a random subset of extended resources.
func genList() gopter.Gen {
	v := gen.Int64Range(-1<<40, 1<<40)
	ext := gen.SliceOfN(len(extNames), gen.OneGenOf(gen.Const(int64(0)), gen.Int64Range(-8, 8)))
	return gopter.CombineGens(v, v, v, v, ext).Map(func(v []any) List {
		amounts := []Amount{{CPU, v[0].(int64)}, {Memory, v[1].(int64)}, {EphemeralStorage, v[2].(int64)}, {Pods, v[3].(int64)}}
		for i, x := range v[4].([]int64) {
			amounts = append(amounts, Amount{extNames[i], x})
		}
		return New(amounts...)
	})
}

func TestQuantityProperties(t *testing.T) {
	p := properties()
	p.Property("Parse(q.String()) equals q", prop.ForAll(func(q Quantity) bool {
		// Value is preserved exactly. The text is a fixed point after one
		// round: a binary value such as 181000 prints without a suffix and
		// re-parses as decimal ("181k"), exactly as in apimachinery.
		back, err := ParseQuantity(q.String())
		again, err2 := ParseQuantity(back.String())
		return err == nil && err2 == nil && back.Cmp(q) == 0 && again == back
	}, genQuantity()))
	p.Property("Cmp is antisymmetric and agrees with Value", prop.ForAll(func(a, b Quantity) bool {
		c := a.Cmp(b)
		return c == -b.Cmp(a) && (c >= 0 || a.Value() <= b.Value()) && (a.Cmp(a) == 0)
	}, genQuantity(), genQuantity()))
	p.Property("Cmp is transitive", prop.ForAll(func(a, b, c Quantity) bool {
		return !(a.Cmp(b) <= 0 && b.Cmp(c) <= 0) || a.Cmp(c) <= 0
	}, genQuantity(), genQuantity(), genQuantity()))
	p.Property("Value rounds away from zero", prop.ForAll(func(q Quantity) bool {
		v := MustParseQuantity(q.String()).Value()
		w := clampQuantity(v, 0, decimalSI)
		return (q.Sign() >= 0 && w.Cmp(q) >= 0) || (q.Sign() < 0 && w.Cmp(q) <= 0)
	}, genQuantity()))
	p.TestingRun(t)
}

func TestListProperties(t *testing.T) {
	p := properties()
	p.Property("Add and Sub are inverse", prop.ForAll(func(a, b List) bool {
		return a.Add(b).Sub(b).Equal(a) && a.Sub(b).Add(b).Equal(a)
	}, genList(), genList()))
	p.Property("Add is commutative", prop.ForAll(func(a, b List) bool {
		return a.Add(b).Equal(b.Add(a))
	}, genList(), genList()))
	p.Property("Fits agrees with Shortfall and Get", prop.ForAll(func(a, b List) bool {
		n, short := a.Shortfall(b)
		return a.Fits(b) == !short && (!short || a.Get(n) > b.Get(n))
	}, genList(), genList()))
	p.Property("Fits matches every dimension", prop.ForAll(func(a, b List) bool {
		fits := true
		for _, n := range append([]Name{CPU, Memory, EphemeralStorage, Pods}, extNames...) {
			fits = fits && a.Get(n) <= b.Get(n)
		}
		return fits == a.Fits(b)
	}, genList(), genList()))
	p.Property("Compare is a total order consistent with Equal", prop.ForAll(func(a, b, c List) bool {
		ab, bc := a.Compare(b), b.Compare(c)
		transitive := !(ab <= 0 && bc <= 0) || a.Compare(c) <= 0
		return ab == -b.Compare(a) && (ab == 0) == a.Equal(b) && transitive && a.Compare(a) == 0
	}, genList(), genList(), genList()))
	p.Property("Max is the per-dimension least upper bound", prop.ForAll(func(a, b List) bool {
		m := a.Max(b)
		for _, n := range append([]Name{CPU, Memory, EphemeralStorage, Pods}, extNames...) {
			if m.Get(n) != max(a.Get(n), b.Get(n)) {
				return false
			}
		}
		return a.Fits(m) && b.Fits(m) && m.Equal(b.Max(a))
	}, genList(), genList()))
	p.TestingRun(t)
}
