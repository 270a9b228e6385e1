package planview

import (
	"fmt"
	"math"

	"github.com/nodeplan/nodeplan/bound"
	"github.com/nodeplan/nodeplan/instancetypes"
)

// Gap says how far price, the hourly price of a plan's new nodes, lies
// above b, a certified lower bound on the new nodes of any plan placing
// the same pods ([bound.ForPlan]): "0.470000 USD/hour — within 12.4 % of
// the best possible (0.418000 USD/hour lower bound)". It is "" when both
// are 0 (nothing to launch), and says so when only the bound is 0.
// currency "" is [instancetypes.DefaultCurrency]. The bound is written
// rounded down to the sixth decimal ([LowerBound]), so that what is shown
// is still a lower bound.
func Gap(price instancetypes.Price, b bound.Bound, currency string) string {
	lower := LowerBound(b)
	gap := b.Gap(price)
	switch {
	case price == 0 && lower == 0:
		return ""
	case math.IsInf(gap, 1):
		return fmt.Sprintf("%s — no lower bound above %s", price.Format(currency), lower.Format(currency))
	}
	return fmt.Sprintf("%s — within %.1f %% of the best possible (%s lower bound)",
		price.Format(currency), 100*gap, lower.Format(currency))
}

// LowerBound is b's price rounded down to the micro-unit the tables and
// JSON show (six decimals), so that the number shown stays a lower bound.
func LowerBound(b bound.Bound) instancetypes.Price {
	p := b.Price()
	return p - p%1000
}
