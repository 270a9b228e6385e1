package drift_test

import (
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nodeplan/nodeplan/disruption"
	"github.com/nodeplan/nodeplan/drift"
	"github.com/nodeplan/nodeplan/packing"
	"github.com/nodeplan/nodeplan/resources"
)

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
			findings := evaluate(t, cl.Input, now)
			require.NotEmpty(t, findings, "the valid cluster has a drifted node")
			tc.mutate(&cl)
			err := cl.Validate()
			require.Error(t, err)
			assert.ErrorContains(t, err, tc.want)
			assert.ErrorIs(t, err, drift.ErrInvalid, "every validation error matches ErrInvalid")
			cmds, blocked, err := drift.Commands(findings, clusterAt(cl, now))
			require.Error(t, err, "Commands returns the error")
			assert.ErrorIs(t, err, drift.ErrInvalid)
			assert.ErrorContains(t, err, tc.want)
			assert.Nil(t, cmds, "no command on an invalid cluster")
			assert.Nil(t, blocked, "no Blocked entry either: the error says it all")
		})
	}
}

// TestClusterValidateKeepsOtherPackagesErrors: the packing and budget
// errors still match their own packages' types.
func TestClusterValidateKeepsOtherPackagesErrors(t *testing.T) {
	cl := cluster(state("n1"))
	cl.Nodes[0].Node.Pods = []packing.Pod{{Namespace: "default", Name: "q", Requests: resources.List{CPU: -1}}}
	cl.NodePools[0].NodePool.Disruption.Budgets = []packing.Budget{{Nodes: "-1"}}
	err := cl.Validate()
	assert.ErrorIs(t, err, packing.ErrInvalidProblem)
	var pfe *packing.FieldError
	assert.ErrorAs(t, err, &pfe)
	var be *disruption.BudgetError
	assert.ErrorAs(t, err, &be)
	assert.ErrorIs(t, err, drift.ErrInvalid)
}

// TestEvaluateRejectsInvalidInput: Input.Validate names each invalid field,
// and Evaluate and Commands return that error and nothing else, where they
// used to read the input some way (the first of two NodePools, a negative
// duration as none).
func TestEvaluateRejectsInvalidInput(t *testing.T) {
	tests := []struct {
		name   string
		mutate func(*drift.Input)
		want   string
	}{
		{"two nodes of one name", func(in *drift.Input) { in.Nodes = append(in.Nodes, state("n1")) },
			`nodes[2]: node.name: "n1" is a duplicate`},
		{"a node without a name", func(in *drift.Input) { in.Nodes = append(in.Nodes, state("")) },
			"nodes[2]: node.name: is empty"},
		{"two NodePools of one name", func(in *drift.Input) {
			other := template("default")
			other.NodePool.Labels = map[string]string{"team": "db"}
			in.NodePools = append(in.NodePools, other)
		}, `nodePools[1]: nodePool.name: "default" is a duplicate`},
		{"a NodePool without a name", func(in *drift.Input) { in.NodePools = append(in.NodePools, template("")) },
			"nodePools[1]: nodePool.name: is empty"},
		{"a NodeClass under another name", func(in *drift.Input) { in.NodeClasses["x"] = drift.NodeClass{Name: "y"} },
			`NodeClass x: name: is "y"`},
		{"a negative expiration grace period", func(in *drift.Input) { in.Expiration.GracePeriod = -time.Second },
			"Input: expiration.gracePeriod: is negative (-1s)"},
		{"a negative expireAfter", func(in *drift.Input) { in.NodePools[0].NodePool.Disruption.ExpireAfter = -time.Hour },
			"nodePools[0]: disruption.expireAfter: is negative (-1h0m0s)"},
		{"a negative terminationGracePeriod", func(in *drift.Input) {
			in.NodePools[0].NodePool.Disruption.TerminationGracePeriod = -time.Minute
		}, "nodePools[0]: disruption.terminationGracePeriod: is negative (-1m0s)"},
		{"a negative pod grace period", func(in *drift.Input) {
			in.Nodes[0].PodGracePeriods = map[string]time.Duration{"default/p": -time.Second, "default/q": time.Second}
		}, `nodes[0]: podGracePeriods["default/p"]: is negative (-1s)`},
	}
	at := t0.Add(721 * time.Hour)
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			n1 := drifted("n1", 0, pod("p", "100m"))
			in := input(n1, state("spare"))
			findings := evaluate(t, in, at)
			require.NotEmpty(t, findings, "the valid input has findings")
			tc.mutate(&in)
			assert.EqualError(t, in.Validate(), tc.want)
			got, err := drift.Evaluate(inputAt(in, at))
			require.Error(t, err)
			assert.Nil(t, got)
			assert.Equal(t, tc.want, err.Error())
			assert.ErrorIs(t, err, drift.ErrInvalid)
			var fe *drift.FieldError
			assert.ErrorAs(t, err, &fe)
			cmds, blocked, err := drift.Commands(findings, clusterAt(drift.Cluster{Input: in}, at))
			assert.ErrorContains(t, err, tc.want, "Commands rejects it too")
			assert.Nil(t, cmds)
			assert.Nil(t, blocked)
		})
	}
}

