package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const staticFixture = "../../testdata/manifests/static-replicas.yaml"

// nodeplan static prints each static pool's scale-up, scale-down and
// StaticDrift, priced at the pool's cheapest compatible offering.
func TestStaticTable(t *testing.T) {
	var stdout, stderr bytes.Buffer
	require.Equal(t, exitOK, run([]string{"static", "-f", staticFixture}, nil, &stdout, &stderr), stderr.String())
	out := stdout.String()
	for _, want := range []string{
		"now 2025-06-01T09:00:00Z (newest creationTimestamp)",
		"NODEPOOL  REPLICAS  ACTIVE  DELETING  PENDING  CREATE  REMOVE  REPLACE  LAUNCH                         USD/HOUR\n",
		"grow      3         0       0         0        2       0       0        c5.large us-east-1a on-demand  0.170000\n",
		"steady    replace  steady-a     Drifted: a new NodeClaim first, then delete it\n",
		"shrink    delete   shrink-idle  Empty\n",
		"grow      LimitReached  NodePool grow's limits.nodes 2, with 0 active",
		"2 NodeClaims to create, 1 to delete, 1 to replace; new NodeClaims 0.266000 USD/hour\n",
	} {
		assert.Contains(t, out, want)
	}
}

func TestStaticJSON(t *testing.T) {
	var stdout, stderr bytes.Buffer
	require.Equal(t, exitOK, run([]string{"static", "-f", staticFixture, "-o", "json", "--now", "2025-06-02T00:00:00Z"}, nil, &stdout, &stderr), stderr.String())
	var r struct {
		Kind      string
		NowFrom   string
		NodePools []struct {
			NodePool      string
			Create        int
			CreatePerHour *float64
			Launch        *struct{ InstanceType string }
			Remove        []struct{ NodeClaim, Kind string }
			Replace       []string
			Explanations  []struct{ Reason string }
		}
		Summary struct {
			Create, Remove, Replace int
			CreatePerHour           float64
		}
	}
	require.NoError(t, json.Unmarshal(stdout.Bytes(), &r))
	assert.Equal(t, "StaticReport", r.Kind)
	assert.Equal(t, "--now", r.NowFrom)
	require.Len(t, r.NodePools, 3)
	grow, shrink, steady := r.NodePools[0], r.NodePools[1], r.NodePools[2]
	assert.Equal(t, []string{"steady-a"}, steady.Replace)
	assert.Equal(t, "c5.large", grow.Launch.InstanceType)
	assert.Equal(t, 2, grow.Create)
	assert.Equal(t, "LimitReached", grow.Explanations[0].Reason)
	assert.Equal(t, "shrink-idle", shrink.Remove[0].NodeClaim)
	assert.Equal(t, "Empty", shrink.Remove[0].Kind)
	assert.InDelta(t, 0.266, r.Summary.CreatePerHour, 1e-9)
	assert.Equal(t, 2, r.Summary.Create)
}

func TestStaticHelp(t *testing.T) {
	var stdout, stderr bytes.Buffer
	assert.Equal(t, exitOK, run([]string{"static", "--help"}, nil, &stdout, &stderr))
	assert.Contains(t, stdout.String()+stderr.String(), "-now")
	assert.Equal(t, exitBadInput, run([]string{"static", "--spot-to-spot", "-f", staticFixture}, nil, &stdout, &stderr))
}

// nodeplan drift leaves the drifted nodes of static pools to StaticDrift,
// as Karpenter's Drift skips static pools: blocked, not replaced.
func TestDriftSkipsStaticPools(t *testing.T) {
	data, err := os.ReadFile(staticFixture)
	require.NoError(t, err)
	// shrink's nodes are m5.large: requiring m5.xlarge drifts them.
	data = bytes.Replace(data, []byte("values: [m5.large]}"), []byte("values: [m5.xlarge]}"), 1)
	file := filepath.Join(t.TempDir(), "static.yaml")
	require.NoError(t, os.WriteFile(file, data, 0o644))
	var stdout, stderr bytes.Buffer
	require.Equal(t, exitOK, run([]string{"drift", "-f", file, "-o", "json"}, nil, &stdout, &stderr), stderr.String())
	var r struct {
		Findings []struct{ Node, Reason string }
		Commands []struct{ Node string }
		Blocked  []struct{ Node, NodePool, Why string }
	}
	require.NoError(t, json.Unmarshal(stdout.Bytes(), &r))
	require.Len(t, r.Findings, 2)
	assert.Equal(t, "RequirementsDrifted", r.Findings[0].Reason)
	assert.Empty(t, r.Commands)
	require.Len(t, r.Blocked, 2)
	assert.Equal(t, "shrink-busy", r.Blocked[0].Node)
	assert.Contains(t, r.Blocked[0].Why, "NodePool shrink is static (spec.replicas): Karpenter's Drift skips it")
}
