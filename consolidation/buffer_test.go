package consolidation_test

import (
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nodeplan/nodeplan/consolidation"
	"github.com/nodeplan/nodeplan/internal/problemgen"
	"github.com/nodeplan/nodeplan/packing"
)

// bufferPod is a pending CapacityBuffer pod of the given millicores.
func bufferPod(name string, milli int64) packing.Pod {
	p := pod(name, milli)
	p.Buffer = "headroom"
	return p
}

// TestPlanBufferHeadroom: buffer pods among the pending pods. Karpenter's
// emptiness refuses a node the provisioning pass holds buffer pods on
// (K/controllers/disruption/emptiness.go:51-57, bufferPodCounts from
// K/controllers/provisioning/buffers.go:210-221); consolidation simulates
// with the virtual pods among the pending ones
// (K/controllers/disruption/helpers.go:73), so a move that pushes them off
// existing capacity needs a NodeClaim for them.
func TestPlanBufferHeadroom(t *testing.T) {
	tests := []struct {
		name  string
		build func(c *cluster)
		want  want
	}{
		{"without buffer pods an empty node goes by emptiness", func(c *cluster) {
			c.node("a", 4)
			c.node("b", 4, 3000)
			c.Pending = []packing.Pod{pod("real-pending", 500)}
		}, want{cmds: []string{"Empty delete [a] (+0) saves 0.200000/h"}}},
		{"emptiness refuses a node holding headroom; consolidation moves the headroom to room left on b", func(c *cluster) {
			c.node("a", 4)
			c.node("b", 4, 3000)
			c.Pending = []packing.Pod{bufferPod("capacity-buffer-headroom-1", 500)}
		}, want{cmds: []string{"Underutilized delete [a] (+0) saves 0.200000/h"}}},
		{"an empty node holding headroom is replaced by a cheaper one, not emptied", func(c *cluster) {
			c.node("a", 4)
			c.node("b", 4, 3000)
			c.Pending = []packing.Pod{bufferPod("capacity-buffer-headroom-1", 1500)}
		}, want{cmds: []string{"Underutilized replace [a] (+1) saves 0.100000/h"}}},
		{"a WhenEmpty pool keeps an empty node holding headroom", func(c *cluster) {
			c.NodePools[0].Disruption.Policy = packing.WhenEmpty
			c.node("a", 4)
			c.node("b", 4, 3000)
			c.Pending = []packing.Pod{bufferPod("capacity-buffer-headroom-1", 1500)}
		}, want{kept: map[string]consolidation.Why{"a": consolidation.BufferHeadroom}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c := newCluster()
			tc.build(c)
			r, err := consolidation.Plan(c.Cluster, consolidation.Options{})
			require.NoError(t, err)
			var got []string
			for _, cmd := range r.Commands {
				got = append(got, cmd.String())
			}
			assert.Equal(t, tc.want.cmds, got, "kept: %v", r.Kept)
			assert.Empty(t, consolidation.VerifyCommands(c.Cluster, r.Commands))
			kept := map[string]consolidation.Why{}
			for _, k := range r.Kept {
				kept[k.Node] = k.Why
			}
			for n, w := range tc.want.kept {
				assert.Equal(t, w.String(), kept[n].String(), "node %s: %v", n, r.Kept)
			}
		})
	}
}

// TestPropertyGeneratedBuffers: TestPropertyGeneratedClusters' checks
// (no error, determinism, commands VerifyCommands accepts) on generated
// clusters whose every other pending pod is a buffer pod.
func TestPropertyGeneratedBuffers(t *testing.T) {
	for seed := range uint64(200) {
		seed += 11 << 40
		p := problemgen.Generate(seed, problemgen.Size{})
		c := generatedCluster(p, seed)
		c.Pending = slices.Clone(c.Pending)
		for i := range c.Pending {
			if i%2 == 0 {
				c.Pending[i].Buffer = "headroom"
			}
		}
		if msg := checkGenerated(c, generatedOptions(seed)); msg != "" {
			t.Fatalf("seed %d: %s\n%s", seed, msg, problemgen.Dump(p))
		}
	}
}