// TestCommandsRejectsInvalidFindings: a finding Commands cannot act on
// (no node, a Reason not of the package, forceful drift, a graceful
// interruption, inconsistent times) is an error naming it; a finding for a
// node not in the cluster is stale and blocked.
func TestCommandsRejectsInvalidFindings(t *testing.T) {
	tests := []struct {
		name    string
		finding drift.Finding
		want    string
	}{
		{"the zero reason", drift.Finding{Node: "n1"}, "findings[1]: reason: Reason(0) is unknown"},
		{"a reason past the last", drift.Finding{Node: "n1", Reason: drift.Interrupted + 1}, "findings[1]: reason: Reason(10) is unknown"},
		{"no node", drift.Finding{Reason: drift.ImageDrifted}, "findings[1]: node: is empty"},
		{"forceful drift", drift.Finding{Node: "n1", Reason: drift.NodePoolDrifted, Forceful: true},
			"findings[1]: forceful: is true for NodePoolDrifted: drift is always budgeted"},
		{"graceful interruption", drift.Finding{Node: "n1", Reason: drift.Interrupted},
			"findings[1]: forceful: is false for Interrupted: an interruption is never budgeted"},
		{"graceful expiration without a deadline", drift.Finding{Node: "n1", Reason: drift.Expired},
			"findings[1]: deadline: is zero for a graceful expiration (Expired, not forceful): it says when the expiration turns forceful"},
		{"since after now", drift.Finding{Node: "n1", Reason: drift.Expired, Forceful: true, Since: now.Add(time.Hour)},
			"findings[1]: since: " + now.Add(time.Hour).Format(time.RFC3339) + " is after now (" + now.Format(time.RFC3339) + ")"},
		{"deadline before since", drift.Finding{Node: "n1", Reason: drift.Expired, Since: now, Deadline: now.Add(-time.Hour)},
			"findings[1]: deadline: " + now.Add(-time.Hour).Format(time.RFC3339) + " is before since (" + now.Format(time.RFC3339) + ")"},
		{"deadline on drift", drift.Finding{Node: "n1", Reason: drift.ImageDrifted, Deadline: now},
			"findings[1]: deadline: is set for ImageDrifted: only an expiration has one"},
	}
	cl := cluster(drifted("n1", 0), state("n2"))
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			findings := []drift.Finding{{Node: "n2", Reason: drift.ImageDrifted}, tc.finding}
			cmds, blocked, err := drift.Commands(findings, clusterAt(cl, now))
			require.Error(t, err)
			assert.Equal(t, tc.want, err.Error())
			assert.ErrorIs(t, err, drift.ErrInvalid)
			assert.Nil(t, cmds)
			assert.Nil(t, blocked)
		})
	}
	t.Run("a node not in the cluster is blocked", func(t *testing.T) {
		cmds, blocked := commands(t, []drift.Finding{{Node: "ghost", Reason: drift.ImageDrifted}, {Node: "ghost", Reason: drift.Expired, Forceful: true}}, cl, now)
		assert.Empty(t, cmds)
		require.Len(t, blocked, 1, "one entry per node")
		assert.Equal(t, "Node ghost is not in the cluster.", blocked[0].Message)
	})
}

