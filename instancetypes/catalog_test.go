package instancetypes

import (
	"errors"
	"math"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nodeplan/nodeplan/requirements"
	"github.com/nodeplan/nodeplan/resources"
)

func TestNewInvalid(t *testing.T) {
	valid := func() InstanceType { return testType("bad", off("a", OnDemand, 10)) }
	tests := []struct {
		name   string
		mutate func(*InstanceType)
		extra  []InstanceType
		kind   error
		field  string
	}{
		{"empty name", func(it *InstanceType) { it.Name = "" }, nil, ErrInvalidName, "name"},
		{"name not a label value", func(it *InstanceType) { it.Name = "a b" }, nil, ErrInvalidName, "name"},
		{"requirement value not a label value", func(it *InstanceType) {
			it.Requirements = requirements.FromLabels(map[string]string{"rack": "a:b"})
		}, nil, ErrInvalidSpec, "requirements"},
		{"zero cpu", func(it *InstanceType) { it.Capacity.CPU = 0 }, nil, ErrInvalidCapacity, "capacity.cpu"},
		{"negative memory", func(it *InstanceType) { it.Capacity.Memory = -1 }, nil, ErrInvalidCapacity, "capacity.memory"},
		{"zero pods", func(it *InstanceType) { it.Capacity.Pods = 0 }, nil, ErrInvalidCapacity, "capacity.pods"},
		{"negative storage", func(it *InstanceType) { it.Capacity.EphemeralStorage = -5 }, nil, ErrInvalidCapacity, "capacity.ephemeral-storage"},
		{"negative gpu", func(it *InstanceType) {
			it.Capacity = it.Capacity.With(resources.GPU, -1)
		}, nil, ErrInvalidCapacity, "capacity.nvidia.com/gpu"},
		{"negative overhead", func(it *InstanceType) { it.Overhead.CPU = -1 }, nil, ErrInvalidOverhead, "overhead.cpu"},
		{"overhead above capacity", func(it *InstanceType) { it.Overhead.Memory = 9 * gib }, nil, ErrInvalidOverhead, "overhead.memory"},
		{"cpu above MaxAmount", func(it *InstanceType) { it.Capacity.CPU = resources.MaxAmount + 1 }, nil, ErrInvalidCapacity, "capacity.cpu"},
		{"memory near 2^63", func(it *InstanceType) { it.Capacity.Memory = math.MaxInt64 }, nil, ErrInvalidCapacity, "capacity.memory"},
		{"gpu above MaxAmount", func(it *InstanceType) {
			it.Capacity = it.Capacity.With(resources.GPU, resources.MaxAmount+1)
		}, nil, ErrInvalidCapacity, "capacity.nvidia.com/gpu"},
		{"overhead storage above MaxAmount", func(it *InstanceType) {
			it.Overhead.EphemeralStorage = math.MaxInt64
		}, nil, ErrInvalidOverhead, "overhead.ephemeral-storage"},
		{"no offerings", func(it *InstanceType) { it.Offerings = nil }, nil, ErrNoOfferings, "offerings"},
		{"price above MaxValidPrice", func(it *InstanceType) { it.Offerings[0].Price = MaxValidPrice + 1 }, nil, ErrInvalidPrice, "offerings[0].price"},
		{"price near 2^63", func(it *InstanceType) { it.Offerings[0].Price = MaxPrice }, nil, ErrInvalidPrice, "offerings[0].price"},
		{"negative price", func(it *InstanceType) { it.Offerings[0].Price = -1 }, nil, ErrInvalidPrice, "offerings[0].price"},
		{"unknown capacity type", func(it *InstanceType) { it.Offerings[0].CapacityType = 3 }, nil, ErrInvalidCapacityType, "offerings[0].capacityType"},
		{"empty zone", func(it *InstanceType) { it.Offerings[0].Zone = "" }, nil, ErrInvalidOffering, "offerings[0].zone"},
		{"bad zone", func(it *InstanceType) { it.Offerings[0].Zone = "a zone" }, nil, ErrInvalidOffering, "offerings[0].zone"},
		{"negative reserved units", func(it *InstanceType) {
			it.Offerings[0].CapacityType, it.Offerings[0].ReservedUnits = Reserved, -1
		}, nil, ErrInvalidOffering, "offerings[0].reservedUnits"},
		{"reservation on on-demand", func(it *InstanceType) { it.Offerings[0].ReservationID = "cr-1" }, nil, ErrInvalidOffering, "offerings[0].reservationID"},
		{"duplicate offering", func(it *InstanceType) {
			it.Offerings = append(it.Offerings, it.Offerings[0])
		}, nil, ErrInvalidOffering, "offerings[1]"},
		{"duplicate name", func(*InstanceType) {}, []InstanceType{testType("bad", off("b", Spot, 1))}, ErrDuplicateName, "name"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			it := valid()
			it.Offerings = slices.Clone(it.Offerings)
			tc.mutate(&it)
			c, err := New(append([]InstanceType{testType("good", off("a", OnDemand, 1)), it}, tc.extra...))
			require.Error(t, err)
			assert.Nil(t, c)
			assert.ErrorIs(t, err, tc.kind)
			assert.ErrorIs(t, err, ErrInvalid)
			var fe *FieldError
			require.True(t, errors.As(err, &fe), "%v", err)
			assert.Equal(t, it.Name, fe.Type)
			assert.Contains(t, err.Error(), tc.field)
			assert.Contains(t, err.Error(), `"`+it.Name+`"`)
			assert.NotContains(t, err.Error(), `"good"`)
		})
	}
}

