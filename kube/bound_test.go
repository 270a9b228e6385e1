package kube_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nodeplan/nodeplan/bound"
	"github.com/nodeplan/nodeplan/instancetypes"
	"github.com/nodeplan/nodeplan/kube"
)

func TestNewReportBound(t *testing.T) {
	price := instancetypes.MustPriceFromDollars(0.5)
	r := kube.NewReportBound(bound.Bound{Dollars: 0.4000004, Optimal: true, Pods: 3, Classes: 2}, price)
	require.NotNil(t, r.Gap)
	assert.Equal(t, 0.5, r.PricePerHour)
	assert.Equal(t, 0.4, r.LowerBoundPerHour, "the bound is shown rounded down, so it stays a lower bound")
	assert.InDelta(t, 0.5/0.4000004-1, *r.Gap, 1e-9)
	assert.True(t, r.Optimal)
	assert.Equal(t, 3, r.Pods)
	assert.Equal(t, 2, r.Classes)

	r = kube.NewReportBound(bound.Bound{}, price)
	assert.Nil(t, r.Gap, "no bound above 0: no finite gap (JSON null)")
	r = kube.NewReportBound(bound.Bound{}, 0)
	require.NotNil(t, r.Gap)
	assert.Zero(t, *r.Gap, "nothing launched, nothing to bound")
}
