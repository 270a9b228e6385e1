package planview

import (
	"fmt"
	"math/bits"

	"github.com/nodeplan/nodeplan/instancetypes"
)

// HoursPerMonth is the month eks-node-viewer and AWS price pages use.
const HoursPerMonth = 730

// DefaultCurrency is the currency of [Options] with an empty Currency: that
// of the embedded AWS and Azure catalogs.
const DefaultCurrency = "USD"

// nanos are the Price units in one currency unit (instancetypes.Price is
// nano-units per hour).
const nanos = 1_000_000_000

// FormatPrice writes the hourly price p in currency (an ISO 4217 code; ""
// is [DefaultCurrency]) as "0.096000 USD": six decimals, rounded half up.
func FormatPrice(p instancetypes.Price, currency string) string {
	return Amount(p) + " " + orDefault(currency)
}

// Amount writes the hourly price p with six decimals, rounded half up,
// without a currency: for columns whose header names it.
func Amount(p instancetypes.Price) string {
	sign, u := unsigned(p)
	micros := (u + 500) / 1000
	return fmt.Sprintf("%s%d.%06d", sign, micros/1_000_000, micros%1_000_000)
}

// MonthlyAmount writes p times [HoursPerMonth] with two decimals, rounded
// half up, without a currency.
func MonthlyAmount(p instancetypes.Price) string {
	sign, u := unsigned(p)
	hi, lo := bits.Mul64(u, HoursPerMonth)
	lo, carry := bits.Add64(lo, nanos/200, 0) // half a cent
	if hi+carry >= nanos/100 {
		return fmt.Sprintf("%.2f", p.Dollars()*HoursPerMonth) // beyond 1.8e17 a month
	}
	cents, _ := bits.Div64(hi+carry, lo, nanos/100)
	return fmt.Sprintf("%s%d.%02d", sign, cents/100, cents%100)
}

func unsigned(p instancetypes.Price) (string, uint64) {
	if p < 0 {
		return "-", uint64(-p) // -MinInt64 wraps to itself, and as uint64 it is right
	}
	return "", uint64(p)
}

func orDefault(currency string) string {
	if currency == "" {
		return DefaultCurrency
	}
	return currency
}
