package overlay

import (
	"fmt"
	"math/big"
	"strings"

	"github.com/nodeplan/nodeplan/instancetypes"
)

// Adjust returns price changed by change, as Karpenter's AdjustedPrice
// does (K/cloudprovider/types.go:493-525): "" leaves it; an unsigned
// amount ("0.5", the form of spec.price) replaces it; a signed amount
// ("+0.1", "-2") is added; a signed percentage ("+10%", "-15%") scales it
// by 1 + x/100. A negative result is 0.
//
// Karpenter computes in float64 and does not round. A [instancetypes.Price]
// is a whole number of nano-units (1e-9 of the currency), so Adjust
// computes exactly, in rationals, and rounds the result once to the
// nearest nano-unit, halves away from zero: "+10%" of 0.096 is exactly
// 0.1056. A result above [instancetypes.MaxValidPrice] (a million an
// hour) is that maximum, where Karpenter keeps the larger float.
//
// change must match spec.price's or spec.priceAdjustment's pattern
// ([Validate]); anything else is an error wrapping ErrInvalid. It does
// not allocate for "".
func Adjust(price instancetypes.Price, change string) (instancetypes.Price, error) {
	if change == "" {
		return price, nil
	}
	if !pricePattern.MatchString(change) && !adjustmentPattern.MatchString(change) {
		return 0, fmt.Errorf("%w: price change %q is neither a price nor a price adjustment", ErrInvalid, change)
	}
	amount, percent := strings.CutSuffix(change, "%")
	x, ok := new(big.Rat).SetString(amount)
	if !ok { // the patterns admit only decimals
		return 0, fmt.Errorf("%w: price change %q is not a decimal", ErrInvalid, change)
	}
	nanos := big.NewRat(1_000_000_000, 1)
	p := new(big.Rat).SetInt64(int64(price))
	var out *big.Rat
	switch {
	case change[0] != '+' && change[0] != '-':
		out = x.Mul(x, nanos)
	case percent:
		out = p.Mul(p, x.Add(x.Quo(x, big.NewRat(100, 1)), big.NewRat(1, 1)))
	default:
		out = p.Add(p, x.Mul(x, nanos))
	}
	return round(out), nil
}

// round returns r rounded to the nearest whole nano-unit, halves away from
// zero, clamped to 0..MaxValidPrice.
func round(r *big.Rat) instancetypes.Price {
	if r.Sign() <= 0 {
		return 0
	}
	num, den := r.Num(), r.Denom()
	q, m := new(big.Int).QuoRem(num, den, new(big.Int))
	if m.Lsh(m, 1).Cmp(den) >= 0 {
		q.Add(q, big.NewInt(1))
	}
	if !q.IsInt64() || q.Int64() > int64(instancetypes.MaxValidPrice) {
		return instancetypes.MaxValidPrice
	}
	return instancetypes.Price(q.Int64())
}
