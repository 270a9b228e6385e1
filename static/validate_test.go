package static_test

import (
	"errors"
	"testing"

	"github.com/nodeplan/nodeplan/disruption"
	"github.com/nodeplan/nodeplan/packing"
	"github.com/nodeplan/nodeplan/resources"
	"github.com/nodeplan/nodeplan/static"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestDecideErrors(t *testing.T) {
	negLimit := pool("np", 1)
	negLimit.NodePool.Limits = map[resources.Name]int64{packing.LimitNodes: -1}
	tests := []struct {
		name  string
		in    static.Input
		field string
	}{
		{"unnamed pool", static.Input{Pools: []static.Pool{pool("", 1)}}, "metadata.name"},
		{"duplicate pool", static.Input{Pools: []static.Pool{pool("np", 1), pool("np", 2)}}, "metadata.name"},
		{"negative replicas", static.Input{Pools: []static.Pool{pool("np", -1)}}, "spec.replicas"},
		{"negative limit", static.Input{Pools: []static.Pool{negLimit}}, "spec.limits.nodes"},
		{"unnamed claim", static.Input{Claims: []static.Claim{{NodePool: "np"}}}, "metadata.name"},
		{"duplicate claim", static.Input{Claims: []static.Claim{node("a", "np"), node("a", "np")}}, "metadata.name"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res, err := static.Decide(tc.in)
			require.ErrorIs(t, err, static.ErrInvalid)
			var ie *static.InputError
			require.ErrorAs(t, err, &ie)
			assert.Equal(t, tc.field, ie.Field)
			assert.Empty(t, res.Pools)
		})
	}
	_, err := static.Decide(static.Input{Pools: []static.Pool{pool("np", 1, budget("lots"))}})
	var be *disruption.BudgetError
	require.ErrorAs(t, err, &be)
	assert.Equal(t, "np", be.NodePool)
	assert.True(t, errors.As(err, &be))
}

// New NodeClaims are priced at the pool's cheapest compatible offering;
// a pool no offering fits gets a note and an unknown Launch.
func TestLaunch(t *testing.T) {
	res, err := static.Decide(static.Input{Now: now, Catalog: catalog, Pools: []static.Pool{pool("np", 2)}})
	require.NoError(t, err)
	d := res.Pools[0]
	require.True(t, d.Launch.Known())
	_, off, ok := catalog.Cheapest(packing.NodePool{}.Requirements)
	require.True(t, ok)
	assert.Equal(t, off, d.Launch.Offering)
	assert.Equal(t, 2, d.Create)

	res, err = static.Decide(static.Input{Now: now, Pools: []static.Pool{pool("np", 2)}})
	require.NoError(t, err)
	assert.False(t, res.Pools[0].Launch.Known())
	assert.Equal(t, []static.Note{{Why: static.UnknownLaunch, Message: "no offering of the catalog is compatible with NodePool np: its new NodeClaims are not priced"}},
		res.Pools[0].Notes)
}

func TestStrings(t *testing.T) {
	assert.Equal(t, "Occupied", static.Occupied.String())
	assert.Equal(t, "RemovalKind(9)", static.RemovalKind(9).String())
	assert.Equal(t, "BudgetExhausted", static.BudgetExhausted.String())
	assert.Equal(t, "Why(99)", static.Why(99).String())
}
