package planview_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/nodeplan/nodeplan/bound"
	"github.com/nodeplan/nodeplan/instancetypes"
	"github.com/nodeplan/nodeplan/planview"
)

func TestGap(t *testing.T) {
	dollars := instancetypes.MustPriceFromDollars
	for _, tc := range []struct {
		name  string
		price instancetypes.Price
		bound float64
		cur   string
		want  string
	}{
		{"nothing to launch", 0, 0, "", ""},
		{"at the bound", dollars(0.5), 0.5, "USD", "0.500000 USD/hour — within 0.0 % of the best possible (0.500000 USD/hour lower bound)"},
		{"above it", dollars(0.47), 0.418, "EUR", "0.470000 EUR/hour — within 12.4 % of the best possible (0.418000 EUR/hour lower bound)"},
		{"default currency", dollars(2), 1, "", "2.000000 USD/hour — within 100.0 % of the best possible (1.000000 USD/hour lower bound)"},
		{"no bound", dollars(0.1), 0, "USD", "0.100000 USD/hour — no lower bound above 0.000000 USD/hour"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, planview.Gap(tc.price, bound.Bound{Dollars: tc.bound}, tc.cur))
		})
	}
}
