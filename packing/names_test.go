package packing_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nodeplan/nodeplan/instancetypes"
	"github.com/nodeplan/nodeplan/packing"
	"github.com/nodeplan/nodeplan/packing/verify"
	"github.com/nodeplan/nodeplan/requirements"
	"github.com/nodeplan/nodeplan/resources"
)

// TestClaimNamesSkipNodes: a claim's name is its new node's hostname, so
// it is never an existing node's name or hostname. A node named default-1
// runs a db pod and is full; a pod that must share a node with db cannot
// go anywhere, and a pod that must not may go on a claim. When the first
// claim was named default-1 too, every rule took it for db's node: the
// affine pod joined it, and Best's plan put the anti-affine pod beside
// "db" in the checker's eyes.
func TestClaimNamesSkipNodes(t *testing.T) {
	db := requirements.NewSet(requirements.MustNew("app", requirements.In, "db"))
	for _, tc := range []struct {
		node, hostname string
		want           string // the first claim's name
	}{
		{"default-1", "default-1", "default-2"},
		{"worker", "default-1", "default-2"},
		{"default-2", "default-1", "default-3"},
		{"default-01", "default-x", "default-1"},
		{"other", "other", "default-1"},
	} {
		node := packing.Node{Name: tc.node, Zone: "test-zone-1", Initialized: true,
			Labels:      map[string]string{requirements.LabelHostname: tc.hostname, requirements.LabelZone: "test-zone-1"},
			Allocatable: resources.List{CPU: 1000, Memory: 1 << 30, Pods: 10},
			Pods:        []packing.Pod{{Namespace: "default", Name: "db", Labels: map[string]string{"app": "db"}, Requests: resources.List{CPU: 900}}}}
		p := packing.Problem{Catalog: instancetypes.KarpenterDiverse(), NodePools: []packing.NodePool{{Name: "default"}}, Nodes: []packing.Node{node},
			Pods: []packing.Pod{
				{Namespace: "default", Name: "a-first", Requests: resources.List{CPU: 2000}},
				{Namespace: "default", Name: "web", Requests: resources.List{CPU: 500},
					Affinity: []packing.PodAffinityTerm{{TopologyKey: requirements.LabelHostname, Selector: db}}},
				{Namespace: "default", Name: "z-anti", Requests: resources.List{CPU: 100},
					AntiAffinity: []packing.PodAffinityTerm{{TopologyKey: requirements.LabelHostname, Selector: db}}},
			}}
		for _, o := range []packing.Options{{}, {Strategy: packing.Plain}, {Strategy: packing.CostAware}} {
			plan, err := packing.Solve(p, o)
			require.NoError(t, err)
			require.Empty(t, verify.Plan(p, plan), "%s/%s %v", tc.node, tc.hostname, o.Strategy)
			require.Len(t, plan.NodeClaims, 1, "%s/%s %v", tc.node, tc.hostname, o.Strategy)
			assert.Equal(t, tc.want, plan.NodeClaims[0].Name, "%s/%s %v", tc.node, tc.hostname, o.Strategy)
			assert.ElementsMatch(t, []int{0, 2}, plan.NodeClaims[0].Pods)
			require.Len(t, plan.Unschedulable, 1)
			assert.Equal(t, 1, plan.Unschedulable[0].Pod, "web cannot join db")
		}
	}
}
