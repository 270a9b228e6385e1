package main

import (
	"bytes"
	"encoding/json"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const (
	scaleUp = "testdata/diff/scaleup.yaml"
	shrink  = "testdata/diff/shrink.yaml"
	diffNow = "2025-06-01T12:00:00Z"
)

// runDiff runs nodeplan with args and --now diffNow, and returns the exit
// code, stdout and stderr.
func runDiff(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	code := run(append(args, "--now", diffNow), nil, &stdout, &stderr)
	return code, stdout.String(), stderr.String()
}

// diffJSON runs nodeplan diff -o json on file and decodes the report.
func diffJSON(t *testing.T, file string) (int, diffReport) {
	t.Helper()
	code, stdout, stderr := runDiff(t, "diff", "-f", file, "-o", "json")
	var r diffReport
	require.NoError(t, json.Unmarshal([]byte(stdout), &r), "stderr: %s", stderr)
	return code, r
}

// normalized is text with every run of blanks one space, so that table
// rows compare without their column widths.
func normalized(text string) string {
	var lines []string
	for _, l := range strings.Split(text, "\n") {
		lines = append(lines, strings.Join(strings.Fields(l), " "))
	}
	return strings.Join(lines, "\n")
}

func price(v float64) *float64 { return &v }

// TestDiffPools: nodes and prices per NodePool, the nodes outside NodePools
// last, unknown prices counted apart, and the totals.
func TestDiffPools(t *testing.T) {
	tests := []struct {
		name    string
		file    string
		code    int
		pools   []poolDiff
		summary diffTotals
	}{
		{"scale-up: a new node in each pool", scaleUp, exitUnschedulable, []poolDiff{
			{"od", diffTotals{NodesNow: 1, NodesAdded: 1, NodesAfter: 2, PricePerHourNow: 0.096, PricePerHourAfter: 0.192, DifferencePerHour: 0.096}},
			{"sp", diffTotals{NodesAdded: 1, NodesAfter: 1, PricePerHourAfter: 0.0384, DifferencePerHour: 0.0384}},
		}, diffTotals{NodesNow: 1, NodesAdded: 2, NodesAfter: 3, PricePerHourNow: 0.096, PricePerHourAfter: 0.2304, DifferencePerHour: 0.1344}},
		{"scale-down: deleted, deleting and unknown-price nodes removed", shrink, exitOK, []poolDiff{
			{"default", diffTotals{NodesNow: 5, NodesRemoved: 4, NodesAfter: 1, PricePerHourNow: 0.384, PricePerHourAfter: 0.096,
				DifferencePerHour: -0.288, UnknownPriceNow: 1}},
			{"", diffTotals{NodesNow: 1, NodesAfter: 1, UnknownPriceNow: 1, UnknownPriceAfter: 1}},
		}, diffTotals{NodesNow: 6, NodesRemoved: 4, NodesAfter: 2, PricePerHourNow: 0.384, PricePerHourAfter: 0.096,
			DifferencePerHour: -0.288, UnknownPriceNow: 2, UnknownPriceAfter: 1}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			code, r := diffJSON(t, tc.file)
			assert.Equal(t, tc.code, code)
			assert.Equal(t, tc.pools, r.NodePools)
			assert.Equal(t, tc.summary, r.Summary.diffTotals)
			assert.Equal(t, "USD", r.Summary.Currency)
		})
	}
}

// TestDiffChanges: the nodes added and removed, the pods that move and
// the pending pods placed, by owner.
func TestDiffChanges(t *testing.T) {
	type group struct {
		owner                  string
		count, existing, fresh int
	}
	tests := []struct {
		name   string
		file   string
		nodes  []string // "name change"
		moves  []placement
		placed []group
		unsch  []string
	}{
		{"scale-up", scaleUp, []string{"od-1 added", "sp-2 added"}, []placement{},
			[]group{{"Deployment/web", 3, 1, 2}, {"Deployment/cache", 2, 0, 2}}, []string{"shop/huge"}},
		{"scale-down", shrink, []string{"n2 removed", "n3 removed", "old removed", "mystery removed"}, []placement{
			{Pod: "app/b", From: "n2", Node: "n1"}, {Pod: "app/c", From: "n3", Node: "n1"}, {Pod: "app/d", From: "old", Node: "n1"},
		}, nil, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, r := diffJSON(t, tc.file)
			var nodes []string
			for _, n := range r.Nodes {
				nodes = append(nodes, n.Node+" "+n.Change)
			}
			assert.Equal(t, tc.nodes, nodes)
			assert.Equal(t, tc.moves, r.Moves)
			var placed []group
			for _, g := range r.Placed {
				placed = append(placed, group{g.Owner, g.Count, g.OnExisting, g.OnNew})
				assert.Len(t, g.Pods, g.Count)
			}
			assert.Equal(t, tc.placed, placed)
			var unsch []string
			for _, u := range r.Unschedulable {
				unsch = append(unsch, u.Pod)
			}
			assert.Equal(t, tc.unsch, unsch)
			assert.Equal(t, len(tc.moves), r.Summary.MovedPods)
			assert.Equal(t, len(tc.unsch), r.Summary.UnschedulablePods)
		})
	}
}