// TestInterruptionRejectsInvalidInput: Interruption validates the cluster
// as Commands does, whether or not a notice drains a node.
func TestInterruptionRejectsInvalidInput(t *testing.T) {
	spot := drift.Notice{Kind: drift.SpotInterruption, Node: "s1", Time: now}
	rebalance := drift.Notice{Kind: drift.RebalanceRecommendation, Node: "s1", Time: now}
	running := drift.Notice{Kind: drift.StateChange, Node: "s1", State: "running", Time: now}
	tests := []struct {
		name    string
		notices []drift.Notice
		mutate  func(*drift.Cluster)
		want    string
	}{
		{"an invalid PDB, a node drains", []drift.Notice{spot}, func(cl *drift.Cluster) { cl.PDBs = []disruption.PDB{{Namespace: "default"}} },
			"pdbs[0]: name: is empty"},
		{"an invalid PDB, nothing drains", []drift.Notice{rebalance}, func(cl *drift.Cluster) { cl.PDBs = []disruption.PDB{{Namespace: "default"}} },
			"pdbs[0]: name: is empty"},
		{"two nodes of one name", []drift.Notice{running}, func(cl *drift.Cluster) { cl.Nodes = append(cl.Nodes, state("s1")) },
			`nodes[1]: node.name: "s1" is a duplicate`},
		{"a negative expireAfter, a stale notice", []drift.Notice{{Kind: drift.SpotInterruption, Node: "ghost"}}, func(cl *drift.Cluster) {
			cl.NodePools[0].NodePool.Disruption.ExpireAfter = -time.Hour
		}, "nodePools[0]: disruption.expireAfter: is negative"},
		{"no catalog, nothing drains", []drift.Notice{rebalance}, func(cl *drift.Cluster) { cl.Catalog = nil },
			"Interruption: catalog: is nil"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cl := cluster(spotNode("s1"))
			_, err := drift.Interruption(tc.notices, clusterAt(cl, now), cl.Catalog, time.Minute)
			require.NoError(t, err, "the valid cluster")
			tc.mutate(&cl)
			plan, err := drift.Interruption(tc.notices, clusterAt(cl, now), cl.Catalog, time.Minute)
			require.Error(t, err)
			assert.ErrorIs(t, err, drift.ErrInvalid)
			assert.ErrorContains(t, err, tc.want)
			assert.Empty(t, plan.Actions)
		})
	}
}

// TestClusterValidateAllocatesNothingPerPod: validating a valid cluster
// costs no allocation per bound pod, the set of pod names aside (a few
// allocations in all, as it is sized up front); it formatted every pod's
// path, valid or not.
func TestClusterValidateAllocatesNothingPerPod(t *testing.T) {
	allocs := func(pods int) float64 {
		cl := cluster(state("n1"), state("n2"))
		for i := range pods {
			cl.Nodes[i%2].Node.Pods = append(cl.Nodes[i%2].Node.Pods, pod("p"+strconv.Itoa(i), "1m"))
		}
		require.NoError(t, cl.Validate())
		return testing.AllocsPerRun(20, func() { _ = cl.Validate() })
	}
	const n = 1000
	one, many := allocs(1), allocs(n)
	assert.Less(t, many-one, float64(n)/50, "allocations grow with the bound pods: %v for 1 pod, %v for %d", one, many, n)
}
