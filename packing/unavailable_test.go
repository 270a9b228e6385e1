package packing_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nodeplan/nodeplan/packing"
	"github.com/nodeplan/nodeplan/packing/verify"
	"github.com/nodeplan/nodeplan/requirements"
)

// An unavailable NodePool launches nothing, counts no topology domain, and
// is named in the reason of a pod it alone would take; its nodes stay.
func TestUnavailablePool(t *testing.T) {
	const why = "its EC2NodeClass gpu is not Ready"
	gpu := func(opts ...packing.NodePool) packing.NodePool {
		np := pool("gpu", poolReq(in(requirements.LabelInstanceType, "gpu-vendor-instance-type")), poolWeight(50))
		np.Unavailable = why
		return np
	}
	general := pool("general", poolReq(in(requirements.LabelInstanceType, "default-instance-type")))
	zoneB := pool("zone-b", poolReq(in(requirements.LabelZone, zone2)), poolWeight(10))
	zoneB.Unavailable = "static"
	zoneA := pool("zone-a", poolReq(in(requirements.LabelZone, zone1)))
	tests := []struct {
		name    string
		pools   []packing.NodePool
		nodes   []packing.Node
		pods    []packing.Pod
		placed  map[string]string // pod -> pool of its claim, or "node:name"
		reasons map[string]string // pod -> part of its reason's message
	}{
		{"the only pool", []packing.NodePool{gpu()}, nil, []packing.Pod{mkPod("a", req("cpu", "1"))}, nil,
			map[string]string{"a": "NodePool gpu would take pod default/a but launches no node: " + why}},
		{"its reason outranks another pool's", []packing.NodePool{gpu(), general}, nil,
			[]packing.Pod{mkPod("g", req(string(gpuA), "1"))}, nil,
			map[string]string{"g": "NodePool gpu would take pod default/g but launches no node"}},
		{"another pool takes the pod, weight notwithstanding", []packing.NodePool{gpu(), general}, nil,
			[]packing.Pod{mkPod("a", req("cpu", "1"))}, map[string]string{"a": "general"}, nil},
		{"a pod it would not take keeps its own reason", []packing.NodePool{gpu()}, nil,
			[]packing.Pod{mkPod("a", req("cpu", "100"))}, nil, map[string]string{"a": "no instance type in NodePool gpu has"}},
		{"its nodes stay and take pods", []packing.NodePool{gpu()},
			[]packing.Node{mkNode("n1", "gpu", "gpu-vendor-instance-type", zone1)},
			[]packing.Pod{mkPod("a", req("cpu", "1"))}, map[string]string{"a": "node:n1"}, nil},
		{"its zones are no topology domain", []packing.NodePool{zoneA, zoneB}, nil,
			mkPods("s", 2, req("cpu", "1"), podLabels("app", "s"), spread(spreadBy(requirements.LabelZone, 1, "app", "s"))),
			map[string]string{"s-0": "zone-a", "s-1": "zone-a"}, nil},
	}
	for _, tc := range tests {
		for _, strategy := range []packing.Strategy{packing.Best, packing.Plain, packing.CostAware} {
			t.Run(tc.name+"/"+strategy.String(), func(t *testing.T) {
				p := packing.Problem{Pods: tc.pods, NodePools: tc.pools, Nodes: tc.nodes, Catalog: buildCatalog(t, defaultTypes())}
				plan, err := packing.Solve(p, packing.Options{Strategy: strategy})
				require.NoError(t, err)
				assert.Empty(t, verify.Plan(p, plan))
				o := newOutcome(p, plan)
				for pod, where := range tc.placed {
					if n, ok := o.nodeOf(pod); ok {
						assert.Equal(t, where, "node:"+n, pod)
						continue
					}
					c, ok := o.claimOf(pod)
					require.True(t, ok, "pod %s placed", pod)
					assert.Equal(t, where, c.NodePool, pod)
				}
				for pod, msg := range tc.reasons {
					r, ok := o.reason(pod)
					require.True(t, ok, "pod %s unschedulable", pod)
					assert.Contains(t, r.Message, msg)
					if msg[:8] == "NodePool" {
						assert.Equal(t, packing.Unavailable, r.Kind)
					}
				}
				for _, c := range plan.NodeClaims {
					assert.NotContains(t, []string{"gpu", "zone-b"}, c.NodePool, "no claim of an unavailable pool")
				}
			})
		}
	}
}

// verify.Plan reports a claim of an unavailable NodePool.
func TestVerifyUnavailablePool(t *testing.T) {
	np := pool("general", poolReq(in(requirements.LabelInstanceType, "default-instance-type")))
	p := packing.Problem{Pods: []packing.Pod{mkPod("a", req("cpu", "1"))}, NodePools: []packing.NodePool{np}, Catalog: buildCatalog(t, defaultTypes())}
	plan, err := packing.Solve(p, packing.Options{})
	require.NoError(t, err)
	require.Len(t, plan.NodeClaims, 1)
	p.NodePools[0].Unavailable = "static"
	vs := verify.Plan(p, plan)
	require.NotEmpty(t, vs)
	assert.Equal(t, verify.RuleNodePoolRequirement, vs[0].Rule)
	assert.Contains(t, vs[0].Message, "which launches no node: static")
}
