package packing_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nodeplan/nodeplan/instancetypes"
	"github.com/nodeplan/nodeplan/packing"
	"github.com/nodeplan/nodeplan/packing/verify"
	"github.com/nodeplan/nodeplan/requirements"
)

// On the AWS catalog the cheapest plan for Karpenter's basic scale-out
// shapes puts about one pod on a node; a node overhead makes fewer, larger
// nodes win, and the reported price never includes the overhead.
func TestNodeOverhead(t *testing.T) {
	pods := append(mkPods("big", 20, req("cpu", "3500m", "memory", "28Gi")), mkPods("small", 20, req("cpu", "900m", "memory", "3100Mi"))...)
	aws, err := instancetypes.AWS(instancetypes.Options{})
	require.NoError(t, err)
	p := packing.Problem{Pods: pods, Catalog: aws, NodePools: []packing.NodePool{
		pool("default", poolReq(in(requirements.LabelCapacityType, "on-demand"), in(requirements.LabelArch, "amd64")))}}
	free, err := packing.Solve(p, packing.Options{})
	require.NoError(t, err)
	charged, err := packing.Solve(p, packing.Options{NodeOverhead: instancetypes.MustPriceFromDollars(0.5)})
	require.NoError(t, err)
	negative, err := packing.Solve(p, packing.Options{NodeOverhead: -instancetypes.MustPriceFromDollars(1)})
	require.NoError(t, err)
	assert.Empty(t, verify.Plan(p, charged))
	assert.Less(t, len(charged.NodeClaims), len(free.NodeClaims), "overhead should buy fewer nodes")
	assert.LessOrEqual(t, free.Price, charged.Price, "without overhead the plan is the cheapest")
	assert.Equal(t, free, negative, "a negative overhead counts as none")
	t.Logf("no overhead: %d nodes $%.2f/h; $0.50 a node: %d nodes $%.2f/h", len(free.NodeClaims), free.Price.Dollars(),
		len(charged.NodeClaims), charged.Price.Dollars())
}