// TestDiffNewNodes: an added node is priced at its offering and named as
// a nodeClaim where a pending pod lands on it.
func TestDiffNewNodes(t *testing.T) {
	_, r := diffJSON(t, scaleUp)
	require.Len(t, r.Nodes, 2)
	assert.Equal(t, nodeChange{Node: "sp-2", Change: "added", NodePool: "sp", InstanceType: "m5.large", Zone: "us-east-1a",
		CapacityType: "spot", PricePerHour: price(0.0384)}, r.Nodes[1])
	for _, p := range r.Placed[1].Pods {
		assert.Equal(t, home{Pod: p.Pod, NodeClaim: "sp-2"}, p)
	}
}

// TestDiffTable: the table says what the JSON says.
func TestDiffTable(t *testing.T) {
	tests := []struct {
		name, file, output string
		want               []string
	}{
		{"scale-up", scaleUp, "table", []string{
			"NODEPOOL NOW ADDED REMOVED AFTER USD/HOUR NOW USD/HOUR AFTER DIFFERENCE",
			"od 1 1 0 2 0.096000 0.192000 +0.096000",
			"sp 0 1 0 1 0.000000 0.038400 +0.038400",
			"TOTAL 1 2 0 3 0.096000 0.230400 +0.134400",
			"od-1 added od m5.large us-east-1a on-demand 0.096000",
			"Deployment shop/web 3 1 2",
			"Pod shop/huge — Insufficient: no instance type in NodePool od has 64 cpu",
			"1 node now, 3 after (+2, -0): 0.096000 USD/hour now, 0.230400 after, +0.134400 USD/hour (+98.11 USD/month); " +
				"0 pods moved, 5 pending pods placed, 1 unschedulable",
		}},
		{"scale-up wide lists the pods placed", scaleUp, "wide", []string{"PLACED POD TO", "shop/cache-0 sp-2 (new)"}},
		{"scale-down", shrink, "table", []string{
			"default 5 0 4 1 0.384000 + 1 unknown 0.096000 -0.288000 (unknown: 1 → 0)",
			"- 1 0 0 1 unknown unknown 0.000000",
			"TOTAL 6 0 4 2 0.384000 + 2 unknown 0.096000 + 1 unknown -0.288000 (unknown: 2 → 1)",
			"mystery removed default x9.bogus us-east-1a on-demand unknown",
			"MOVED POD FROM TO\napp/b n2 n1\napp/c n3 n1\napp/d old n1",
			"prices leave out 2 nodes of unknown price now, 1 after",
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, stdout, _ := runDiff(t, "diff", "-f", tc.file, "-o", tc.output)
			got := normalized(stdout)
			for _, w := range tc.want {
				assert.Contains(t, got, w)
			}
			if tc.output == "table" {
				assert.NotContains(t, got, "PLACED POD TO")
			}
		})
	}
}

// TestDiffSchema: the documented fields of the DiffReport, and no others.
func TestDiffSchema(t *testing.T) {
	_, stdout, _ := runDiff(t, "diff", "-f", scaleUp, "-o", "json")
	var doc map[string]any
	require.NoError(t, json.Unmarshal([]byte(stdout), &doc))
	keys := func(v any) []string { return slices.Sorted(maps.Keys(v.(map[string]any))) }
	first := func(k string) any { return doc[k].([]any)[0] }
	assert.Equal(t, "nodeplan.io/v1", doc["apiVersion"])
	assert.Equal(t, "DiffReport", doc["kind"])
	assert.Equal(t, []string{"apiVersion", "kind", "moves", "nodePools", "nodes", "notes", "now", "nowFrom", "placed",
		"summary", "unschedulable", "unschedulableGroups", "warnings"}, keys(doc))
	totals := []string{"differencePerHour", "nodesAdded", "nodesAfter", "nodesNow", "nodesRemoved",
		"pricePerHourAfter", "pricePerHourNow", "unknownPriceAfter", "unknownPriceNow"}
	assert.Equal(t, slices.Sorted(slices.Values(append([]string{"nodePool"}, totals...))), keys(first("nodePools")))
	assert.Equal(t, slices.Sorted(slices.Values(append([]string{"currency", "differencePerMonth", "movedPods", "placedPods", "unschedulablePods"}, totals...))),
		keys(doc["summary"]))
	assert.Equal(t, []string{"capacityType", "change", "instanceType", "node", "nodePool", "pricePerHour", "zone"}, keys(first("nodes")))
	assert.Equal(t, []string{"count", "namespace", "onExisting", "onNew", "owner", "pods"}, keys(first("placed")))
	assert.Equal(t, []string{"message", "nodePool", "pod", "reason"}, keys(first("unschedulable")))

	_, stdout, _ = runDiff(t, "diff", "-f", shrink, "-o", "json")
	require.NoError(t, json.Unmarshal([]byte(stdout), &doc))
	assert.Equal(t, []string{"from", "node", "pod"}, keys(first("moves")))
	assert.Nil(t, doc["nodes"].([]any)[3].(map[string]any)["pricePerHour"], "an unknown price is null")
}

