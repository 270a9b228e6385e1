package instancetypes

import (
	"cmp"
	"fmt"
	"math"
	"math/bits"
	"strconv"
)

// Price is an hourly price in nano-units (1e-9) of its catalog's currency
// ([Origin].Currency: US dollars unless the catalog says otherwise, such as
// CNY in cn-north-1), an exact fixed-point value so that sums and
// comparisons never round. The zero Price is free. A Price fits about 9.2
// billion currency units per hour. The names Dollars and PriceFromDollars
// mean whole currency units. A Price does not carry its currency:
// [Price.Format] writes it for people with one, [Price.String] writes the
// exact amount alone.
type Price int64

// nanosPerDollar is the number of Price units in one dollar.
const nanosPerDollar = 1_000_000_000

// MaxPrice is the largest Price; it stands for "no price" in orderings.
const MaxPrice = Price(math.MaxInt64)

// PriceFromDollars returns the Price nearest to dollars per hour. It rejects
// NaN, infinities, negative values and values that do not fit, with an error
// wrapping [ErrInvalidPrice].
func PriceFromDollars(dollars float64) (Price, error) {
	switch {
	case math.IsNaN(dollars) || math.IsInf(dollars, 0):
		return 0, fmt.Errorf("%w: %v dollars per hour is not a number", ErrInvalidPrice, dollars)
	case dollars < 0:
		return 0, fmt.Errorf("%w: %v dollars per hour is negative", ErrInvalidPrice, dollars)
	case dollars >= math.MaxInt64/nanosPerDollar:
		return 0, fmt.Errorf("%w: %v dollars per hour is too large", ErrInvalidPrice, dollars)
	}
	return Price(math.Round(dollars * nanosPerDollar)), nil
}

// MinListPrice is the smallest price that a price list ([ParsePrices]),
// Options (Prices, SpotPrice) or a catalog file (price, spotPrice) may
// give: one micro-unit (0.000001) per hour, the smallest amount
// [Price.Amount] writes. A given price of 0 (or that rounds to 0) would
// make an offering free, which no provider sells: Karpenter's price tables
// have no zero price, and the cheapest on-demand price embedded is
// 0.0042 USD/hour (t4g.nano in us-east-1).
const MinListPrice = Price(1000)

// listPrice is the Price of a given price: PriceFromDollars, and
// MinListPrice..MaxValidPrice. Errors wrap ErrInvalidPrice.
func listPrice(dollars float64) (Price, error) {
	p, err := PriceFromDollars(dollars)
	switch {
	case err != nil:
		return 0, err
	case p < MinListPrice:
		return 0, fmt.Errorf("%w: %v per hour is below the minimum %s: no offering is free", ErrInvalidPrice, dollars, MinListPrice)
	case p > MaxValidPrice:
		return 0, fmt.Errorf("%w: %v per hour is above the maximum %s", ErrInvalidPrice, dollars, MaxValidPrice)
	}
	return p, nil
}

// MustPriceFromDollars is like [PriceFromDollars] but panics on error. It is
// meant for tests and hard-coded prices.
func MustPriceFromDollars(dollars float64) Price {
	p, err := PriceFromDollars(dollars)
	if err != nil {
		panic(err)
	}
	return p
}

// Dollars returns p in whole currency units (dollars for USD) per hour,
// rounded to the nearest float64.
func (p Price) Dollars() float64 { return float64(p) / nanosPerDollar }

// DefaultCurrency is the ISO 4217 code of prices whose catalog names no
// currency: that of the embedded AWS us-east-1 and Azure prices, of a
// catalog file or price list without "currency", and of a catalog built by
// [New] (whose [Origin].Currency is "").
const DefaultCurrency = "USD"

// String formats p without a currency, as "0.096000/h": six decimals when
// p is a whole number of micro-units, nine otherwise, so the text is exact.
// A Price does not know its currency; this form is for messages of code
// that does not know it either (validation errors, checkers' violations).
// A price shown with its catalog's currency is written by [Price.Format].
func (p Price) String() string {
	sign, u := p.unsigned()
	whole, frac := u/nanosPerDollar, u%nanosPerDollar
	if frac%1000 == 0 {
		return fmt.Sprintf("%s%d.%06d/h", sign, whole, frac/1000)
	}
	return fmt.Sprintf("%s%d.%09d/h", sign, whole, frac)
}

// Format writes the hourly price p in currency, an ISO 4217 code such as
// its catalog's [Origin].Currency ("" is [DefaultCurrency]), as
// "0.096000 USD/hour": the amount rounded half up to six decimals. It is
// the one form in which nodeplan prints a price for people.
func (p Price) Format(currency string) string {
	return p.Amount() + " " + cmp.Or(currency, DefaultCurrency) + "/hour"
}

// Amount writes p with six decimals, rounded half up, without a currency
// or unit, as "0.096000": for table columns whose header names both.
func (p Price) Amount() string {
	sign, micros := p.micros()
	return fmt.Sprintf("%s%d.%06d", sign, micros/1_000_000, micros%1_000_000)
}

