package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/nodeplan/nodeplan/instancetypes"
	"github.com/nodeplan/nodeplan/kube/shadow"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// shadowEvents are a provisioning event with one unresolved NodeClaim, a
// disruption that replaced a node, and an event nodeplan failed on.
func shadowEvents() ([]shadow.Event, shadow.Totals) {
	usd := instancetypes.MustPriceFromDollars
	t0 := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	off := func(t string) shadow.Offering {
		return shadow.Offering{InstanceType: t, Zone: "us-east-1a", CapacityType: "on-demand"}
	}
	events := []shadow.Event{{Seq: 1, Type: shadow.Provisioning, Start: t0, End: t0.Add(2 * time.Second),
		Karpenter: shadow.Karpenter{Launched: []shadow.Claim{
			{Name: "default-a", NodePool: "default", Offering: off("m5.xlarge"), Price: usd(0.192), Priced: true},
			{Name: "default-b", NodePool: "default", Why: "offering not resolved: no label [node.kubernetes.io/instance-type]"}}},
		Nodeplan: shadow.Decision{Pending: 3, Placed: 3, Nodes: 1, Price: usd(0.1), PendingPods: []string{"default/p1", "default/p2", "default/p3"}},
	}, {Seq: 2, Type: shadow.Disruption, Start: t0.Add(time.Minute), End: t0.Add(2 * time.Minute),
		Karpenter: shadow.Karpenter{Reason: "Underutilized",
			Launched: []shadow.Claim{{Name: "default-r", NodePool: "default", Offering: off("m5.large"), Price: usd(0.096), Priced: true}},
			Removed:  []shadow.Claim{{Name: "default-a", Node: "n1", NodePool: "default", Offering: off("m5.xlarge"), Price: usd(0.192), Priced: true}}},
		Nodeplan: shadow.Decision{Consolidation: shadow.Commands{Commands: 1, Deleted: 1, Change: -usd(0.192)}},
	}, {Seq: 3, Type: shadow.Provisioning, Start: t0.Add(time.Hour), End: t0.Add(time.Hour),
		Karpenter: shadow.Karpenter{Launched: []shadow.Claim{{Name: "default-c", Offering: off("m5.large"), Price: usd(0.096), Priced: true}}},
		Err:       errors.New("NodePool default: broken"),
	}}
	var totals shadow.Totals
	for i := range events {
		totals.Add(&events[i])
	}
	return events, totals
}

func TestShadowTable(t *testing.T) {
	events, totals := shadowEvents()
	var b bytes.Buffer
	w := &shadowWriter{w: &b, prices: pricing{currency: "USD", notes: []string{"prices: test"}}}
	require.NoError(t, w.header())
	for i := range events {
		require.NoError(t, w.event(&events[i]))
	}
	require.NoError(t, w.summary(&totals))
	want := `prices: test

#    START                EVENT        PODS    KARPENTER NODEPLAN  KARPENTER USD/HOUR       NODEPLAN USD/HOUR  DIFFERENCE   NOTES
1    2026-01-02T03:04:05Z Provisioning 3/3     +2        +1        0.192000 + 1 unpriced    0.100000           unknown      default-b unpriced: offering not resolved: no label [node.kubernetes.io/instance-type]
2    2026-01-02T03:05:05Z Disruption   -       +1 -1     +0 -1     -0.096000                -0.192000          0.096000     Underutilized; removed default-a; nodeplan consolidation: 1 command; drift: 0 commands, nodes +0, 0.000000/hour
3    2026-01-02T04:04:05Z Provisioning -       +1        -         0.096000                 -                  unknown      nodeplan: NodePool default: broken

summary: 2 provisioning events, 1 disruption event (1 error)
  pods: 3 pending (each once), 3 placed by nodeplan
  Karpenter: launched 4, removed 1 nodes: 0.192000 + 1 unpriced USD/hour
  nodeplan:  launched 1, removed 1 nodes: -0.092000 USD/hour
  difference (Karpenter - nodeplan): 0.096000 USD/hour, 2 events of unknown difference left out
`
	assert.Equal(t, want, b.String())

	b.Reset() // a row without notes ends with its last column
	e := events[0]
	e.Karpenter.Launched = e.Karpenter.Launched[:1]
	require.NoError(t, w.event(&e))
	assert.Equal(t, "1    2026-01-02T03:04:05Z Provisioning 3/3     +1        +1        0.192000                 0.100000           0.092000\n", b.String())
}

