package kube

import (
	"errors"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/nodeplan/nodeplan/instancetypes"
	"github.com/nodeplan/nodeplan/repair"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var repairNow = time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC)

func loadRepairSample(t *testing.T, edit func(string) string) Cluster {
	t.Helper()
	data, err := os.ReadFile("testdata/repair.yaml")
	require.NoError(t, err)
	c, err := Load(Source{Name: "repair.yaml", Data: []byte(edit(string(data)))})
	require.NoError(t, err)
	return c
}

func same(s string) string { return s }

// TestRepairInput: the sample's nodes come out with their pool, the
// conditions the AWS policies name (Ready, AcceleratedHardwareReady) with
// their times, and whether a NodeClaim manages them.
func TestRepairInput(t *testing.T) {
	c := loadRepairSample(t, same)
	in, err := c.Repair(repairNow, nil)
	require.NoError(t, err)
	assert.Nil(t, in.Policies, "nil: Decide's default, the AWS policies")
	assert.Equal(t, repairNow, in.Now)
	byName := map[string]repair.Node{}
	for _, n := range in.Nodes {
		byName[n.Name] = n
	}
	require.Len(t, byName, 8)
	at := func(s string) time.Time { t, _ := time.Parse(time.RFC3339, s); return t }
	assert.Equal(t, repair.Node{Name: "web-a", NodePool: "web",
		Conditions: []repair.Condition{{Type: "Ready", Status: repair.ConditionFalse, LastTransitionTime: at("2025-06-01T11:00:00Z")}}}, byName["web-a"])
	assert.Equal(t, []repair.Condition{{Type: "Ready", Status: repair.ConditionTrue, LastTransitionTime: at("2025-05-20T00:05:00Z")},
		{Type: "AcceleratedHardwareReady", Status: repair.ConditionFalse, LastTransitionTime: at("2025-06-01T11:45:00Z")}}, byName["batch-a"].Conditions)
	assert.True(t, byName["legacy"].Unmanaged, "no NodeClaim")
	assert.Empty(t, byName["legacy"].NodePool)
	assert.False(t, byName["web-b"].Unmanaged)

	res, err := repair.Decide(in)
	require.NoError(t, err)
	got := map[string]string{}
	for _, r := range res.Replace {
		got[r.Node] = "replace"
	}
	for _, k := range res.Kept {
		got[k.Node] = k.Why.String()
	}
	assert.Equal(t, map[string]string{"web-a": "replace", "web-b": "Healthy", "web-c": "Healthy", "web-d": "Healthy",
		"batch-a": "PoolUnhealthy", "batch-b": "Tolerating", "batch-c": "Healthy", "legacy": "Unmanaged"}, got)
}

// Conditions no policy names are not read; with a user's policy, its
// type is.
func TestRepairInputPolicies(t *testing.T) {
	c := loadRepairSample(t, same)
	in, err := c.Repair(repairNow, []repair.Policy{{ConditionType: "AcceleratedHardwareReady", ConditionStatus: repair.ConditionFalse}})
	require.NoError(t, err)
	for _, n := range in.Nodes {
		if n.Name == "batch-a" {
			assert.Len(t, n.Conditions, 1)
		} else {
			assert.Empty(t, n.Conditions, n.Name)
		}
	}
}

// A NodeClaim being deleted marks its node Deleting; one joined by
// providerID alone (no status.nodeName) manages its node.
func TestRepairInputClaims(t *testing.T) {
	c := loadRepairSample(t, func(s string) string {
		s = strings.Replace(s, "  name: web-a-claim\n", "  name: web-a-claim\n  deletionTimestamp: \"2025-06-01T11:59:00Z\"\n  finalizers: [karpenter.sh/termination]\n", 1)
		return strings.Replace(s, "  nodeName: web-b\n", "", 1)
	})
	in, err := c.Repair(repairNow, nil)
	require.NoError(t, err)
	for _, n := range in.Nodes {
		switch n.Name {
		case "web-a":
			assert.True(t, n.Deleting)
		case "web-b":
			assert.False(t, n.Unmanaged, "joined by providerID")
		}
	}
}

