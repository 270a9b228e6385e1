// Package sat is saturating integer arithmetic: sums and products that
// stop at the largest or smallest int64 instead of wrapping around. The
// packages use it where a sum runs over a number of objects no validation
// bounds (a plan's price, a pool's committed capacity), so that an
// adversarial input gives a value that is too large, never one of the
// wrong sign. The functions are pure, do not allocate and inline.
package sat

import "math"

// Add returns a+b, or the bound of int64 it passes.
func Add[T ~int64](a, b T) T {
	s := a + b
	switch {
	case b > 0 && s < a:
		return math.MaxInt64
	case b < 0 && s > a:
		return math.MinInt64
	}
	return s
}

// Sub returns a-b, or the bound of int64 it passes.
func Sub[T ~int64](a, b T) T {
	s := a - b
	switch {
	case b < 0 && s < a:
		return math.MaxInt64
	case b > 0 && s > a:
		return math.MinInt64
	}
	return s
}

// Mul returns a·b, or the bound of int64 it passes.
func Mul[T ~int64](a, b T) T {
	if a == 0 || b == 0 {
		return 0
	}
	p := a * b
	if p/b != a || (a == -1 && b == math.MinInt64) || (b == -1 && a == math.MinInt64) {
		if (a < 0) == (b < 0) {
			return math.MaxInt64
		}
		return math.MinInt64
	}
	return p
}
