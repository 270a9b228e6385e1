package resources

import (
	"cmp"
	"math"
	"strconv"
)

// Bounds of the decimal exponent of a Quantity. Parsing rounds every value up
// (away from zero) to a multiple of 10^-9, as Kubernetes does; the largest
// representable magnitude is math.MaxInt64 whole units, so no exponent above
// 18 can occur.
const (
	minExp = -9
	maxExp = 18
)

// notation records how a Quantity was written; it decides the canonical form
// that String produces. It never affects the value.
type notation uint8

const (
	decimalSI       notation = iota // plain digits with an optional n u m k M G T P E suffix
	binarySI                        // a Ki Mi Gi Ti Pi Ei suffix
	decimalExponent                 // an e or E exponent, such as 1e3
)

// String returns the Kubernetes name of the notation.
func (n notation) String() string {
	switch n {
	case decimalSI:
		return "DecimalSI"
	case binarySI:
		return "BinarySI"
	case decimalExponent:
		return "DecimalExponent"
	}
	return "notation(" + strconv.Itoa(int(n)) + ")"
}

// Quantity is an exact Kubernetes resource quantity such as "100m", "1.5Gi"
// or "1e3": a value mant × 10^exp together with the notation it was written
// in, which only decides the canonical form produced by [Quantity.String].
//
// The zero Quantity is 0. Quantity is a small comparable value type; use
// [Quantity.Cmp] to compare values, since == also compares the notation
// (ParseQuantity("1Ki") and ParseQuantity("1024") are equal in value but not
// under ==). It is safe for concurrent use.
//
// Unlike apimachinery's Quantity, whose magnitude is unbounded (math/big),
// a Quantity's magnitude is at most math.MaxInt64 whole units and its
// mantissa has at most 19 significant digits; [ParseQuantity] rejects
// anything larger with [ErrQuantityRange].
type Quantity struct {
	mant int64 // |mant| <= math.MaxInt64; no trailing decimal zeros unless 0
	exp  int8  // in [minExp, maxExp]; 0 when mant is 0
	not  notation
}

// pow10 holds 10^0 … 10^19 as uint64 (10^19 does not fit an int64).
var pow10 = [...]uint64{
	1, 10, 100, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13,
	1e14, 1e15, 1e16, 1e17, 1e18, 1e19,
}

// Sign returns -1, 0 or +1 as q is negative, zero or positive. O(1).
func (q Quantity) Sign() int {
	return cmp.Compare(q.mant, 0)
}

// IsZero reports whether q is 0. O(1).
func (q Quantity) IsZero() bool {
	return q.mant == 0
}

// Cmp returns -1, 0 or +1 as q is less than, equal to or greater than o in
// value, ignoring notation. O(1), no allocation.
func (q Quantity) Cmp(o Quantity) int {
	s, t := q.Sign(), o.Sign()
	if s != t || s == 0 {
		return cmp.Compare(s, t)
	}
	return s * cmpMagnitude(abs(q.mant), int(q.exp), abs(o.mant), int(o.exp))
}

// cmpMagnitude compares a×10^ea with b×10^eb for non-zero a and b.
func cmpMagnitude(a uint64, ea int, b uint64, eb int) int {
	if oa, ob := digits(a)+ea, digits(b)+eb; oa != ob {
		return cmp.Compare(oa, ob)
	}
	// Same order of magnitude: the digit counts differ by exactly the exponent
	// difference, so the aligned mantissa keeps at most 19 digits.
	if ea > eb {
		a *= pow10[ea-eb]
	} else {
		b *= pow10[eb-ea]
	}
	return cmp.Compare(a, b)
}

// digits returns the number of decimal digits of v > 0.
func digits(v uint64) int {
	n := 1
	for n < len(pow10) && v >= pow10[n] {
		n++
	}
	return n
}

func abs(v int64) uint64 {
	if v < 0 {
		return uint64(-v)
	}
	return uint64(v)
}

