package main

import (
	"encoding/json"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// spreadDeployment is a Deployment of n replicas of cpu and memory each
// that prefers one node per pod (a preferred hostname anti-affinity).
func spreadDeployment(name string, n int, cpu, memory string) string {
	return `---
apiVersion: apps/v1
kind: Deployment
metadata: {name: ` + name + `, namespace: shop}
spec:
  replicas: ` + strconv.Itoa(n) + `
  template:
    metadata: {labels: {app: ` + name + `}}
    spec:
      containers: [{name: c, resources: {requests: {cpu: "` + cpu + `", memory: "` + memory + `"}}}]
      affinity:
        podAntiAffinity:
          preferredDuringSchedulingIgnoredDuringExecution:
          - weight: 100
            podAffinityTerm: {topologyKey: kubernetes.io/hostname, labelSelector: {matchLabels: {app: ` + name + `}}}
`
}

// TestPreferencesFlag: --preferences picks the policy; within=F prints
// and reports each preferred term's cost, the others nothing. Respect
// gives web's 12 small pods a node each (0.576 USD/hour); Ignore packs
// all 15 pods on 3 nodes (0.2688); within=0.10 honours db's spread, which
// costs nothing, and relaxes web's, which would add 0.3072.
func TestPreferencesFlag(t *testing.T) {
	dir := tree(t, map[string]string{
		"pool.yaml": poolYAML,
		"apps.yaml": spreadDeployment("web", 12, "250m", "512Mi") + spreadDeployment("db", 3, "3", "12Gi"),
	})
	respect, _ := check(t, []string{"provision", "-f", dir}, exitOK, "15 pods scheduled", "")
	ignore, _ := check(t, []string{"provision", "-f", dir, "--preferences", "ignore"}, exitOK, "15 pods scheduled", "")
	within, _ := check(t, []string{"provision", "-f", dir, "--preferences", "within=0.10"}, exitOK,
		"Preferences (honoured while the plan costs at most 10% more than ignoring them):\n"+
			"  OWNER                KIND                      WEIGHT  PODS  HONOURED  ADDS (USD/HOUR)  TERM\n", "")
	for _, out := range []string{respect, ignore} {
		assert.NotContains(t, out, "Preferences")
	}
	assert.Contains(t, respect, "12 new nodes, 15 pods scheduled, 0 unschedulable: 0.576000 USD/hour")
	assert.Contains(t, ignore, "3 new nodes, 15 pods scheduled, 0 unschedulable: 0.268800 USD/hour")
	assert.Contains(t, within, "4 new nodes, 15 pods scheduled, 0 unschedulable: 0.268800 USD/hour")
	assert.Contains(t, within, "  Deployment shop/db   PreferredPodAntiAffinity  100     3     yes       0.000000         "+
		"topologyKey kubernetes.io/hostname, selector app In [db], namespace shop\n")
	assert.Contains(t, within, "  Deployment shop/web  PreferredPodAntiAffinity  100     12    no        0.307200         "+
		"topologyKey kubernetes.io/hostname, selector app In [web], namespace shop\n")

	out, _ := check(t, []string{"provision", "-f", dir, "--preferences", "within=0.1", "-o", "json"}, exitOK, `"preferences": {`, "")
	var r struct {
		Summary     struct{ PricePerHour float64 }
		Preferences struct {
			Policy string
			Budget float64
			Terms  []struct {
				Owner, Kind        string
				Pods               int
				Honoured, Measured bool
				CostPerHour        float64
			}
		}
	}
	require.NoError(t, json.Unmarshal([]byte(out), &r))
	assert.Equal(t, "Budget", r.Preferences.Policy)
	assert.Equal(t, 0.1, r.Preferences.Budget)
	require.Len(t, r.Preferences.Terms, 2)
	for _, term := range r.Preferences.Terms {
		assert.True(t, term.Measured)
		assert.Equal(t, "PreferredPodAntiAffinity", term.Kind)
		assert.Equal(t, term.Owner == "Deployment/db", term.Honoured, "%+v", term)
		assert.Equal(t, map[string]float64{"Deployment/db": 0, "Deployment/web": 0.3072}[term.Owner], term.CostPerHour)
	}
	plain, _ := check(t, []string{"provision", "-f", dir, "-o", "json"}, exitOK, "", "")
	assert.NotContains(t, plain, `"preferences"`)
}

func TestPreferencesFlagInvalid(t *testing.T) {
	tests := []cliCase{
		{"unknown policy", []string{"provision", "--preferences", "sometimes"}, exitBadInput, "", `"sometimes": want respect, ignore or within=FRACTION`},
		{"negative", []string{"provision", "--preferences", "within=-0.1"}, exitBadInput, "", "within=-0.1: want a fraction of at least 0"},
		{"NaN", []string{"provision", "--preferences", "within=NaN"}, exitBadInput, "", "within=NaN: want a fraction"},
		{"infinite", []string{"provision", "--preferences", "within=Inf"}, exitBadInput, "", "within=Inf: want a fraction"},
		{"not a number", []string{"provision", "--preferences", "within=10%"}, exitBadInput, "", "within=10%: want a fraction"},
		{"not for consolidate", []string{"consolidate", "--preferences", "ignore"}, exitBadInput, "", "flag provided but not defined: -preferences"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) { check(t, tc.args, tc.code, tc.stdout, tc.stderr) })
	}
}

func TestPreferencesFlagString(t *testing.T) {
	for _, v := range []string{"respect", "ignore", "within=0.1", "within=0", "within=1e+09"} {
		var f preferencesFlag
		require.NoError(t, f.Set(v))
		assert.Equal(t, v, f.String())
	}
}

// FuzzPreferencesFlag: --preferences never panics on any value; a value it
// accepts gives valid solver options and reads back from its String.
func FuzzPreferencesFlag(f *testing.F) {
	for _, s := range []string{"respect", "ignore", "within=0.10", "within=0", "within=1e308", "within=-0", "within=-1",
		"within=NaN", "within=+Inf", "within=", "within=0x1p-3", "within=10%", "Respect", " ignore", "within=0.1\x00", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, v string) {
		var p preferencesFlag
		if p.Set(v) != nil {
			return
		}
		require.NoError(t, p.options().Validate(), "%q", v)
		var q preferencesFlag
		require.NoError(t, q.Set(p.String()), "%q", v)
		assert.Equal(t, p, q)
	})
}
