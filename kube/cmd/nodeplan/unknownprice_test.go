package main

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestUnknownPrice: the us-east-1 manifests read on a catalog offered in
// zone us-east-1b only, which has no offering in zone us-east-1a. No node is priced at
// 0: consolidate deletes the empty node (as Karpenter's emptiness would)
// with its savings unknown, keeps the others (PriceUnknown) and warns
// about each; provision writes the existing node's price as unknown, null
// in the JSON.
func TestUnknownPrice(t *testing.T) {
	const consolidateYAML, clusterYAML = "../../testdata/consolidate.yaml", "../../testdata/cluster.yaml"
	warning := func(node, typ string) string {
		return "Node " + node + ": price unknown: the us-east-1 catalog has no on-demand offering of " + typ +
			" in zone us-east-1a; it is left out of price totals, and consolidated only when empty"
	}
	tests := []struct {
		name      string
		args      []string
		code      int
		contains  []string
		forbidden []string
	}{
		{"consolidate table", []string{"consolidate", "-f", consolidateYAML, "--zones", "us-east-1b"}, exitOK, []string{
			"1 Empty Emptiness delete idle-1 - unknown\n",
			"quiet-1 PriceUnknown node quiet-1 has no known price: the catalog has no on-demand offering of m6i.2xlarge in zone \"us-east-1a\"; it is deleted only when empty\n",
			"quiet-2 PriceUnknown node quiet-2",
			"1 command: delete 1 node, launch 0: saves 0.000000 USD/hour, 0.00 USD/month, plus the unknown price of 1 node; 6 nodes kept\n",
			warning("idle-1", "m6i.xlarge"), warning("quiet-1", "m6i.2xlarge"), warning("busy", "m6i.2xlarge"),
			"Node static: price unknown: it has no karpenter.sh/capacity-type label; it is left out of price totals\n",
		}, []string{"0.000000 USD/hour, 0.00 USD/month;", "quiet-1,quiet-2"}},
		{"consolidate json", []string{"consolidate", "-f", consolidateYAML, "--zones", "us-east-1b", "-o", "json"}, exitOK, []string{
			`"unknownPriceCandidates": 1`, `"deletedUnknownPrice": 1`, `"why": "PriceUnknown"`, warning("quiet-2", "m6i.2xlarge"),
		}, nil},
		{"provision table", []string{"provision", "-f", clusterYAML, "--zones", "us-east-1b"}, exitUnschedulable, []string{
			"ip-10-0-1-17.ec2.internal existing general m6i.xlarge us-east-1a on-demand unknown 4 ",
			"USD/month (plus 1 existing node of unknown price)\n", warning("ip-10-0-1-17.ec2.internal", "m6i.xlarge"),
		}, []string{"existing node at 0.000000"}},
		{"provision json", []string{"provision", "-f", clusterYAML, "--zones", "us-east-1b", "-o", "json"}, exitUnschedulable, []string{
			`"pricePerHour": null`, `"existingPricePerHour": 0,`, `"existingUnknownPrice": 1,`,
		}, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			require.Equal(t, tc.code, run(tc.args, nil, &stdout, &stderr), stderr.String())
			out := columns.ReplaceAllString(stdout.String(), " ")
			for _, s := range tc.contains {
				assert.Contains(t, out, s)
			}
			for _, s := range tc.forbidden {
				assert.NotContains(t, out, s)
			}
		})
	}
}

// TestUnknownPriceJSON: in provision's JSON an existing node of unknown
// price has pricePerHour null, and a node of known price a number.
func TestUnknownPriceJSON(t *testing.T) {
	var stdout, stderr bytes.Buffer
	for zone, known := range map[string]bool{"us-east-1a": true, "us-east-1b": false} {
		stdout.Reset()
		run([]string{"provision", "-f", "../../testdata/cluster.yaml", "--zones", zone, "-o", "json"}, nil, &stdout, &stderr)
		var r struct {
			Nodes []struct {
				Name         string
				Existing     bool
				PricePerHour *float64
			}
		}
		require.NoError(t, json.Unmarshal(stdout.Bytes(), &r), stderr.String())
		for _, n := range r.Nodes {
			assert.Equal(t, known || !n.Existing, n.PricePerHour != nil, "%s: node %s", zone, n.Name)
		}
	}
}
