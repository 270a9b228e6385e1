package drift

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/nodeplan/nodeplan/instancetypes"
	"github.com/nodeplan/nodeplan/packing"
)

// TestHomesPriceSaturates: the price of a command's replacements, as the
// checker hands it to packing, stops at MaxPrice as packing's and
// consolidation's sums do; it wrapped to a negative price.
func TestHomesPriceSaturates(t *testing.T) {
	cl := Cluster{Input: Input{Nodes: []NodeClaimState{{Node: packing.Node{Name: "a", NodePool: "default"}}}}}
	half := instancetypes.MaxPrice/2 + 1
	cmd := Command{Node: "a", NodePool: "default", Replacements: []packing.NodeClaim{
		{Name: "r-1", Offering: instancetypes.Offering{Price: half}}, {Name: "r-2", Offering: instancetypes.Offering{Price: half}}}}
	v := newCmdVerifier(cl, []Command{cmd})
	assert.Equal(t, instancetypes.MaxPrice, v.homes(0, cmd, 0).Plan.Price)
}
