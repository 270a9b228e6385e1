package repair_test

import (
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nodeplan/nodeplan/instancetypes"
	"github.com/nodeplan/nodeplan/packing"
	"github.com/nodeplan/nodeplan/packing/verify"
	"github.com/nodeplan/nodeplan/repair"
	"github.com/nodeplan/nodeplan/requirements"
	"github.com/nodeplan/nodeplan/resources"
)

// testCatalog has two types, on-demand in one zone.
func testCatalog() *instancetypes.Catalog {
	var types []instancetypes.InstanceType
	for _, s := range []struct {
		name, cpu, mem string
		dollars        float64
	}{{"m5.large", "2", "8Gi", 0.096}, {"m5.xlarge", "4", "16Gi", 0.192}} {
		types = append(types, instancetypes.InstanceType{Name: s.name,
			Requirements: requirements.NewSet(requirements.MustNew(requirements.LabelArch, requirements.In, "amd64"),
				requirements.MustNew(requirements.LabelOS, requirements.In, "linux")),
			Capacity: resources.MustParse(map[resources.Name]string{resources.CPU: s.cpu, resources.Memory: s.mem, resources.Pods: "110"}),
			Offerings: []instancetypes.Offering{{Zone: "zone-a", CapacityType: instancetypes.OnDemand,
				Price: instancetypes.MustPriceFromDollars(s.dollars), Available: true}}})
	}
	c, err := instancetypes.New(types)
	if err != nil {
		panic(err)
	}
	return c
}

func pod(name, cpu string) packing.Pod {
	return packing.Pod{Namespace: "default", Name: name, UID: name, CreationTime: noon,
		Requests: resources.MustParse(map[resources.Name]string{resources.CPU: cpu, resources.Memory: "256Mi"})}
}

// node is an initialized on-demand m5.large of pool "default" in zone-a.
func node(name string, pods ...packing.Pod) packing.Node {
	return packing.Node{Name: name, NodePool: "default", InstanceType: "m5.large", Zone: "zone-a",
		CapacityType: instancetypes.OnDemand, Initialized: true, CreationTime: noon.Add(-24 * time.Hour),
		Labels: map[string]string{requirements.LabelOS: "linux", requirements.LabelCapacityType: "on-demand",
			requirements.LabelInstanceType: "m5.large", requirements.LabelZone: "zone-a", requirements.LabelHostname: name},
		Allocatable: resources.MustParse(map[resources.Name]string{resources.CPU: "1930m", resources.Memory: "6903Mi", resources.Pods: "29"}),
		Pods:        pods, Price: instancetypes.MustPriceFromDollars(0.096)}
}

func testCluster(nodes ...packing.Node) repair.Cluster {
	return repair.Cluster{Nodes: nodes, Catalog: testCatalog(), NodePools: []packing.NodePool{{Name: "default",
		Requirements: requirements.NewSet(requirements.MustNew(requirements.LabelCapacityType, requirements.In, "on-demand"))}}}
}

func replacing(names ...string) repair.Result {
	var res repair.Result
	for _, n := range names {
		res.Replace = append(res.Replace, repair.Repair{Node: n, NodePool: "default"})
	}
	return res
}

// target is where a home points: the node, the claim, or "unschedulable".
func targets(rep repair.Replacement) map[string]string {
	out := map[string]string{}
	for _, m := range rep.Moves {
		for _, h := range m.Homes {
			switch {
			case h.Node != "":
				out[h.Pod.Name] = h.Node
			case h.NodeClaim != "":
				out[h.Pod.Name] = h.NodeClaim
			default:
				out[h.Pod.Name] = "unschedulable"
			}
		}
	}
	return out
}

func TestPlan(t *testing.T) {
	daemon := pod("ds-x", "100m")
	daemon.Owner = "DaemonSet/default/ds"
	notReady := node("sick-b", pod("b1", "500m"))
	notReady.Taints = []requirements.Taint{{Key: "node.kubernetes.io/not-ready", Effect: requirements.NoSchedule}}
	tests := []struct {
		name   string
		cl     repair.Cluster
		res    repair.Result
		want   map[string]string
		claims int
		price  string
	}{
		{"nothing to replace", testCluster(node("a", pod("a1", "1"))), repair.Result{}, map[string]string{}, 0, "0.000000/h"},
		{"pods move to a node with room", testCluster(node("sick", pod("s1", "500m"), pod("s2", "500m")), node("roomy")),
			replacing("sick"), map[string]string{"s1": "roomy", "s2": "roomy"}, 0, "0.000000/h"},
		{"pods without room get one new claim", testCluster(node("sick", pod("s1", "1"), pod("s2", "500m")), node("full", pod("f", "1800m"))),
			replacing("sick"), map[string]string{"s1": "repair-replacement-1", "s2": "repair-replacement-1"}, 1, "0.096000/h"},
		{"daemonset pods go with their node", testCluster(node("sick", pod("s1", "500m"), daemon), node("roomy")),
			replacing("sick"), map[string]string{"s1": "roomy"}, 0, "0.000000/h"},
		{"two repaired nodes do not take each other's pods", testCluster(node("sick-a", pod("a1", "500m")), node("sick-b", pod("b1", "500m"))),
			replacing("sick-a", "sick-b"), map[string]string{"a1": "repair-replacement-1", "b1": "repair-replacement-1"}, 1, "0.096000/h"},
		{"a tainted NotReady node kept takes no pod", testCluster(node("sick-a", pod("a1", "500m")), notReady),
			replacing("sick-a"), map[string]string{"a1": "repair-replacement-1"}, 1, "0.096000/h"},
		{"a pod too big for any type is unschedulable, the node goes anyway", testCluster(node("sick", pod("huge", "64"))),
			replacing("sick"), map[string]string{"huge": "unschedulable"}, 0, "0.000000/h"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			rep, err := repair.Plan(tc.res, tc.cl)
			require.NoError(t, err)
			assert.Equal(t, tc.want, targets(rep))
			assert.Len(t, rep.NodeClaims, tc.claims)
			assert.Equal(t, tc.price, rep.Price.String())
			assert.Empty(t, verify.Plan(rep.Problem, rep.Solution), "the plan verifies")
			require.Len(t, rep.Moves, len(tc.res.Replace))
			for i, m := range rep.Moves {
				assert.Equal(t, tc.res.Replace[i].Node, m.Node)
			}
		})
	}
}

func TestPlanDoesNotModify(t *testing.T) {
	cl := testCluster(node("sick", pod("s1", "1")), node("roomy"))
	rep, err := repair.Plan(replacing("sick"), cl)
	require.NoError(t, err)
	assert.Len(t, cl.Nodes[0].Pods, 1)
	assert.False(t, cl.Nodes[0].MarkedForDeletion)
	assert.Empty(t, cl.Nodes[1].Pods)
	assert.True(t, rep.Problem.Nodes[0].MarkedForDeletion, "the plan's cluster has the repaired node marked")
}

func TestPlanInvalid(t *testing.T) {
	cl := testCluster(node("a"))
	_, err := repair.Plan(replacing("ghost", "a", "a"), cl)
	require.ErrorIs(t, err, repair.ErrInvalidInput)
	var ie *repair.InputError
	require.True(t, errors.As(err, &ie))
	assert.Equal(t, "replace[0]", ie.Where)
	assert.ErrorContains(t, err, `node "ghost" is not in the cluster`)
	assert.ErrorContains(t, err, `replace[2]: node "a" repaired twice`)
}
