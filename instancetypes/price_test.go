package instancetypes

import (
	"errors"
	"math"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestPriceFromDollars(t *testing.T) {
	tests := []struct {
		name    string
		dollars float64
		want    Price
		wantErr bool
	}{
		{"m5.large", 0.096, 96_000_000, false},
		{"zero", 0, 0, false},
		{"nano rounding", 0.3147483648, 314_748_365, false},
		{"p4d", 21.957642, 21_957_642_000, false},
		{"NaN", math.NaN(), 0, true},
		{"+Inf", math.Inf(1), 0, true},
		{"-Inf", math.Inf(-1), 0, true},
		{"negative", -0.01, 0, true},
		{"too large", 1e10, 0, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := PriceFromDollars(tc.dollars)
			if tc.wantErr {
				require.Error(t, err)
				assert.True(t, errors.Is(err, ErrInvalidPrice), "%v", err)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tc.want, got)
		})
	}
}

func TestPriceString(t *testing.T) {
	tests := []struct {
		p    Price
		want string
	}{
		{96_000_000, "0.096000/h"},
		{314_748_365, "0.314748365/h"}, // exact: nine decimals
		{21_957_642_000, "21.957642/h"},
		{-1000, "-0.000001/h"},
		{0, "0.000000/h"},
		{MaxPrice, "9223372036.854775807/h"},
		{-MaxPrice - 1, "-9223372036.854775808/h"},
	}
	for _, tc := range tests {
		t.Run(tc.want, func(t *testing.T) {
			assert.Equal(t, tc.want, tc.p.String())
			assert.NotContains(t, tc.p.String(), "$", "a Price does not know its currency")
		})
	}
	assert.InDelta(t, 0.096, Price(96_000_000).Dollars(), 1e-15)
}

func TestPriceFormat(t *testing.T) {
	tests := []struct {
		p        Price
		currency string
		want     string
		amount   string
	}{
		{0, "", "0.000000 USD/hour", "0.000000"},
		{96_000_000, "USD", "0.096000 USD/hour", "0.096000"},
		{96_000_000, "CNY", "0.096000 CNY/hour", "0.096000"},
		{1_499, "EUR", "0.000001 EUR/hour", "0.000001"},
		{1_500, "EUR", "0.000002 EUR/hour", "0.000002"}, // half up
		{314_748_365, "USD", "0.314748 USD/hour", "0.314748"},
		{-96_000_000, "USD", "-0.096000 USD/hour", "-0.096000"},
		{MaxPrice, "USD", "9223372036.854776 USD/hour", "9223372036.854776"},
	}
	for _, tc := range tests {
		t.Run(tc.want, func(t *testing.T) {
			assert.Equal(t, tc.want, tc.p.Format(tc.currency))
			assert.Equal(t, tc.amount, tc.p.Amount())
		})
	}
}

func TestPriceMonthlyAmount(t *testing.T) {
	tests := []struct {
		p     Price
		month string
	}{
		{0, "0.00"},
		{96_000_000, "70.08"},
		{1_499, "0.00"},
		{6_849, "0.00"}, // 0.00499977 a month
		{6_850, "0.01"}, // 0.0050005 a month: half up
		{-96_000_000, "-70.08"},
		{-6_850, "-0.01"},
		{MaxPrice, "6733061586903.99"},
		{math.MinInt64, "-6733061586903.99"},
	}
	for _, tc := range tests {
		t.Run(tc.month, func(t *testing.T) { assert.Equal(t, tc.month, tc.p.MonthlyAmount()) })
	}
}

// TestPriceDecimal: the JSON numbers of a price are the amounts the
// tables show, exactly, negatives rounded as their magnitude.
func TestPriceDecimal(t *testing.T) {
	tests := []struct {
		p           Price
		hour, month float64
	}{
		{0, 0, 0},
		{96_000_000, 0.096, 70.08},
		{100_000_500, 0.100001, 73}, // 0.1000005 as a float64 is below the half
		{1_499, 0.000001, 0},
		{1_500, 0.000002, 0},
		{6_850, 0.000007, 0.01},
		{-96_000_000, -0.096, -70.08},
		{-1_500, -0.000002, 0},
		{MaxPrice, 9223372036.854776, 6733061586903.99},
	}
	for _, tc := range tests {
		t.Run(tc.p.Amount(), func(t *testing.T) {
			assert.Equal(t, tc.hour, tc.p.Decimal())
			assert.Equal(t, tc.month, tc.p.MonthlyDecimal())
		})
	}
	for _, p := range []Price{0, 1, 499, 500, 96_000_000, 123_456_789_012, -7_654_321, MaxPrice, math.MinInt64 + 1} {
		hour, err := strconv.ParseFloat(p.Amount(), 64)
		require.NoError(t, err)
		month, err := strconv.ParseFloat(p.MonthlyAmount(), 64)
		require.NoError(t, err)
		assert.Equal(t, hour, p.Decimal(), "%d", p)
		assert.Equal(t, month, p.MonthlyDecimal(), "%d", p)
	}
	assert.False(t, math.Signbit(Price(-1_500).MonthlyDecimal()), "no -0, which JSON writes")
	assert.False(t, math.Signbit(Price(-499).Decimal()), "no -0, which JSON writes")
}

func TestPriceScale(t *testing.T) {
	assert.Equal(t, Price(38_400_000), Price(96_000_000).scale(600_000), "60% off $0.096")
	assert.Equal(t, Price(96_000_000), Price(96_000_000).scale(0))
	assert.Equal(t, Price(2), Price(5).scale(600_000), "rounds half up")
	assert.Equal(t, Price(0), Price(1).scale(600_000))
	assert.Equal(t, MaxPrice/2+1, MaxPrice.scale(500_000), "no overflow")
}

func TestCapacityType(t *testing.T) {
	for _, c := range []CapacityType{OnDemand, Spot, Reserved} {
		got, err := ParseCapacityType(c.String())
		require.NoError(t, err)
		assert.Equal(t, c, got)
	}
	assert.Equal(t, "on-demand", CapacityType(0).String(), "zero value")
	assert.Equal(t, "CapacityType(7)", CapacityType(7).String())
	_, err := ParseCapacityType("capacity-block")
	assert.ErrorIs(t, err, ErrInvalidCapacityType)
}