// Value returns q rounded to a whole number, away from zero as Kubernetes
// does (1.1 gives 2, -1.1 gives -2). It cannot overflow. O(1).
func (q Quantity) Value() int64 {
	v, _ := q.scaled(0)
	return v
}

// MilliValue returns q×1000 rounded away from zero, as Kubernetes does
// ("1n" gives 1). Magnitudes above math.MaxInt64/1000 saturate at
// math.MaxInt64 or -math.MaxInt64 (Kubernetes would wrap). O(1).
func (q Quantity) MilliValue() int64 {
	v, _ := q.scaled(-3)
	return v
}

// scaled returns q / 10^unit rounded away from zero; ok is false when the
// result saturated.
func (q Quantity) scaled(unit int) (v int64, ok bool) {
	e := int(q.exp) - unit
	if e >= 0 {
		return mulPow10(q.mant, e)
	}
	if -e >= len(pow10) {
		return int64(q.Sign()), true
	}
	p := int64(pow10[-e])
	v = q.mant / p
	if q.mant%p != 0 {
		v += int64(q.Sign())
	}
	return v, true
}

// mulPow10 returns m×10^e, saturating at ±math.MaxInt64 (ok false).
func mulPow10(m int64, e int) (int64, bool) {
	if m == 0 {
		return 0, true
	}
	if e < len(pow10)-1 && abs(m) <= math.MaxInt64/pow10[e] {
		return m * int64(pow10[e]), true
	}
	if m < 0 {
		return -math.MaxInt64, false
	}
	return math.MaxInt64, false
}

// isInteger reports whether q is a whole number.
func (q Quantity) isInteger() bool {
	return q.exp >= 0
}

// decimalSuffixes maps (exp+9)/3 to the SI suffix of 10^exp.
var decimalSuffixes = [...]string{"n", "u", "m", "", "k", "M", "G", "T", "P", "E"}

// binarySuffixes maps k to the suffix of 1024^k.
var binarySuffixes = [...]string{"", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei"}

// String returns the Kubernetes canonical form of q: "1500m" for "1.5",
// "1k" for "1000", "512" for "0.5Ki", "1536Mi" for "1.5Gi", "12e-3" for
// "0.012e0". It is what apimachinery's CanonicalizeBytes produces; unlike
// apimachinery's String it never echoes the input verbatim, so "+1" formats
// as "1" and "1.500" as "1500m". Allocates the result.
func (q Quantity) String() string {
	var buf [32]byte
	return string(q.appendTo(buf[:0]))
}

// appendTo appends the canonical form of q to b.
func (q Quantity) appendTo(b []byte) []byte {
	if q.mant == 0 {
		return append(b, '0')
	}
	if q.not == binarySI && q.exp >= 0 {
		if v, _ := mulPow10(q.mant, int(q.exp)); abs(v) >= 1024 {
			return appendBinary(b, v)
		}
	}
	return q.appendDecimal(b)
}

// appendBinary appends v as digits followed by the largest binary suffix that
// divides it exactly.
func appendBinary(b []byte, v int64) []byte {
	k := 0
	for k < len(binarySuffixes)-1 && v%1024 == 0 {
		v /= 1024
		k++
	}
	return append(strconv.AppendInt(b, v, 10), binarySuffixes[k]...)
}

// appendDecimal appends q with its exponent lowered to a multiple of three.
func (q Quantity) appendDecimal(b []byte) []byte {
	e := int(q.exp)
	zeros := ((e % 3) + 3) % 3
	e -= zeros
	b = strconv.AppendInt(b, q.mant, 10)
	for range zeros {
		b = append(b, '0')
	}
	if q.not != decimalExponent {
		return append(b, decimalSuffixes[(e-minExp)/3]...)
	}
	if e == 0 {
		return b
	}
	return strconv.AppendInt(append(b, 'e'), int64(e), 10)
}
