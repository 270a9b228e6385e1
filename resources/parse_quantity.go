package resources

import (
	"math"
	"math/big"
	"math/bits"
	"strconv"
)

// ParseQuantity parses a Kubernetes quantity: an optional sign, decimal
// digits with an optional fraction ("1", "1.5", ".5", "1."), and an optional
// suffix — binary Ki Mi Gi Ti Pi Ei, decimal n u m k M G T P E, or an
// exponent e<int> / E<int> ("1e3", "12e-3", "1E+6"). Values are rounded up
// (away from zero) to a multiple of 10^-9, as apimachinery does.
//
// The grammar and rounding are those of k8s.io/apimachinery's ParseQuantity,
// with three deliberate differences: input without any digit ("", ".", "+",
// "Ki"), which apimachinery reads as 0, is rejected; magnitudes above
// math.MaxInt64 whole units or needing more than 19 significant digits return
// [ErrQuantityRange] where apimachinery caps binary values and keeps decimal
// ones in math/big; exponents are not truncated to 32 bits.
//
// Errors are *[QuantityError] values naming s; errors.Is(err,
// [ErrInvalidQuantity]) holds for all of them. O(len(s)); common inputs (at
// most 19 significant digits) do not allocate, longer ones use math/big.
func ParseQuantity(s string) (Quantity, error) {
	q, err := parseQuantity(s)
	if err != nil {
		return Quantity{}, &QuantityError{Input: s, Err: err}
	}
	return q, nil
}

// MustParseQuantity is like [ParseQuantity] but panics on error. It is meant
// for tests and for hard-coded strings.
func MustParseQuantity(s string) Quantity {
	q, err := ParseQuantity(s)
	if err != nil {
		panic(err)
	}
	return q
}

// number is a scanned quantity: sign, the digit runs before and after the
// decimal point, and the value of the suffix.
type number struct {
	neg         bool
	whole, frac string
	shift       uint  // binary suffix: multiply by 2^shift
	exp         int64 // decimal suffix or exponent: multiply by 10^exp
	not         notation
}

func parseQuantity(s string) (Quantity, error) {
	n, rest, ok := scanNumber(s)
	if !ok {
		return Quantity{}, ErrInvalidQuantity
	}
	if !n.readSuffix(rest) {
		return Quantity{}, ErrInvalidQuantity
	}
	return n.quantity(int64(len(s)))
}

// scanNumber reads the sign and the digits of s and returns the rest.
func scanNumber(s string) (n number, rest string, ok bool) {
	i := 0
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		n.neg = s[i] == '-'
		i++
	}
	j := skipDigits(s, i)
	n.whole, i = s[i:j], j
	if i < len(s) && s[i] == '.' {
		j = skipDigits(s, i+1)
		n.frac, i = s[i+1:j], j
	}
	return n, s[i:], n.whole != "" || n.frac != ""
}

func skipDigits(s string, i int) int {
	for i < len(s) && '0' <= s[i] && s[i] <= '9' {
		i++
	}
	return i
}

// readSuffix interprets suf and records its value and notation in n.
func (n *number) readSuffix(suf string) bool {
	switch suf {
	case "", "n", "u", "m", "k", "M", "G", "T", "P", "E":
		n.exp, n.not = decimalSuffixExp(suf), decimalSI
		return true
	case "Ki", "Mi", "Gi", "Ti", "Pi", "Ei":
		n.shift, n.not = binarySuffixShift(suf), binarySI
		return true
	}
	if len(suf) < 2 || (suf[0] != 'e' && suf[0] != 'E') {
		return false
	}
	e, err := strconv.ParseInt(suf[1:], 10, 64)
	n.exp, n.not = e, decimalExponent
	return err == nil
}

func decimalSuffixExp(suf string) int64 {
	for i, s := range decimalSuffixes {
		if s == suf {
			return int64(3*i + minExp)
		}
	}
	return 0
}

func binarySuffixShift(suf string) uint {
	for i, s := range binarySuffixes {
		if s == suf {
			return uint(10 * i)
		}
	}
	return 0
}

// digitAt returns the i-th digit of whole followed by frac.
func (n *number) digitAt(i int) byte {
	if i < len(n.whole) {
		return n.whole[i] - '0'
	}
	return n.frac[i-len(n.whole)] - '0'
}

// significant returns the index range [first, last] of the non-zero-bounded
// digits; ok is false when every digit is zero.
func (n *number) significant() (first, last int, ok bool) {
	total := len(n.whole) + len(n.frac)
	for first < total && n.digitAt(first) == 0 {
		first++
	}
	if first == total {
		return 0, 0, false
	}
	last = total - 1
	for n.digitAt(last) == 0 {
		last--
	}
	return first, last, true
}