// A condition a policy reads with a status that is not True, False or
// Unknown, or without a lastTransitionTime, is an error naming the file,
// document, Node and field; one no policy reads is not.
func TestRepairInputErrors(t *testing.T) {
	tests := []struct {
		name, old, new, err string
	}{
		{"bad status", `{type: Ready, status: "False", reason: Test, message: "", lastHeartbeatTime: "2025-06-01T11:00:00Z", lastTransitionTime: "2025-06-01T11:00:00Z"}`,
			`{type: Ready, status: "Broken", lastTransitionTime: "2025-06-01T11:00:00Z"}`,
			`repair.yaml: document 4: Node web-a: status.conditions[0].status: invalid object: "Broken" is not True, False or Unknown`},
		{"no time", `{type: Ready, status: "False", reason: Test, message: "", lastHeartbeatTime: "2025-06-01T11:00:00Z", lastTransitionTime: "2025-06-01T11:00:00Z"}`,
			`{type: Ready, status: "False"}`,
			`Node web-a: status.conditions[0].lastTransitionTime: invalid object: missing on a Ready condition, which a repair policy reads`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c := loadRepairSample(t, func(s string) string {
				out := strings.Replace(s, tc.old, tc.new, 1)
				require.NotEqual(t, s, out)
				return out
			})
			_, err := c.Repair(repairNow, nil)
			require.Error(t, err)
			assert.True(t, errors.Is(err, ErrInvalid))
			var oe *ObjectError
			assert.True(t, errors.As(err, &oe))
			assert.Contains(t, err.Error(), tc.err)
			_, err = c.Repair(repairNow, []repair.Policy{{ConditionType: "KernelReady", ConditionStatus: repair.ConditionFalse}})
			assert.NoError(t, err, "a condition no policy reads is not checked")
		})
	}
}

// RepairCluster gives repair.Plan the nodes priced on the catalog, and
// the plan of the sample verifies: web-a's pods go to web-c and a new node.
func TestRepairCluster(t *testing.T) {
	c := loadRepairSample(t, same)
	cat, err := instancetypes.AWS(instancetypes.Options{})
	require.NoError(t, err)
	cl, err := c.RepairCluster(cat)
	require.NoError(t, err)
	require.Len(t, cl.Nodes, 8)
	for _, n := range cl.Nodes {
		if n.NodePool != "" {
			assert.False(t, n.PriceUnknown, n.Name)
		}
	}
	in, err := c.Repair(repairNow, nil)
	require.NoError(t, err)
	res, err := repair.Decide(in)
	require.NoError(t, err)
	rep, err := repair.Plan(res, cl)
	require.NoError(t, err)
	require.Len(t, rep.Moves, 1)
	homes := map[string]string{}
	for _, h := range rep.Moves[0].Homes {
		homes[h.Pod.String()] = h.Node + h.NodeClaim + h.Unschedulable
	}
	assert.Equal(t, map[string]string{"shop/web-1": "web-c", "shop/web-2": "repair-replacement-1", "shop/web-3": "repair-replacement-1"}, homes)
	require.Len(t, rep.NodeClaims, 1)
	assert.Equal(t, "web", rep.NodeClaims[0].NodePool)
}

// FuzzRepair: on any manifests Load accepts, Repair never panics; it fails
// only with an *ObjectError in a *DocumentError naming the file, and
// otherwise gives repair.Decide an input it accepts, whose every Node of
// the cluster comes out once.
func FuzzRepair(f *testing.F) {
	if data, err := os.ReadFile("testdata/repair.yaml"); err == nil {
		f.Add(data)
	}
	node := "apiVersion: v1\nkind: Node\nmetadata: {name: n}\nstatus: {conditions: [{type: %s, status: %s, lastTransitionTime: %s}]}\n"
	for _, s := range hostile {
		f.Add([]byte(strings.NewReplacer("%s", "'"+strings.ReplaceAll(s, "'", "''")+"'").Replace(node)))
	}
	f.Add([]byte("apiVersion: v1\nkind: Node\nmetadata: {name: n}\nstatus: {conditions: [{type: Ready, status: 'False'}, {type: Ready, status: 'True', lastTransitionTime: '2025-01-01T00:00:00Z'}]}\n"))
	f.Add([]byte("apiVersion: v1\nkind: Node\nmetadata: {name: n}\nstatus: {conditions: [{type: Ready, status: Maybe, lastTransitionTime: '0001-01-01T00:00:00Z'}]}\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := Load(Source{Name: "fuzz.yaml", Data: data})
		if err != nil {
			return
		}
		in, err := c.Repair(repairNow, nil)
		if err != nil {
			var de *DocumentError
			var oe *ObjectError
			if !errors.As(err, &de) || de.File != "fuzz.yaml" || !errors.As(err, &oe) || oe.Kind != "Node" {
				t.Fatalf("error %v (%T)", err, err)
			}
			return
		}
		res, err := repair.Decide(in)
		if err != nil {
			t.Fatalf("Decide rejects Repair's input: %v", err)
		}
		if len(res.Replace)+len(res.Kept) != len(c.Nodes) {
			t.Fatalf("%d nodes, %d verdicts", len(c.Nodes), len(res.Replace)+len(res.Kept))
		}
	})
}
