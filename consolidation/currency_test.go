package consolidation_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nodeplan/nodeplan/consolidation"
	"github.com/nodeplan/nodeplan/instancetypes"
	"github.com/nodeplan/nodeplan/packing"
	"github.com/nodeplan/nodeplan/requirements"
)

// TestCurrency plans on the cn-north-1 catalog, priced in CNY: no message
// claims dollars, and an explanation that names a price names CNY.
func TestCurrency(t *testing.T) {
	catalog, err := instancetypes.AWS(instancetypes.Options{Region: "cn-north-1"})
	require.NoError(t, err)
	require.Equal(t, "CNY", catalog.Origin().Currency)
	m5, ok := catalog.Get("m5.large")
	require.True(t, ok)
	od := requirements.NewSet(requirements.MustNew(requirements.LabelCapacityType, requirements.In, "on-demand"))
	off, ok := m5.Cheapest(od)
	require.True(t, ok)
	node := func(name string, pods ...packing.Pod) packing.Node {
		return packing.Node{Name: name, NodePool: "default", InstanceType: m5.Name, Zone: off.Zone, CapacityType: off.CapacityType,
			Allocatable: m5.Allocatable, Initialized: true, Price: off.Price, CreationTime: now.Add(-time.Hour), Pods: pods}
	}
	p := pool("default")
	p.Requirements = od.Add(requirements.MustNew(requirements.LabelInstanceType, requirements.In, m5.Name))
	c := consolidation.Cluster{NodePools: []packing.NodePool{p}, Catalog: catalog, Now: now,
		Nodes: []packing.Node{node("idle"), node("solo", pod("solo-p0", 1500))}}

	r, err := consolidation.Plan(c, consolidation.Options{})
	require.NoError(t, err)
	require.Len(t, r.Commands, 1)
	assert.Equal(t, "Empty delete [idle] (+0) saves 1.013000/h", r.Commands[0].String())
	require.Len(t, r.Kept, 1)
	assert.Equal(t, consolidation.NoCheaperReplacement, r.Kept[0].Why)
	assert.Equal(t, "no instance type for the replacement is cheaper than 1.013000 CNY/hour", r.Kept[0].Message)
	for _, s := range []string{r.Commands[0].String(), r.Kept[0].Message} {
		assert.NotContains(t, s, "$")
		assert.NotContains(t, s, "USD")
	}
}
