package kube

import (
	"bytes"
	"strings"
	"testing"

	"github.com/nodeplan/nodeplan/instancetypes"
	"github.com/nodeplan/nodeplan/planview"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestReportPrices: the report's numbers are the amounts the table
// prints, to the last decimal: hourly prices to six decimals and the
// monthly total to two, rounded half up on the exact price.
func TestReportPrices(t *testing.T) {
	const price = instancetypes.Price(2_689_600_500) // 2.6896005/h: 1963.408365/month
	v := planview.View{Nodes: []planview.Node{{Name: "a", Price: price}, {Name: "b", Existing: true, PriceUnknown: true}},
		Summary: planview.Summary{NewNodes: 1, Price: price, ExistingPrice: 100_000_500}}
	r := NewReport(&v, ReportOptions{})
	require.NotNil(t, r.Nodes[0].PricePerHour)
	assert.Equal(t, 2.689601, *r.Nodes[0].PricePerHour)
	assert.Nil(t, r.Nodes[1].PricePerHour)
	assert.Equal(t, 2.689601, r.Summary.PricePerHour)
	assert.Equal(t, 0.100001, r.Summary.ExistingPricePerHour)
	assert.Equal(t, 1963.41, r.Summary.PricePerMonth)
	var table bytes.Buffer
	require.NoError(t, v.WriteSummary(&table, planview.Options{}))
	assert.True(t, strings.Contains(table.String(), "2.689601 USD/hour, 1963.41 USD/month"), table.String())
}
