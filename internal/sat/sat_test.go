package sat

import (
	"math"
	"math/big"
	"testing"
)

// edges are the values where wrapping starts.
var edges = []int64{math.MinInt64, math.MinInt64 + 1, -1 << 32, -3, -2, -1, 0, 1, 2, 3, 1 << 31,
	1 << 32, math.MaxInt64/2 + 1, math.MaxInt64 - 1, math.MaxInt64}

// clamp is the exact result, saturated.
func clamp(x *big.Int) int64 {
	switch {
	case x.Cmp(big.NewInt(math.MaxInt64)) > 0:
		return math.MaxInt64
	case x.Cmp(big.NewInt(math.MinInt64)) < 0:
		return math.MinInt64
	}
	return x.Int64()
}

func TestAgainstBigInt(t *testing.T) {
	for _, a := range edges {
		for _, b := range edges {
			x, y := big.NewInt(a), big.NewInt(b)
			if got, want := Add(a, b), clamp(new(big.Int).Add(x, y)); got != want {
				t.Errorf("Add(%d, %d) = %d; want %d", a, b, got, want)
			}
			if got, want := Sub(a, b), clamp(new(big.Int).Sub(x, y)); got != want {
				t.Errorf("Sub(%d, %d) = %d; want %d", a, b, got, want)
			}
			if got, want := Mul(a, b), clamp(new(big.Int).Mul(x, y)); got != want {
				t.Errorf("Mul(%d, %d) = %d; want %d", a, b, got, want)
			}
		}
	}
}
