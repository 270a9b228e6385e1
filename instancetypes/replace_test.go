package instancetypes

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nodeplan/nodeplan/requirements"
	"github.com/nodeplan/nodeplan/resources"
)

func TestWithTypes(t *testing.T) {
	c, err := New([]InstanceType{testType("x", off("a", OnDemand, 1), off("b", OnDemand, 4)), testType("y", off("a", OnDemand, 2))})
	require.NoError(t, err)
	x0, _ := c.Get("x")
	x := *x0
	x.Offerings = []Offering{x0.Offerings[1], x0.Offerings[0]}
	x.Offerings[1].Price = 3 // zone a: 1 -> 3
	x.Capacity = x.Capacity.With("example.com/dev", 2)
	d, err := c.WithTypes(x)
	require.NoError(t, err)
	assert.Equal(t, []string{"x", "y"}, names(c.AppendCompatible(nil, requirements.Set{})), "receiver unchanged")
	assert.Equal(t, []string{"y", "x"}, names(d.AppendCompatible(nil, requirements.Set{})), "x now costs 3 at least")
	got, _ := d.Get("x")
	assert.Equal(t, Price(3), got.Offerings[0].Price, "offerings sorted again")
	assert.Equal(t, int64(2), got.Allocatable.Get("example.com/dev"), "allocatable built again")
	assert.Equal(t, Price(1), x0.Offerings[0].Price, "the shared type is unchanged")
	y0, _ := c.Get("y")
	y1, _ := d.Get("y")
	assert.Same(t, y0, y1, "unchanged types are shared")
	same, err := c.WithTypes()
	require.NoError(t, err)
	assert.Same(t, c, same)
}

func TestWithTypesErrors(t *testing.T) {
	six := requirements.MustNew("example.com/tags", requirements.In, "t1", "t2", "t3", "t4", "t5", "t6")
	tagged := testType("x", off("a", OnDemand, 1), off("b", OnDemand, 4))
	tagged.Requirements = tagged.Requirements.Add(six)
	c, err := New([]InstanceType{tagged})
	require.NoError(t, err)
	x0, _ := c.Get("x")
	retagged := *x0 // the same labels to the eye: String shows five values of six
	retagged.Requirements = x0.Requirements.Replace(requirements.MustNew("example.com/tags", requirements.In, "t1", "t2", "t3", "t4", "t5", "t7"))
	require.Equal(t, x0.Requirements.String(), retagged.Requirements.String())
	gone := *x0
	gone.Offerings = gone.Offerings[:1] // zone b no longer offered: the labels change
	bad := *x0
	bad.Capacity = resources.List{CPU: -1}
	relabelled := *x0
	relabelled.Requirements = x0.Requirements.Add(requirements.MustNew(requirements.LabelOS, requirements.In, "linux"))
	tests := []struct {
		name  string
		types []InstanceType
		want  error
	}{
		{"unknown name", []InstanceType{{Name: "nope"}}, ErrInvalidName},
		{"twice", []InstanceType{*x0, *x0}, ErrDuplicateName},
		{"labels change", []InstanceType{gone}, ErrInvalidSpec},
		{"invalid capacity", []InstanceType{bad}, ErrInvalidCapacity},
		{"requirements change", []InstanceType{relabelled}, ErrInvalidSpec},
		{"a long value list changes", []InstanceType{retagged}, ErrInvalidSpec},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			d, err := c.WithTypes(tc.types...)
			require.ErrorIs(t, err, tc.want)
			assert.ErrorIs(t, err, ErrInvalid)
			assert.Nil(t, d)
		})
	}
}
