package planview

import "github.com/nodeplan/nodeplan/instancetypes"

// HoursPerMonth is [instancetypes.HoursPerMonth], the month of the
// monthly totals ([instancetypes.Price.MonthlyAmount]).
const HoursPerMonth = instancetypes.HoursPerMonth

// DefaultCurrency is the currency of [Options] with an empty Currency:
// [instancetypes.DefaultCurrency].
const DefaultCurrency = instancetypes.DefaultCurrency
