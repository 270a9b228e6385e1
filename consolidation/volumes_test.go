package consolidation_test

import (
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nodeplan/nodeplan/consolidation"
	"github.com/nodeplan/nodeplan/packing"
	"github.com/nodeplan/nodeplan/packing/verify"
)

// TestPlanKeepsAttachLimits: consolidation moves a pod onto another node
// only within that node's CSI attach limits, as its simulations are Solve
// (Karpenter's disruption simulates with the same scheduler, whose
// existing nodes check VolumeUsage.ExceedsLimits); and VerifyCommands
// reports a command that moves a pod past a limit.
func TestPlanKeepsAttachLimits(t *testing.T) {
	const driver = "ebs.csi.aws.com"
	build := func(limit int32) *cluster {
		c := newCluster()
		c.node("a", 4, 100).Pods[0].Volumes = &packing.Volumes{Claims: []packing.Volume{{Driver: driver, Claim: "default/c1"}}}
		b := c.node("b", 4, 3000)
		b.Pods[0].Volumes = &packing.Volumes{Claims: []packing.Volume{{Driver: driver, Claim: "default/c0"}}}
		b.VolumeLimits = map[string]int32{driver: limit}
		return c
	}
	tests := []struct {
		limit int32
		want  string // the command on a
	}{
		{2, "Underutilized delete [a] (+0) saves 0.200000/h"},
		{1, "Underutilized replace [a] (+1) saves"},
	}
	for _, tc := range tests {
		c := build(tc.limit)
		r, err := consolidation.Plan(c.Cluster, consolidation.Options{})
		require.NoError(t, err)
		require.Len(t, r.Commands, 1, "limit %d: kept %v", tc.limit, r.Kept)
		assert.Contains(t, r.Commands[0].String(), tc.want, "limit %d", tc.limit)
		assert.Empty(t, consolidation.VerifyCommands(c.Cluster, r.Commands))
	}
	// The delete that limit 2 allows breaks limit 1.
	r, err := consolidation.Plan(build(2).Cluster, consolidation.Options{})
	require.NoError(t, err)
	vs := consolidation.VerifyCommands(build(1).Cluster, r.Commands)
	assert.True(t, slices.ContainsFunc(vs, func(v consolidation.Violation) bool { return v.Packing == verify.RuleAttachLimit }), "%v", vs)
}
