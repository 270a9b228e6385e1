package main

import (
	"bytes"
	"testing"

	"github.com/nodeplan/nodeplan/consolidation"
	"github.com/nodeplan/nodeplan/instancetypes"
	"github.com/nodeplan/nodeplan/packing"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestConsolidationReportSavings: the JSON savings, per command and in
// total, are the amounts the table prints — one exact sum, rounded half up
// once (0.1250005 as a float64 rounds down; the price does not).
func TestConsolidationReportSavings(t *testing.T) {
	res := consolidation.Result{Commands: []consolidation.Command{
		{Candidates: []string{"a"}, Savings: 125_000_500},
		{Candidates: []string{"b"}, Savings: 200_000_000, Replacements: []packing.NodeClaim{
			{Name: "r", Offering: instancetypes.Offering{Price: 125_000_500}}}},
	}}
	r := newConsolidationReport(snapshot{prices: pricing{currency: "USD"}}, consolidation.Cluster{}, res)
	assert.Equal(t, 0.125001, r.Commands[0].SavingsPerHour)
	assert.Equal(t, 0.125001, r.Commands[1].Replacements[0].PricePerHour)
	assert.Equal(t, 0.325001, r.Summary.SavingsPerHour)
	assert.Equal(t, 237.25, r.Summary.SavingsPerMonth) // 0.3250005 × 730 = 237.250365
	var table bytes.Buffer
	require.NoError(t, r.writeTable(&table))
	assert.Contains(t, table.String(), "saves 0.325001 USD/hour, 237.25 USD/month")
}
