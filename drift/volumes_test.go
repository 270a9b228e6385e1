package drift_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nodeplan/nodeplan/drift"
	"github.com/nodeplan/nodeplan/packing"
)

// TestCommandsKeepAttachLimits: a drifted node's pod moves onto another
// node only within that node's CSI attach limits; past them it goes to the
// replacement, which has none, as a new NodeClaim in Karpenter has none.
func TestCommandsKeepAttachLimits(t *testing.T) {
	const driver = "ebs.csi.aws.com"
	vol := func(p packing.Pod, claim string) packing.Pod {
		p.Volumes = &packing.Volumes{Claims: []packing.Volume{{Driver: driver, Claim: "default/" + claim}}}
		return p
	}
	for _, tc := range []struct {
		limit int32
		home  string // where p goes: the spare node, or a claim ("")
	}{{2, "spare"}, {1, ""}} {
		spare := state("spare", vol(pod("held", "100m"), "c0"))
		spare.Node.VolumeLimits = map[string]int32{driver: tc.limit}
		cl := cluster(drifted("a", 0, vol(pod("p", "100m"), "c1")), spare)
		cl.NodePools[0].NodePool.Disruption.Budgets = []packing.Budget{{Nodes: "100%"}}
		cmds, blocked := run(t, cl, now)
		require.Len(t, cmds, 1, "limit %d, blocked %v", tc.limit, blocked)
		require.Len(t, cmds[0].Homes, 1)
		assert.Equal(t, tc.home, cmds[0].Homes[0].Node, "limit %d", tc.limit)
		assert.Empty(t, drift.VerifyCommands(clusterAt(cl, now), cmds))
	}
}
