package resources

import (
	"errors"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The expectations below were cross-checked against
// k8s.io/apimachinery v0.34.1 (CanonicalizeBytes, Value, MilliValue); most
// inputs come from its quantity_test.go.
func TestParseQuantityKubernetes(t *testing.T) {
	tests := []struct {
		in     string
		want   string
		value  int64
		milli  int64
		binary bool // notation kept from the input
	}{
		{"0", "0", 0, 0, false},
		{"0n", "0", 0, 0, false},
		{"0Ki", "0", 0, 0, true},
		{"-0", "0", 0, 0, false},
		{"1", "1", 1, 1000, false},
		{"+1", "1", 1, 1000, false},
		{"01", "1", 1, 1000, false},
		{"1.", "1", 1, 1000, false},
		{".5", "500m", 1, 500, false},
		{"1.5", "1500m", 2, 1500, false},
		{"1.500", "1500m", 2, 1500, false},
		{"1.1", "1100m", 2, 1100, false},
		{"-1.1", "-1100m", -2, -1100, false},
		{"-1.5", "-1500m", -2, -1500, false},
		{"100m", "100m", 1, 100, false},
		{"-100m", "-100m", -1, -100, false},
		{"3m", "3m", 1, 3, false},
		{"4u", "4u", 1, 1, false},
		{"5n", "5n", 1, 1, false},
		{"1000", "1k", 1000, 1000000, false},
		{"8k", "8k", 8000, 8000000, false},
		{"50k", "50k", 50000, 50000000, false},
		{"500M", "500M", 500000000, 500000000000, false},
		{"1000M", "1G", 1000000000, 1000000000000, false},
		{"1.G", "1G", 1000000000, 1000000000000, false},
		{"6.987654321G", "6987654321", 6987654321, 6987654321000, false},
		{"5.444T", "5444G", 5444000000000, 5444000000000000, false},
		{"300T", "300T", 300000000000000, 300000000000000000, false},
		{"2.5P", "2500T", 2500000000000000, 2500000000000000000, false},
		{"100.035k", "100035", 100035, 100035000, false},
		{"10.035M", "10035k", 10035000, 10035000000, false},
		{"9.01", "9010m", 10, 9010, false},
		{"0.0005k", "500m", 1, 500, false},
		{".0001k", "100m", 1, 100, false},
		{"1E", "1E", 1000000000000000000, math.MaxInt64, false},
		{"1.01E", "1010P", 1010000000000000000, math.MaxInt64, false},
		{"1e3", "1e3", 1000, 1000000, false},
		{"1E3", "1e3", 1000, 1000000, false},
		{"12e-3", "12e-3", 1, 12, false},
		{"1E-3", "1e-3", 1, 1, false},
		{"1e14", "100e12", 100000000000000, 100000000000000000, false},
		{"1.2e3", "1200", 1200, 1200000, false},
		{"1.3E+6", "1300e3", 1300000, 1300000000, false},
		{"1.40e9", "1400e6", 1400000000, 1400000000000, false},
		{"0.5e0", "500e-3", 1, 500, false},
		{"0.5e-1", "50e-3", 1, 50, false},
		{"15e-1", "1500e-3", 2, 1500, false},
		{"1e-10", "1e-9", 1, 1, false},
		{"1.1E-9", "2e-9", 1, 1, false},
		{"3.001n", "4n", 1, 1, false},
		{"0.9n", "1n", 1, 1, false},
		{"0.0000000001", "1n", 1, 1, false},
		{"0.00000012345", "124n", 1, 1, false},
		{"1.0000000000000000000001", "1000000001n", 2, 1001, false},
		{"1Ki", "1Ki", 1024, 1024000, true},
		{"0.5Ki", "512", 512, 512000, true},
		{".001Ki", "1024m", 2, 1024, true},
		{"0.000000000001Ki", "2n", 1, 1, false},
		{"1.1Ki", "1126400m", 1127, 1126400, true},
		{"100.035Ki", "102435840m", 102436, 102435840, true},
		{"0.5Mi", "512Ki", 524288, 524288000, true},
		{"7Mi", "7Mi", 7340032, 7340032000, true},
		{"1024Mi", "1Gi", 1073741824, 1073741824000, true},
		{"2Gi", "2Gi", 2147483648, 2147483648000, true},
		{"1.5Gi", "1536Mi", 1610612736, 1610612736000, true},
		{"-1Gi", "-1Gi", -1073741824, -1073741824000, true},
		{"0.05Gi", "53687091200m", 53687092, 53687091200, true},
		{"5Ti", "5Ti", 5497558138880, 5497558138880000, true},
		{"0.025Ti", "27487790694400m", 27487790695, 27487790694400, true},
		{"4Pi", "4Pi", 4503599627370496, 4503599627370496000, true},
		{"1.5Ei", "1536Pi", 1729382256910270464, math.MaxInt64, true},
		{"3Ei", "3Ei", 3458764513820540928, math.MaxInt64, true},
		{"0.000000001Ei", "1152921504606846976n", 1152921505, 1152921504607, true},
		{"1.00000000000000000001Ki", "1024000000001n", 1025, 1024001, true},
		{"1025", "1025", 1025, 1025000, false},
		{"9223372036854775807", "9223372036854775807", math.MaxInt64, math.MaxInt64, false},
		{"9.223372036854775807E", "9223372036854775807", math.MaxInt64, math.MaxInt64, false},
		{"9223372036854775807m", "9223372036854775807m", 9223372036854776, math.MaxInt64, false},
	}
	for _, tc := range tests {
		t.Run(tc.in, func(t *testing.T) {
			q, err := ParseQuantity(tc.in)
			require.NoError(t, err)
			assert.Equal(t, tc.want, q.String())
			assert.Equal(t, tc.value, q.Value(), "Value")
			assert.Equal(t, tc.milli, q.MilliValue(), "MilliValue")
			assert.Equal(t, tc.binary, q.not == binarySI, "notation %v", q.not)
			back, err := ParseQuantity(q.String())
			require.NoError(t, err)
			assert.Zero(t, back.Cmp(q), "re-parse of %s", q)
		})
	}
}

func TestParseQuantityInvalid(t *testing.T) {
	tests := []struct {
		in        string
		wantRange bool
	}{
		// rejected by apimachinery too
		{"1.1.M", false}, {"1+1.0M", false}, {"0.1mi", false}, {"0.1am", false},
		{"aoeu", false}, {".5i", false}, {"1i", false}, {"-3.01i", false},
		{"-3.01e-", false}, {" 1", false}, {"1 ", false}, {"1e", false},
		{"1Ee3", false}, {"1KiB", false}, {"1k5", false}, {"1e99999999999999999999", false},
		{"--1", false}, {"1_000", false},
		// accepted by apimachinery as 0; rejected here (no digits)
		{"", false}, {".", false}, {"+", false}, {"-", false}, {"Ki", false}, {"e3", false},
		// out of the int64 range
		{"9223372036854775808", true}, {"9Ei", true}, {"12E", true}, {"1e19", true},
		{"-9223372036854775808", true}, {"9223372036854775807Ki", true},
		{"1e4294967296", true}, {"7.99999Ei", true},
		{"12345678901234567890123", true},
	}
	for _, tc := range tests {
		t.Run(tc.in, func(t *testing.T) {
			_, err := ParseQuantity(tc.in)
			require.Error(t, err)
			assert.ErrorIs(t, err, ErrInvalidQuantity)
			assert.Equal(t, tc.wantRange, errors.Is(err, ErrQuantityRange), "range: %v", err)
			var qe *QuantityError
			require.ErrorAs(t, err, &qe)
			assert.Equal(t, tc.in, qe.Input)
			assert.Contains(t, err.Error(), `"`+tc.in+`"`)
		})
	}
}

func TestParseQuantityZeroWithHugeExponent(t *testing.T) {
	for _, in := range []string{"0e999999", "0.000e-99999999", "000Ei", "-0.0"} {
		q, err := ParseQuantity(in)
		require.NoError(t, err, in)
		assert.True(t, q.IsZero(), in)
		assert.Equal(t, "0", q.String(), in)
	}
}

func TestParseQuantityTinyRoundsUp(t *testing.T) {
	q := MustParseQuantity("1e-999999999999")
	assert.Equal(t, "1e-9", q.String())
	q = MustParseQuantity("-0.00000000000000000000000000000000001Ki")
	assert.Equal(t, "-1n", q.String())
}

func TestQuantityCmp(t *testing.T) {
	tests := []struct {
		a, b string
		want int
	}{
		{"1", "1000m", 0},
		{"1Ki", "1024", 0},
		{"1e3", "1k", 0},
		{"1", "1001m", -1},
		{"1001m", "1", 1},
		{"-1", "1", -1},
		{"-1", "-2", 1},
		{"0", "-0", 0},
		{"0", "1n", -1},
		{"1E", "999999999999999999", 1},
		{"9223372036854775807", "9.223372036854775806E", 1},
		{"1n", "1u", -1},
		{"123456789n", "123456788999999999e-18", 0}, // the latter rounds up to 123456789n
		{"1.5", "1499999999n", 1},
		{"1500m", "15e-1", 0},
	}
	for _, tc := range tests {
		t.Run(tc.a+" vs "+tc.b, func(t *testing.T) {
			a, b := MustParseQuantity(tc.a), MustParseQuantity(tc.b)
			assert.Equal(t, tc.want, a.Cmp(b))
			assert.Equal(t, -tc.want, b.Cmp(a))
		})
	}
}

func TestQuantitySignAndZero(t *testing.T) {
	var zero Quantity
	assert.Equal(t, 0, zero.Sign())
	assert.Equal(t, "0", zero.String())
	assert.Equal(t, int64(0), zero.Value())
	assert.Equal(t, 1, MustParseQuantity("1n").Sign())
	assert.Equal(t, -1, MustParseQuantity("-1Ki").Sign())
}

func TestMustParseQuantityPanics(t *testing.T) {
	assert.Panics(t, func() { MustParseQuantity("nope") })
}

func TestMilliValueSaturatesNegative(t *testing.T) {
	assert.Equal(t, int64(-math.MaxInt64), MustParseQuantity("-1E").MilliValue())
}

func TestNotationString(t *testing.T) {
	assert.Equal(t, "DecimalSI", decimalSI.String())
	assert.Equal(t, "BinarySI", binarySI.String())
	assert.Equal(t, "DecimalExponent", decimalExponent.String())
	assert.Equal(t, "notation(9)", notation(9).String())
}