// Decimal returns the amount [Price.Amount] writes (six decimals, rounded
// half up) as the float64 nearest to it, for JSON numbers: encoding/json
// writes it in the shortest form that reads back the same ("0.096"), and
// the number equals what a table shows. It is the one conversion of a
// price to a JSON number; [Price.Dollars] is not rounded.
func (p Price) Decimal() float64 {
	sign, micros := p.micros()
	return signed(sign, float64(micros)/1e6) // micros < 2^53: both exact, the quotient correctly rounded
}

// micros returns the sign of p and its magnitude in micro-units, rounded
// half up.
func (p Price) micros() (string, uint64) {
	sign, u := p.unsigned()
	return sign, (u + 500) / 1000 // u ≤ 2^63: no overflow
}

// signed applies sign to f; never -0, which JSON would write "-0".
func signed(sign string, f float64) float64 {
	if sign == "-" && f != 0 {
		return -f
	}
	return f
}

// HoursPerMonth is the month of [Price.MonthlyAmount]: 730 hours, as AWS
// price pages and eks-node-viewer count it.
const HoursPerMonth = 730

// MonthlyAmount writes the hourly price p times [HoursPerMonth] with two
// decimals, rounded half up, without a currency or unit, as "70.08": for
// monthly columns and totals beside [Price.Amount]. It is exact for every
// Price (the product is computed in 128 bits).
func (p Price) MonthlyAmount() string {
	sign, cents := p.monthlyCents()
	return fmt.Sprintf("%s%d.%02d", sign, cents/100, cents%100)
}

// MonthlyDecimal returns the amount [Price.MonthlyAmount] writes (two
// decimals, rounded half up) as the float64 nearest to it, for JSON
// numbers, as [Price.Decimal] does for the hourly amount.
func (p Price) MonthlyDecimal() float64 {
	sign, cents := p.monthlyCents()
	return signed(sign, float64(cents)/100) // cents < 2^53
}

// monthlyCents returns the sign of p and the magnitude of p times
// HoursPerMonth in hundredths, rounded half up.
func (p Price) monthlyCents() (string, uint64) {
	sign, u := p.unsigned()
	hi, lo := bits.Mul64(u, HoursPerMonth)
	lo, carry := bits.Add64(lo, nanosPerDollar/200, 0) // half a cent
	// u ≤ 2^63, so hi+carry < 2^10, below the divisor: Div64 cannot overflow.
	cents, _ := bits.Div64(hi+carry, lo, nanosPerDollar/100)
	return sign, cents
}

// unsigned returns the sign of p and its magnitude.
func (p Price) unsigned() (string, uint64) {
	if p < 0 {
		return "-", uint64(-p) // -MinInt64 wraps to itself, and as uint64 it is right
	}
	return "", uint64(p)
}

// scale returns p·(1−off), with off in parts per million, rounded half up.
// It is exact for every Price (the product is computed in 128 bits).
func (p Price) scale(offPPM int64) Price {
	hi, lo := bits.Mul64(uint64(p), uint64(1_000_000-offPPM))
	lo, carry := bits.Add64(lo, 500_000, 0)
	q, _ := bits.Div64(hi+carry, lo, 1_000_000)
	return Price(q)
}

// CapacityType is how an offering is bought. The zero CapacityType is
// OnDemand.
type CapacityType uint8

const (
	// OnDemand capacity is bought by the hour at the list price.
	OnDemand CapacityType = iota
	// Spot capacity is spare capacity at a discount that the provider may
	// reclaim at short notice.
	Spot
	// Reserved capacity was paid for in advance (a capacity reservation);
	// Karpenter prices it near zero so that it is used first.
	Reserved
)

var capacityTypeNames = [...]string{"on-demand", "spot", "reserved"}

// String returns the karpenter.sh/capacity-type label value of c, such as
// "on-demand".
func (c CapacityType) String() string {
	if c.valid() {
		return capacityTypeNames[c]
	}
	return "CapacityType(" + strconv.Itoa(int(c)) + ")"
}

func (c CapacityType) valid() bool { return int(c) < len(capacityTypeNames) }

// launchRank orders capacity types the way Karpenter prefers to launch them:
// reserved, then spot, then on-demand.
func (c CapacityType) launchRank() int {
	switch c {
	case Reserved:
		return 0
	case Spot:
		return 1
	}
	return 2
}

// ParseCapacityType returns the CapacityType whose label value is s. An
// unknown value gives an error wrapping [ErrInvalidCapacityType].
func ParseCapacityType(s string) (CapacityType, error) {
	for i, name := range capacityTypeNames {
		if name == s {
			return CapacityType(i), nil
		}
	}
	return 0, fmt.Errorf("%w: %q (want on-demand, spot or reserved)", ErrInvalidCapacityType, s)
}
