package instancetypes

import (
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/nodeplan/nodeplan/requirements"
)

var awsOnce = sync.OnceValues(func() (*Catalog, error) { return AWS(Options{}) })

func awsCatalogForTest(tb testing.TB) *Catalog {
	tb.Helper()
	c, err := awsOnce()
	require.NoError(tb, err)
	return c
}

// benchReqs is a typical NodePool-and-pod requirement set: arm64, at least 4
// vCPUs, c/m/r, generation > 5, spot or on-demand, two zones.
func benchReqs() requirements.Set {
	return requirements.NewSet(
		requirements.MustNew(requirements.LabelArch, requirements.In, "arm64"),
		requirements.MustNew(requirements.LabelInstanceCPU, requirements.Gte, "4"),
		requirements.MustNew(requirements.LabelInstanceCategory, requirements.In, "c", "m", "r"),
		requirements.MustNew(requirements.LabelInstanceGeneration, requirements.Gt, "5"),
		requirements.MustNew(requirements.LabelCapacityType, requirements.In, "spot", "on-demand"),
		requirements.MustNew(requirements.LabelZone, requirements.In, "us-east-1a", "us-east-1b"),
	)
}

func TestNoAllocs(t *testing.T) {
	c := awsCatalogForTest(t)
	m5, _ := c.Get("m5.large")
	reqs := benchReqs()
	narrow := requirements.NewSet(requirements.MustNew(requirements.LabelInstanceGPUCount, requirements.In, "8"),
		requirements.MustNew(requirements.LabelInstanceGPUManufacturer, requirements.In, "nvidia"))
	tests := []struct {
		name string
		f    func()
	}{
		{"InstanceType.Cheapest", func() { _, _ = m5.Cheapest(reqs) }},
		{"InstanceType.WorstLaunchPrice", func() { _, _ = m5.WorstLaunchPrice(reqs) }},
		{"Offering.Compatible", func() { _ = m5.Offerings[0].Compatible(reqs) }},
		{"Catalog.Cheapest/broad", func() { _, _, _ = c.Cheapest(reqs) }},
		{"Catalog.Cheapest/none", func() { _, _, _ = c.Cheapest(requirements.Set{}) }},
		{"Catalog.Cheapest/narrow", func() { _, _, _ = c.Cheapest(narrow) }},
		{"Catalog.Get", func() { _, _ = c.Get("m5.large") }},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if allocs := testing.AllocsPerRun(1000, tc.f); allocs != 0 {
				t.Errorf("allocs = %v; want 0", allocs)
			}
		})
	}
}

// TestCheapestValuesAlloc pins the one known allocation: an In requirement
// with few values on a key with many (here instance-type; family is another)
// copies its values, as requirements.Requirement offers no allocation-free
// way to read them, and scanning the key's values instead would be slower.
func TestCheapestValuesAlloc(t *testing.T) {
	c := awsCatalogForTest(t)
	reqs := requirements.NewSet(requirements.MustNew(requirements.LabelInstanceType, requirements.In, "m5.large", "c6g.xlarge"))
	if allocs := testing.AllocsPerRun(1000, func() { _, _, _ = c.Cheapest(reqs) }); allocs > 1 {
		t.Errorf("allocs = %v; want at most 1", allocs)
	}
}