func TestNewAcceptsBounds(t *testing.T) {
	it := testType("edge", off("a", OnDemand, 1))
	it.Capacity = resources.List{CPU: resources.MaxAmount, Memory: resources.MaxAmount, Pods: resources.MaxAmount,
		EphemeralStorage: resources.MaxAmount}.With(resources.GPU, resources.MaxAmount)
	it.Offerings[0].Price = MaxValidPrice
	_, err := New([]InstanceType{it})
	assert.NoError(t, err)
}

func TestNewAggregatesErrors(t *testing.T) {
	a := testType("a", off("z", OnDemand, -1))
	b := testType("b")
	b.Capacity.CPU = 0
	_, err := New([]InstanceType{a, b})
	require.Error(t, err)
	assert.ErrorIs(t, err, ErrInvalidPrice)
	assert.ErrorIs(t, err, ErrNoOfferings)
	assert.ErrorIs(t, err, ErrInvalidCapacity)
	assert.Contains(t, err.Error(), `"a"`)
	assert.Contains(t, err.Error(), `"b"`)
}

func TestCatalogAccessors(t *testing.T) {
	c, err := New([]InstanceType{testType("b", off("a", OnDemand, 2)), testType("a", off("a", OnDemand, 3))})
	require.NoError(t, err)
	assert.Equal(t, 2, c.Len())
	assert.Equal(t, []string{"a", "b"}, names(c.Types()))
	it, ok := c.Get("b")
	require.True(t, ok)
	assert.Equal(t, "b", it.Name)
	_, ok = c.Get("c")
	assert.False(t, ok)
	cheapest, o, ok := c.Cheapest(requirements.Set{})
	require.True(t, ok)
	assert.Equal(t, "b", cheapest.Name)
	assert.Equal(t, Price(2), o.Price)
}

func names(types []*InstanceType) []string {
	out := make([]string, len(types))
	for i, t := range types {
		out[i] = t.Name
	}
	return out
}

func TestCompatibleOrderAndFilter(t *testing.T) {
	arm := testType("arm", off("a", OnDemand, 5), off("b", Spot, 1))
	arm.Requirements = requirements.NewSet(requirements.MustNew(requirements.LabelArch, requirements.In, "arm64"))
	c, err := New([]InstanceType{testType("x", off("a", OnDemand, 3)), testType("y", off("a", OnDemand, 3)), arm,
		testType("z", off("b", OnDemand, 2))})
	require.NoError(t, err)
	tests := []struct {
		name string
		reqs requirements.Set
		want []string
	}{
		{"all, cheapest first, ties by name", requirements.Set{}, []string{"arm", "z", "x", "y"}},
		{"zone a", reqSet(requirements.MustNew(requirements.LabelZone, requirements.In, "a")), []string{"x", "y", "arm"}},
		{"amd64", reqSet(requirements.MustNew(requirements.LabelArch, requirements.In, "amd64")), []string{"z", "x", "y"}},
		{"on-demand arm", reqSet(requirements.MustNew(requirements.LabelArch, requirements.NotIn, "amd64"),
			requirements.MustNew(requirements.LabelCapacityType, requirements.In, "on-demand")), []string{"arm"}},
		{"unknown label", reqSet(requirements.MustNew("example.com/team", requirements.In, "a")), nil},
		{"unknown label NotIn", reqSet(requirements.MustNew("example.com/team", requirements.NotIn, "a")), []string{"arm", "z", "x", "y"}},
		{"well-known label undefined", reqSet(requirements.MustNew(requirements.LabelInstanceGPUName, requirements.In, "a100")), []string{"arm", "z", "x", "y"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, nilIfEmpty(names(c.AppendCompatible(nil, tc.reqs))))
			it, _, ok := c.Cheapest(tc.reqs)
			assert.Equal(t, len(tc.want) > 0, ok)
			if ok {
				assert.Equal(t, tc.want[0], it.Name)
			}
		})
	}
}

func nilIfEmpty(s []string) []string {
	if len(s) == 0 {
		return nil
	}
	return s
}