// quantity computes the value of n; size bounds the exponent arithmetic.
func (n *number) quantity(size int64) (Quantity, error) {
	first, last, ok := n.significant()
	if !ok {
		return Quantity{not: n.not}, nil
	}
	// Clamping the exponent to ±(3·size+40) keeps the arithmetic in int64 and
	// cannot change the outcome: beyond it every non-zero value is either far
	// above the range or far below 10^-9 (which rounds up to 10^-9).
	e := min(max(n.exp, -3*size-40), 3*size+40)
	total := len(n.whole) + len(n.frac)
	scale := e - int64(len(n.frac)) + int64(total-1-last)
	if last-first < 19 {
		m := n.uint64Digits(first, last)
		if hi, lo := bits.Mul64(m, 1<<n.shift); hi == 0 {
			return fromMagnitude(lo, scale, n.neg, n.not)
		}
	}
	return n.bigQuantity(first, last, scale)
}

// uint64Digits returns digits first..last (at most 19 of them) as a number.
func (n *number) uint64Digits(first, last int) uint64 {
	var m uint64
	for i := first; i <= last; i++ {
		m = m*10 + uint64(n.digitAt(i))
	}
	return m
}

// fromMagnitude builds the Quantity ±mag×10^scale, rounding the magnitude up
// to a multiple of 10^-9 and checking the range. mag must be non-zero.
func fromMagnitude(mag uint64, scale int64, neg bool, not notation) (Quantity, error) {
	if scale < minExp {
		mag = ceilDiv(mag, minExp-scale)
		scale = minExp
	}
	for mag%10 == 0 {
		mag /= 10
		scale++
	}
	if scale > maxExp || mag > math.MaxInt64 || (scale > 0 && mag > math.MaxInt64/pow10[scale]) {
		return Quantity{}, ErrQuantityRange
	}
	if not == binarySI && scale < 0 && mag < pow10[-scale] {
		not = decimalSI // apimachinery: a binary value below 1 becomes decimal
	}
	m := int64(mag)
	if neg {
		m = -m
	}
	return Quantity{mant: m, exp: int8(scale), not: not}, nil
}

// ceilDiv returns ceil(mag / 10^d) for mag > 0 and d > 0.
func ceilDiv(mag uint64, d int64) uint64 {
	if d >= int64(len(pow10)) {
		return 1 // mag < 10^20 <= 10^d
	}
	p := pow10[d]
	q := mag / p
	if mag%p != 0 {
		q++
	}
	return q
}

// bigQuantity is the slow path for more than 19 significant digits or a
// binary product beyond 64 bits. scale is the decimal exponent of digit last.
func (n *number) bigQuantity(first, last int, scale int64) (Quantity, error) {
	if scale+int64(last-first) > maxExp {
		return Quantity{}, ErrQuantityRange // at least 10^19 before any shift
	}
	buf := make([]byte, 0, last-first+1)
	for i := first; i <= last; i++ {
		buf = append(buf, '0'+n.digitAt(i))
	}
	m, _ := new(big.Int).SetString(string(buf), 10)
	m.Lsh(m, n.shift)
	if scale < minExp {
		m, scale = bigCeilDiv(m, minExp-scale), minExp
	}
	m, scale = bigTrimZeros(m, scale)
	if !m.IsUint64() {
		return Quantity{}, ErrQuantityRange
	}
	return fromMagnitude(m.Uint64(), scale, n.neg, n.not)
}

// bigCeilDiv returns ceil(m / 10^d) for m > 0 and d > 0.
func bigCeilDiv(m *big.Int, d int64) *big.Int {
	if d > int64(m.BitLen())/3+2 {
		return big.NewInt(1) // 10^d > 8^d >= 2^BitLen > m
	}
	p := new(big.Int).Exp(big.NewInt(10), big.NewInt(d), nil)
	q, r := new(big.Int).QuoRem(m, p, new(big.Int))
	if r.Sign() != 0 {
		q.Add(q, big.NewInt(1))
	}
	return q
}

// bigTrimZeros moves trailing decimal zeros of m > 0 into the exponent.
func bigTrimZeros(m *big.Int, scale int64) (*big.Int, int64) {
	ten := big.NewInt(10)
	q, r := new(big.Int), new(big.Int)
	for {
		q.QuoRem(m, ten, r)
		if r.Sign() != 0 {
			return m, scale
		}
		m, q = q, m
		scale++
	}
}
