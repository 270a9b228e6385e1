package drift_test

import (
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nodeplan/nodeplan/disruption"
	"github.com/nodeplan/nodeplan/drift"
	"github.com/nodeplan/nodeplan/packing"
	"github.com/nodeplan/nodeplan/resources"
)

// TestValidateOptions: every out-of-range duration of the input is an
// error naming its object and field.
func TestValidateOptions(t *testing.T) {
	tests := []struct {
		name   string
		mutate func(*drift.Input)
		want   string
	}{
		{"negative expiration grace period", func(in *drift.Input) { in.Expiration.GracePeriod = -time.Second },
			"Input: expiration.gracePeriod: is negative (-1s)"},
		{"negative expireAfter", func(in *drift.Input) { in.NodePools[0].NodePool.Disruption.ExpireAfter = -time.Hour },
			"nodePools[0]: disruption.expireAfter: is negative (-1h0m0s)"},
		{"negative terminationGracePeriod", func(in *drift.Input) {
			in.NodePools[0].NodePool.Disruption.TerminationGracePeriod = -time.Minute
		}, "nodePools[0]: disruption.terminationGracePeriod: is negative (-1m0s)"},
		{"negative pod grace period", func(in *drift.Input) {
			in.Nodes[0].PodGracePeriods = map[string]time.Duration{"default/p": -time.Second}
		}, `nodes[0]: podGracePeriods["default/p"]: is negative (-1s)`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			in := input(state("n1", pod("p", "100m")))
			require.NoError(t, in.Validate())
			tc.mutate(&in)
			err := in.Validate()
			require.Error(t, err)
			assert.ErrorIs(t, err, drift.ErrInvalid)
			assert.Equal(t, tc.want, err.Error())
			assert.ErrorContains(t, drift.Cluster{Input: in}.Validate(), tc.want)
		})
	}
}

// TestClusterValidate: what Commands cannot decide on is an error naming
// the object and field.
func TestClusterValidate(t *testing.T) {
	tests := []struct {
		name   string
		mutate func(*drift.Cluster)
		want   string
	}{
		{"no catalog", func(cl *drift.Cluster) { cl.Catalog = nil }, "catalog"},
		{"a pod on two nodes", func(cl *drift.Cluster) { cl.Nodes[1].Node.Pods = []packing.Pod{pod("p", "100m")} },
			"nodes[1].node.pods[0]: name: pod default/p is held by an earlier node too"},
		{"a pod without a name", func(cl *drift.Cluster) { cl.Nodes[1].Node.Pods = []packing.Pod{pod("", "100m")} },
			"nodes[1].node.pods[0]: name: is empty"},
		{"a negative request", func(cl *drift.Cluster) {
			cl.Nodes[1].Node.Pods = []packing.Pod{{Namespace: "default", Name: "q", Requests: resources.List{CPU: -1}}}
		}, "requests.cpu"},
		{"an invalid budget", func(cl *drift.Cluster) {
			cl.NodePools[0].NodePool.Disruption.Budgets = []packing.Budget{{Nodes: "-1"}}
		}, `nodepool "default": disruption budget 0`},
		{"a PDB without a name", func(cl *drift.Cluster) { cl.PDBs = []disruption.PDB{{Namespace: "default"}} },
			"pdbs[0]: name: is empty"},
		{"two PDBs of one name", func(cl *drift.Cluster) {
			cl.PDBs = []disruption.PDB{{Namespace: "default", Name: "a"}, {Namespace: "default", Name: "a"}}
		}, "pdbs[1]: name: default/a is a duplicate"},
		{"a negative DisruptionsAllowed", func(cl *drift.Cluster) {
			cl.PDBs = []disruption.PDB{{Namespace: "default", Name: "a", DisruptionsAllowed: -1}}
		}, "pdbs[0]: disruptionsAllowed: is negative (-1)"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cl := cluster(drifted("n1", 0, pod("p", "100m")), state("n2"))
			require.NoError(t, cl.Validate())
			tc.mutate(&cl)
			err := cl.Validate()
			require.Error(t, err)
			assert.ErrorContains(t, err, tc.want)
			cmds, blocked := run(cl, now)
			assert.Empty(t, cmds, "no command on an invalid cluster")
			require.Len(t, blocked, 1)
			assert.Contains(t, blocked[0].Why, tc.want)
		})
	}
}

func TestCommandsBlockUnknownReasons(t *testing.T) {
	cl := cluster(state("n1"), state("n2"))
	cmds, blocked := drift.Commands([]drift.Finding{{Node: "n1", Reason: drift.ImageDrifted}, {Node: "n1", Reason: drift.Reason(0)},
		{Node: "ghost", Reason: drift.ImageDrifted}, {Node: "ghost", Reason: drift.Expired}}, cl, now)
	assert.Empty(t, cmds)
	require.Len(t, blocked, 2, "one entry per node")
	assert.Equal(t, "A finding for node n1 has an unknown reason, Reason(0).", blocked[0].Why)
	assert.Equal(t, "Node ghost is not in the cluster.", blocked[1].Why)
}

func TestInterruptionValidatesTheCluster(t *testing.T) {
	cl := cluster(spotNode("s1"))
	cl.PDBs = []disruption.PDB{{Namespace: "default"}}
	_, err := drift.Interruption([]drift.Notice{{Kind: drift.SpotInterruption, Node: "s1", Time: now}}, cl, cl.Catalog, time.Minute, now)
	require.Error(t, err)
	assert.True(t, errors.Is(err, drift.ErrInvalid))
	assert.ErrorContains(t, err, "pdbs[0]: name: is empty")
}