// TestThenConsolidate: provision --then-consolidate prints the plan as
// provision does, then the consolidate command's report on the cluster
// with the plan applied; the JSON keeps the provisioning report's fields.
func TestThenConsolidate(t *testing.T) {
	t.Run("table", func(t *testing.T) {
		code, stdout, stderr := runDiff(t, "provision", "--then-consolidate", "-f", scaleUp)
		assert.Equal(t, exitUnschedulable, code, stderr)
		got := normalized(stdout)
		plan, then, ok := strings.Cut(got, "Then consolidation, on the cluster with the plan applied:")
		require.True(t, ok, got)
		assert.Contains(t, plan, "2 new nodes, 5 pods scheduled, 1 unschedulable")
		assert.NotContains(t, then, "prices: ", "the notes are printed once")
		for _, n := range []string{"n1", "od-1", "sp-2"} { // n1 took a pod; the others are new
			assert.Contains(t, then, n+" ConsolidateAfter node "+n+" had a pod event at 12:00:00")
		}
	})
	t.Run("table, consolidating", func(t *testing.T) {
		code, stdout, _ := runDiff(t, "provision", "--then-consolidate", "-f", shrink)
		assert.Equal(t, exitOK, code)
		_, then, _ := strings.Cut(normalized(stdout), "Then consolidation")
		assert.Contains(t, then, "delete n2,n3")
		assert.Contains(t, then, "old Deleting")
	})
	t.Run("json", func(t *testing.T) {
		_, stdout, _ := runDiff(t, "provision", "--then-consolidate", "-f", scaleUp, "-o", "json")
		var doc struct {
			Kind          string
			Summary       struct{ NewNodes int }
			Consolidation consolidationReport
		}
		require.NoError(t, json.Unmarshal([]byte(stdout), &doc))
		assert.Equal(t, "ProvisioningReport", doc.Kind)
		assert.Equal(t, 2, doc.Summary.NewNodes)
		assert.Equal(t, "ConsolidationReport", doc.Consolidation.Kind)
		assert.Equal(t, diffNow, doc.Consolidation.Now)
		var kept []string
		for _, k := range doc.Consolidation.Kept {
			kept = append(kept, k.Node+" "+k.Why)
		}
		assert.Equal(t, []string{"n1 ConsolidateAfter", "od-1 ConsolidateAfter", "sp-2 ConsolidateAfter"}, kept)
	})
	t.Run("yaml: the consolidation goes to stderr", func(t *testing.T) {
		_, stdout, stderr := runDiff(t, "provision", "--then-consolidate", "-f", scaleUp, "-o", "yaml")
		assert.Contains(t, stdout, "kind: NodeClaim")
		assert.NotContains(t, stdout, "Then consolidation")
		assert.Contains(t, stderr, "Then consolidation")
	})
}

func TestDiffExitCodes(t *testing.T) {
	tests := []cliCase{
		{"all scheduled", []string{"diff", "-f", shrink}, exitOK, "3 pods moved", ""},
		{"some pod unschedulable", []string{"diff", "-f", scaleUp}, exitUnschedulable, "1 unschedulable", ""},
		{"help", []string{"help", "diff"}, exitOK, "Compares the cluster now", ""},
		{"yaml output", []string{"diff", "-f", shrink, "-o", "yaml"}, exitBadInput, "", `-o "yaml": want table, wide or json`},
		{"bad now", []string{"diff", "-f", shrink, "--now", "soon"}, exitBadInput, "", `--now "soon"`},
		{"no files", []string{"diff"}, exitBadInput, "", "nodeplan diff: no manifest given"},
		{"provision --now alone", []string{"provision", "-f", shrink, "--now", diffNow}, exitBadInput, "", "--now and --spot-to-spot are for --then-consolidate"},
		{"provision --spot-to-spot alone", []string{"provision", "-f", shrink, "--spot-to-spot"}, exitBadInput, "", "are for --then-consolidate"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			stdout, _ := check(t, tc.args, tc.code, tc.stdout, tc.stderr)
			if tc.code == exitBadInput {
				assert.Empty(t, stdout)
			}
		})
	}
}