func TestShadowJSON(t *testing.T) {
	events, totals := shadowEvents()
	var b bytes.Buffer
	w := &shadowWriter{w: &b, json: true, prices: pricing{currency: "USD", notes: []string{"prices: test"}}}
	require.NoError(t, w.header())
	for i := range events {
		require.NoError(t, w.event(&events[i]))
	}
	require.NoError(t, w.summary(&totals))
	lines := strings.Split(strings.TrimSpace(b.String()), "\n")
	require.Len(t, lines, 4, "one line per event, then the summary")
	var got []map[string]any
	for _, l := range lines {
		var m map[string]any
		require.NoError(t, json.Unmarshal([]byte(l), &m), l)
		got = append(got, m)
	}
	assert.Equal(t, "ShadowEvent", got[0]["kind"])
	assert.Equal(t, "Provisioning", got[0]["type"])
	assert.Nil(t, got[0]["differencePerHour"], "unknown, not 0")
	launched := got[0]["karpenter"].(map[string]any)["launched"].([]any)
	assert.Equal(t, 0.192, launched[0].(map[string]any)["pricePerHour"])
	assert.Nil(t, launched[1].(map[string]any)["pricePerHour"], "unpriced, not 0")
	assert.Contains(t, launched[1].(map[string]any)["unpriced"], "not resolved")
	assert.Equal(t, 0.096, got[1]["differencePerHour"])
	assert.Equal(t, -0.192, got[1]["nodeplan"].(map[string]any)["consolidation"].(map[string]any)["changePerHour"])
	assert.Equal(t, "NodePool default: broken", got[2]["error"])
	assert.Equal(t, "ShadowSummary", got[3]["kind"])
	assert.Equal(t, map[string]any{"Provisioning": 2.0, "Disruption": 1.0}, got[3]["events"])
	assert.Equal(t, 2.0, got[3]["unknownDifferences"])
	assert.Equal(t, []any{"prices: test"}, got[3]["notes"])
}

func TestShadowFlags(t *testing.T) {
	tests := []struct {
		name string
		args []string
		code int
		out  string
		err  string
		not  string // in neither output
	}{
		{"help", []string{"shadow", "--help"}, exitOK, "usage: nodeplan shadow [--kubeconfig FILE]", "", "namespace"},
		{"batch idle", []string{"shadow", "--batch-idle", "0s"}, exitBadInput, "", "--batch-idle 0s: want a positive duration", ""},
		{"duration", []string{"shadow", "--duration", "-1s"}, exitBadInput, "", "--duration -1s: want a non-negative duration", ""},
		{"output", []string{"shadow", "-o", "yaml"}, exitBadInput, "", `-o "yaml": want table or json`, ""},
		{"no manifests", []string{"shadow", "-f", "x.yaml"}, exitBadInput, "", "flag provided but not defined: -f", ""},
		{"no kubeconfig", []string{"shadow", "--kubeconfig", "/nonexistent/kubeconfig"}, exitBadInput, "", "/nonexistent/kubeconfig", ""},
		{"no namespace", []string{"shadow", "-n", "shop"}, exitBadInput, "", "flag provided but not defined: -n", ""},
		{"no argument", []string{"shadow", "extra", "--duration", "1s"}, exitBadInput, "", `unexpected argument "extra": nodeplan shadow takes flags only`, "-f"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			assert.Equal(t, tc.code, run(tc.args, nil, &stdout, &stderr), stderr.String())
			assert.Contains(t, stdout.String(), tc.out)
			assert.Contains(t, stderr.String(), tc.err)
			if tc.not != "" {
				assert.NotContains(t, stdout.String()+stderr.String(), tc.not)
			}
		})
	}
}