func TestWithAvailability(t *testing.T) {
	c, err := New([]InstanceType{testType("x", off("a", OnDemand, 1), off("b", OnDemand, 4)), testType("y", off("a", OnDemand, 2))})
	require.NoError(t, err)
	d, err := c.WithAvailability(OfferingKey{"x", "a", OnDemand}, OfferingKey{"nope", "a", OnDemand}, OfferingKey{"y", "a", Spot})
	require.NoError(t, err)
	assert.Equal(t, []string{"x", "y"}, names(c.AppendCompatible(nil, requirements.Set{})), "receiver unchanged")
	assert.Equal(t, []string{"y", "x"}, names(d.AppendCompatible(nil, requirements.Set{})))
	x, _ := d.Get("x")
	assert.False(t, x.Requirements.Get(requirements.LabelZone).Has("a"))
	y0, _ := c.Get("y")
	y1, _ := d.Get("y")
	assert.Same(t, y0, y1, "unchanged types are shared")
	e, err := d.WithAvailability(OfferingKey{"x", "b", OnDemand})
	require.NoError(t, err)
	assert.Equal(t, []string{"y"}, names(e.AppendCompatible(nil, requirements.Set{})))
	_, _, ok := e.Cheapest(reqSet(requirements.MustNew(requirements.LabelInstanceType, requirements.In, "x")))
	assert.False(t, ok)
	assert.Empty(t, c.Currency(), "a catalog of New names no currency")
	same, err := c.WithAvailability()
	require.NoError(t, err)
	assert.Same(t, c, same, "nothing to change") // shares everything
}

// TestWithAvailabilityError: a type whose offerings are no longer valid
// (here a shared type modified against Types' contract) is an error
// naming it; WithAvailability returned the type unchanged, leaving the
// offering it was asked to remove available.
func TestWithAvailabilityError(t *testing.T) {
	c, err := New([]InstanceType{testType("x", off("a", OnDemand, 1), off("b", OnDemand, 4))})
	require.NoError(t, err)
	x, _ := c.Get("x")
	x.Offerings[1].Zone = "zone b" // not a label value
	d, err := c.WithAvailability(OfferingKey{"x", "a", OnDemand})
	require.ErrorIs(t, err, ErrInvalidOffering)
	assert.ErrorContains(t, err, `"x"`)
	assert.Nil(t, d)
}

func TestKarpenterDiverse(t *testing.T) {
	c := KarpenterDiverse()
	require.Equal(t, 400, c.Len())
	it, ok := c.Get("fake-it-4")
	require.True(t, ok)
	assert.Equal(t, resources.List{CPU: 5000, Memory: 10 * gib, Pods: 50}, it.Capacity)
	assert.Equal(t, resources.List{CPU: 4900, Memory: 10*gib - 10*mib, Pods: 50}, it.Allocatable)
	assert.Equal(t, MustPriceFromDollars(0.5+0.1*10*gib/1e9), it.Offerings[0].Price)
	assert.Len(t, it.Offerings, 5)
	assert.True(t, it.Requirements.Get(LabelFakeSize).Has("large"))
	assert.True(t, it.Requirements.Get(LabelFakeSpecial).Has("optional"))
	assert.True(t, it.Requirements.Get(LabelFakeInteger).Has("5"))
	assert.True(t, it.Requirements.Get(requirements.LabelOS).Has("darwin"))
	small, _ := c.Get("fake-it-3")
	assert.True(t, small.Requirements.Get(LabelFakeSize).Has("small"))
	assert.Equal(t, requirements.DoesNotExist, small.Requirements.Get(LabelFakeSpecial).Operator())
	assert.Equal(t, "zone In [test-zone-1 test-zone-2 test-zone-3]",
		it.Requirements.Get(requirements.LabelZone).String()[len("topology.kubernetes.io/"):])
}

// synthetic is Synthetic for arguments known to be valid.
func synthetic(n int, seed uint64) *Catalog {
	c, err := Synthetic(n, seed)
	if err != nil {
		panic(err)
	}
	return c
}

func TestSyntheticRejectsBadCounts(t *testing.T) {
	for _, n := range []int{-1, math.MinInt, MaxSynthetic + 1, math.MaxInt} {
		c, err := Synthetic(n, 1)
		assert.Nil(t, c, n)
		assert.ErrorIs(t, err, ErrInvalidOptions, n)
	}
	for _, n := range []int{0, 1, MaxSynthetic} {
		c, err := Synthetic(n, 1)
		require.NoError(t, err, n)
		assert.Equal(t, n, c.Len())
	}
}

func TestSyntheticDeterministic(t *testing.T) {
	a, b := synthetic(300, 7), synthetic(300, 7)
	require.Equal(t, 300, a.Len())
	assert.Equal(t, names(a.Types()), names(b.Types()))
	for i, t0 := range a.Types() {
		assert.Equal(t, t0.Offerings, b.Types()[i].Offerings)
	}
	assert.NotEqual(t, names(a.Types()), names(synthetic(300, 8).Types()))
}
