package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// cnConsolidation is a cluster in cn-north-1: big (an m5.xlarge of pool
// default running one small pod) is replaced by an m5.large; solo (an
// m5.large of pool fixed, which allows only m5.large, running a pod
// nothing else holds) is kept with a message that names a price.
func cnConsolidation() string {
	pool := func(name, types string) string {
		return `apiVersion: karpenter.sh/v1
kind: NodePool
metadata: {name: ` + name + `}
spec:
  template:
    spec:
      nodeClassRef: {group: karpenter.k8s.aws, kind: EC2NodeClass, name: default}
      requirements:
        - {key: karpenter.sh/capacity-type, operator: In, values: [on-demand]}
        - {key: node.kubernetes.io/instance-type, operator: In, values: [` + types + `]}
  disruption: {consolidationPolicy: WhenEmptyOrUnderutilized, consolidateAfter: 0s, budgets: [{nodes: "100%"}]}
`
	}
	node := func(name, typ, pool, allocatable, pod, cpu string) string {
		return `apiVersion: v1
kind: Node
metadata:
  name: ` + name + `
  creationTimestamp: "2025-06-01T08:00:00Z"
  labels: {node.kubernetes.io/instance-type: ` + typ + `, topology.kubernetes.io/zone: cn-north-1a, karpenter.sh/nodepool: ` + pool + `,
    karpenter.sh/capacity-type: on-demand, karpenter.sh/initialized: "true"}
status: {allocatable: ` + allocatable + `}
---
apiVersion: v1
kind: Pod
metadata: {name: ` + pod + `, namespace: default, creationTimestamp: "2025-06-01T09:00:00Z"}
spec: {nodeName: ` + name + `, containers: [{name: main, image: app, resources: {requests: {cpu: ` + cpu + `, memory: 1Gi}}}]}
status: {phase: Running}
`
	}
	return strings.Join([]string{pool("default", "m5.large, m5.xlarge, c5.large"), pool("fixed", "m5.large"),
		node("big", "m5.xlarge", "default", `{cpu: "3920m", memory: 14Gi, pods: "58"}`, "small", "500m"),
		node("solo", "m5.large", "fixed", `{cpu: "1930m", memory: 6903Mi, pods: "29"}`, "large", "1500m")}, "---\n")
}

// TestConsolidateCurrency: on a catalog priced in CNY every price that
// nodeplan consolidate prints, in the table, in a kept node's message and
// in the JSON, is in CNY, and none is in dollars.
func TestConsolidateCurrency(t *testing.T) {
	file := filepath.Join(t.TempDir(), "cn.yaml")
	require.NoError(t, os.WriteFile(file, []byte(cnConsolidation()), 0o644))
	var stdout, stderr bytes.Buffer
	require.Equal(t, exitOK, run([]string{"consolidate", "-f", file, "--region", "cn-north-1"}, nil, &stdout, &stderr), stderr.String())
	out := columns.ReplaceAllString(stdout.String(), " ")
	for _, s := range []string{"SAVINGS CNY/HOUR", "consolidation-1 (m5.large cn-north-1a on-demand 1.013000 CNY/hour)",
		"solo NoCheaperReplacement no instance type for the replacement is cheaper than 1.013000 CNY/hour\n",
		"saves 1.013000 CNY/hour, 739.49 CNY/month"} {
		assert.Contains(t, out, s)
	}
	assert.NotContains(t, out, "$")
	assert.NotContains(t, out, "USD")

	stdout.Reset()
	require.Equal(t, exitOK, run([]string{"consolidate", "-f", file, "--region", "cn-north-1", "-o", "json"}, nil, &stdout, &stderr), stderr.String())
	var r struct {
		Summary struct{ Currency string }
		Kept    []struct{ Message string }
	}
	require.NoError(t, json.Unmarshal(stdout.Bytes(), &r))
	assert.Equal(t, "CNY", r.Summary.Currency)
	require.Len(t, r.Kept, 1)
	assert.Equal(t, "no instance type for the replacement is cheaper than 1.013000 CNY/hour", r.Kept[0].Message)
	assert.NotContains(t, stdout.String(), "$")
}

// inRegion writes a copy of the us-east-1 manifests in path with every
// "us-east-1" (region and zone names) replaced by region, and returns its
// path.
func inRegion(t *testing.T, path, region string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	file := filepath.Join(t.TempDir(), filepath.Base(path))
	require.NoError(t, os.WriteFile(file, []byte(strings.ReplaceAll(string(data), "us-east-1", region)), 0o644))
	return file
}

// TestDriftCurrency: the drift report of a cluster in cn-north-1 names
// CNY as the currency of its prices.
func TestDriftCurrency(t *testing.T) {
	file := inRegion(t, "../../testdata/drift.yaml", "cn-north-1")
	var stdout, stderr bytes.Buffer
	require.Equal(t, exitOK, run([]string{"drift", "-f", file, "--region", "cn-north-1", "-o", "json"}, nil, &stdout, &stderr), stderr.String())
	var r struct{ Currency string }
	require.NoError(t, json.Unmarshal(stdout.Bytes(), &r))
	assert.Equal(t, "CNY", r.Currency)
	assert.NotContains(t, stdout.String(), "$")
}

// TestProvisionYAMLCurrency: the NodeClaims provision writes name their
// price's currency beside the amount.
func TestProvisionYAMLCurrency(t *testing.T) {
	for region, code := range map[string]string{"us-east-1": "USD", "cn-north-1": "CNY"} {
		var stdout, stderr bytes.Buffer
		run([]string{"provision", "-f", inRegion(t, "../../testdata/cluster.yaml", region), "--region", region, "-o", "yaml"}, nil, &stdout, &stderr)
		claims := strings.Count(stdout.String(), "\nkind: NodeClaim\n")
		require.Positive(t, claims, stderr.String())
		assert.Equal(t, claims, strings.Count(stdout.String(), "nodeplan.io/price-currency: "+code+"\n"), region)
		assert.Equal(t, claims, strings.Count(stdout.String(), "nodeplan.io/price-per-hour: "), region)
	}
}
