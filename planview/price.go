package planview

import (
	"fmt"
	"math/bits"

	"github.com/nodeplan/nodeplan/instancetypes"
)

// HoursPerMonth is the month eks-node-viewer and AWS price pages use.
const HoursPerMonth = 730

// nanos are the Price units in one currency unit (instancetypes.Price is
// nano-units per hour).
const nanos = 1_000_000_000

// MonthlyAmount writes p times [HoursPerMonth] with two decimals, rounded
// half up, without a currency. Hourly prices are written by
// [instancetypes.Price.Format] and [instancetypes.Price.Amount].
func MonthlyAmount(p instancetypes.Price) string {
	sign, u := "", uint64(p)
	if p < 0 {
		sign, u = "-", uint64(-p) // -MinInt64 wraps to itself, and as uint64 it is right
	}
	hi, lo := bits.Mul64(u, HoursPerMonth)
	lo, carry := bits.Add64(lo, nanos/200, 0) // half a cent
	if hi+carry >= nanos/100 {
		return fmt.Sprintf("%.2f", p.Dollars()*HoursPerMonth) // beyond 1.8e17 a month
	}
	cents, _ := bits.Div64(hi+carry, lo, nanos/100)
	return fmt.Sprintf("%s%d.%02d", sign, cents/100, cents%100)
}
