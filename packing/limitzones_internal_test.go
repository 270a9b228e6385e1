package packing

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nodeplan/nodeplan/instancetypes"
	"github.com/nodeplan/nodeplan/requirements"
)

// TestLaunchZones: a pool's launch zones read from its offering pairs are
// those read from every offering, in the same order, whatever its zone and
// capacity-type requirements; with a reserved offering (no pairs) they
// are read from every offering.
func TestLaunchZones(t *testing.T) {
	cat, err := instancetypes.AWS(instancetypes.Options{})
	require.NoError(t, err)
	m5, _ := cat.Get("m5.large")
	resv := *m5
	resv.Name = "m5.reserved"
	resv.Offerings = append([]instancetypes.Offering{{Zone: "us-east-1b", CapacityType: instancetypes.Reserved, Price: 1, Available: true,
		ReservationID: "cr-1", ReservedUnits: 1}}, m5.Offerings...)
	withResv, err := instancetypes.New([]instancetypes.InstanceType{*m5, resv})
	require.NoError(t, err)
	in := func(key string, values ...string) requirements.Set {
		return requirements.NewSet(requirements.MustNew(key, requirements.In, values...))
	}
	scanned := 0
	for _, c := range []*instancetypes.Catalog{cat, withResv} {
		for _, reqs := range []requirements.Set{{}, in(requirements.LabelZone, "us-east-1c", "us-east-1a"),
			in(requirements.LabelCapacityType, "spot"), in(requirements.LabelZone, "nowhere")} {
			np := &NodePool{Name: "a", Requirements: reqs}
			pl := compilePool(&Problem{Catalog: c}, np)
			zone, ct := pl.reqs.Get(requirements.LabelZone), pl.reqs.Get(requirements.LabelCapacityType)
			assert.Equal(t, pl.scanZones(zone, ct), pl.zones, "%d types, %s", c.Len(), reqs)
			if pl.offerMask == nil {
				scanned++
			}
		}
	}
	assert.Positive(t, scanned, "a pool with reserved offerings reads every offering")
}
