package instancetypes

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nodeplan/nodeplan/requirements"
	"github.com/nodeplan/nodeplan/resources"
)

func off(zone string, ct CapacityType, price Price) Offering {
	return Offering{Zone: zone, CapacityType: ct, Price: price, Available: true}
}

// testType is a small valid type for table tests.
func testType(name string, offs ...Offering) InstanceType {
	return InstanceType{
		Name:         name,
		Requirements: requirements.NewSet(requirements.MustNew(requirements.LabelArch, requirements.In, "amd64")),
		Capacity:     resources.List{CPU: 2000, Memory: 8 * gib, Pods: 29},
		Overhead:     resources.List{CPU: 70, Memory: 674 * mib},
		Offerings:    offs,
	}
}

func mustBuild(t *testing.T, it InstanceType) *InstanceType {
	t.Helper()
	c, err := New([]InstanceType{it})
	require.NoError(t, err)
	got, ok := c.Get(it.Name)
	require.True(t, ok)
	return got
}

func reqSet(reqs ...requirements.Requirement) requirements.Set { return requirements.NewSet(reqs...) }

func TestInstanceTypeCheapest(t *testing.T) {
	reserved := Offering{Zone: "a", CapacityType: Reserved, Price: 1, Available: true, ReservationID: "cr-1", ReservedUnits: 2}
	exhausted := reserved
	exhausted.ReservationID, exhausted.ReservedUnits, exhausted.Price = "cr-0", 0, 0
	unavailable := off("c", Spot, 5)
	unavailable.Available = false
	it := mustBuild(t, testType("x", off("a", OnDemand, 100), off("b", OnDemand, 90), off("a", Spot, 40),
		off("b", Spot, 30), reserved, exhausted, unavailable))
	zoneA := requirements.MustNew(requirements.LabelZone, requirements.In, "a")
	onDemand := requirements.MustNew(requirements.LabelCapacityType, requirements.In, "on-demand")
	notReserved := requirements.MustNew(requirements.LabelCapacityType, requirements.NotIn, "reserved")
	tests := []struct {
		name      string
		reqs      requirements.Set
		want      Offering
		ok        bool
		worst     Price
		worstSeen bool
	}{
		{"any: reserved with units wins", reqSet(), reserved, true, 1, true},
		{"on-demand", reqSet(onDemand), off("b", OnDemand, 90), true, 100, true},
		{"zone a on-demand", reqSet(zoneA, onDemand), off("a", OnDemand, 100), true, 100, true},
		{"no reserved: spot class", reqSet(notReserved), off("b", Spot, 30), true, 40, true},
		{"no zone", reqSet(requirements.MustNew(requirements.LabelZone, requirements.In, "z")), Offering{}, false, 0, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, ok := it.Cheapest(tc.reqs)
			assert.Equal(t, tc.ok, ok)
			assert.Equal(t, tc.want, got)
			worst, seen := it.WorstLaunchPrice(tc.reqs)
			assert.Equal(t, tc.worstSeen, seen)
			assert.Equal(t, tc.worst, worst)
		})
	}
}

func TestInstanceTypeOfferingOrder(t *testing.T) {
	it := mustBuild(t, testType("x", off("b", OnDemand, 10), off("a", OnDemand, 10), off("a", Spot, 10), off("c", Spot, 5)))
	assert.Equal(t, []Offering{off("c", Spot, 5), off("a", Spot, 10), off("a", OnDemand, 10), off("b", OnDemand, 10)}, it.Offerings)
	assert.Equal(t, "zone In [a b c]", it.Requirements.Get(requirements.LabelZone).String()[len("topology.kubernetes.io/"):])
	assert.True(t, it.Requirements.Get(requirements.LabelInstanceType).Has("x"))
	assert.True(t, it.Requirements.Get(requirements.LabelCapacityType).Has("spot"))
	assert.Equal(t, resources.List{CPU: 1930, Memory: 8*gib - 674*mib, Pods: 29}, it.Allocatable)
}

func TestNewDoesNotModifyInput(t *testing.T) {
	in := []InstanceType{testType("x", off("b", OnDemand, 10), off("a", OnDemand, 5))}
	before := append([]Offering(nil), in[0].Offerings...)
	_, err := New(in)
	require.NoError(t, err)
	assert.Equal(t, before, in[0].Offerings)
	assert.False(t, in[0].Requirements.Has(requirements.LabelZone))
}
