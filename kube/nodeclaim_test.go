package kube

import (
	"testing"

	"github.com/nodeplan/nodeplan/instancetypes"
	"github.com/nodeplan/nodeplan/packing"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestNodeClaimPriceAnnotations: the price annotation is written by
// instancetypes.Price.Amount (six decimals, half up, exact) and the
// currency annotation names the catalog's currency, the default when the
// catalog names none.
func TestNodeClaimPriceAnnotations(t *testing.T) {
	tests := []struct {
		name             string
		price            instancetypes.Price
		currency         string
		amount, wantCode string
	}{
		{"dollars", 96_000_000, "USD", "0.096000", "USD"},
		{"yuan", 1_013_000_000, "CNY", "1.013000", "CNY"},
		{"no currency is the default", 96_000_000, "", "0.096000", instancetypes.DefaultCurrency},
		{"half a micro-unit rounds up", 2_500, "USD", "0.000003", "USD"},
		{"nine decimals round to six", 123_456_789, "EUR", "0.123457", "EUR"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			plan := packing.Plan{NodeClaims: []packing.NodeClaim{{Name: "c-1", NodePool: "default", InstanceType: "m5.large",
				InstanceTypes: []string{"m5.large"}, Offering: instancetypes.Offering{Zone: "z", Price: tc.price, Available: true}}}}
			claims := NodeClaims(plan, nil, tc.currency)
			require.Len(t, claims, 1)
			a := claims[0].Metadata.Annotations
			assert.Equal(t, tc.amount, a[AnnotationPrice])
			assert.Equal(t, tc.price.Amount(), a[AnnotationPrice])
			assert.Equal(t, tc.wantCode, a[AnnotationCurrency])
		})
	}
}
