package kube

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// warningsWith returns the warnings of c that contain s, in order.
func warningsWith(c Cluster, s string) []string {
	var out []string
	for _, w := range c.Warnings {
		if strings.Contains(w, s) {
			out = append(out, w)
		}
	}
	return out
}

// pdbPods writes n pods labelled app=web in namespace shop, controlled by
// owner ("Kind/name", or "" for none), Ready unless listed in unready.
func pdbPods(n int, owner string, unready ...int) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "---\napiVersion: v1\nkind: Pod\nmetadata:\n  name: web-%d\n  namespace: shop\n  labels: {app: web, pod-template-hash: 5d9f}\n", i)
		if kind, name, ok := strings.Cut(owner, "/"); ok {
			fmt.Fprintf(&b, "  ownerReferences: [{apiVersion: apps/v1, kind: %s, name: %s, uid: u, controller: true}]\n", kind, name)
		}
		status := "True"
		for _, u := range unready {
			if u == i {
				status = "False"
			}
		}
		fmt.Fprintf(&b, "spec: {containers: [{name: c}]}\nstatus: {phase: Running, conditions: [{type: Ready, status: %q}]}\n", status)
	}
	return b.String()
}

func pdbDoc(spec string) string {
	return "---\napiVersion: policy/v1\nkind: PodDisruptionBudget\nmetadata: {name: web, namespace: shop}\nspec: {selector: {matchLabels: {app: web}}, " + spec + "}\n"
}

const (
	deployment10 = "---\napiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web, namespace: shop}\nspec: {replicas: 10, template: {metadata: {labels: {app: web}}, spec: {containers: [{name: c}]}}}\n"
	replicaSet10 = "---\napiVersion: apps/v1\nkind: ReplicaSet\nmetadata: {name: web-5d9f, namespace: shop, ownerReferences: [{apiVersion: apps/v1, kind: Deployment, name: web, uid: d, controller: true}]}\n" +
		"spec: {replicas: 10, template: {metadata: {labels: {app: web}}, spec: {containers: [{name: c}]}}}\n"
	statefulSet3 = "---\napiVersion: apps/v1\nkind: StatefulSet\nmetadata: {name: db, namespace: shop}\nspec: {replicas: 3, template: {metadata: {labels: {app: web}}, spec: {containers: [{name: c}]}}}\n"
)

func TestPodDisruptionBudgetFromSpec(t *testing.T) {
	tests := []struct {
		name, docs string
		allowed    int32
		fromSpec   bool
		how        string // in the warning; "" when the status is used
	}{
		{"minAvailable int over the matching pods", pdbDoc("minAvailable: 2") + pdbPods(5, ""), 3, true,
			"no status from the disruption controller (observedGeneration 0); disruptionsAllowed computed from spec: 3 (5 of 5 matching pods ready, 2 desired: minAvailable 2 of 5 expected)"},
		{"minAvailable 80% of a Deployment's 10 (issue 15)", pdbDoc(`minAvailable: "80%"`) + deployment10 + replicaSet10 + pdbPods(10, "ReplicaSet/web-5d9f"), 2, true,
			"(10 of 10 matching pods ready, 8 desired: minAvailable 80% of 10 expected)"},
		{"minAvailable % rounds up", pdbDoc(`minAvailable: "50%"`) + statefulSet3 + pdbPods(3, "StatefulSet/db"), 1, true,
			"(3 of 3 matching pods ready, 2 desired: minAvailable 50% of 3 expected)"},
		{"minAvailable % without the owners: fail safe, as Kubernetes", pdbDoc(`minAvailable: "80%"`) + pdbPods(10, "ReplicaSet/gone-1"), 0, true,
			"disruptionsAllowed computed from spec: 0 (pod web-0 is controlled by ReplicaSet/gone-1, which is not in the input; " +
				"Kubernetes' disruption controller allows no disruption when it cannot find a pod's controller: add it to the manifests)"},
		{"Deployment found through the pods' pod-template-hash", pdbDoc(`minAvailable: "80%"`) + deployment10 + pdbPods(5, "ReplicaSet/web-5d9f"), 0, true,
			"(5 of 5 matching pods ready, 8 desired: minAvailable 80% of 10 expected)"},
		{"a ReplicaSet whose name does not end in the pods' pod-template-hash points to no Deployment", pdbDoc(`minAvailable: "80%"`) + deployment10 + pdbPods(5, "ReplicaSet/web"), 0, true,
			"(pod web-0 is controlled by ReplicaSet/web, which is not in the input;"},
		{"maxUnavailable int of a StatefulSet", pdbDoc("maxUnavailable: 1") + statefulSet3 + pdbPods(3, "StatefulSet/db"), 1, true,
			"(3 of 3 matching pods ready, 2 desired: maxUnavailable 1 of 3 expected)"},
		{"maxUnavailable % rounds up, of the scale not the pods", pdbDoc(`maxUnavailable: "25%"`) + deployment10 + replicaSet10 + pdbPods(8, "ReplicaSet/web-5d9f"), 1, true,
			"(8 of 8 matching pods ready, 7 desired: maxUnavailable 25% of 10 expected)"},
		{"maxUnavailable without the owners", pdbDoc("maxUnavailable: 1") + pdbPods(4, "StatefulSet/elsewhere"), 0, true,
			"(pod web-0 is controlled by StatefulSet/elsewhere, which is not in the input;"},
		{"minAvailable int needs no owners", pdbDoc("minAvailable: 3") + pdbPods(4, "StatefulSet/elsewhere"), 1, true,
			"(4 of 4 matching pods ready, 3 desired: minAvailable 3 of 4 expected)"},
		{"unready pods do not count", pdbDoc("minAvailable: 2") + pdbPods(4, "", 1, 3), 0, true,
			"(2 of 4 matching pods ready, 2 desired: minAvailable 2 of 4 expected)"},
		{"pods being deleted do not count", pdbDoc("minAvailable: 1") + strings.Replace(pdbPods(3, ""), "namespace: shop\n", "namespace: shop\n  deletionTimestamp: \"2025-06-01T00:00:00Z\"\n", 1), 1, true,
			"(2 of 3 matching pods ready, 1 desired: minAvailable 1 of 3 expected)"},
		{"unmanaged pods count for no scale, as in Kubernetes", pdbDoc("maxUnavailable: 1") + pdbPods(3, ""), 0, true,
			"(3 of 3 matching pods ready, 0 desired: maxUnavailable 1 of 0 expected)"},
		{"a Job has no scale", pdbDoc("maxUnavailable: 1") + pdbPods(2, "Job/batch"), 0, true,
			"no status from the disruption controller (observedGeneration 0); disruptionsAllowed computed from spec: 0 (pod web-0 is controlled by Job/batch, which has no scale; Kubernetes then allows no disruption unless minAvailable is an integer)"},
		{"neither field", pdbDoc("") + pdbPods(2, ""), 0, true, "(neither minAvailable nor maxUnavailable is set)"},
		{"no matching pods", pdbDoc("minAvailable: 0") + strings.ReplaceAll(pdbPods(2, ""), "namespace: shop", "namespace: other"), 0, true,
			"(0 of 0 matching pods ready, 0 desired: minAvailable 0 of 0 expected)"},
		{"stale status", strings.Replace(pdbDoc("minAvailable: 1"), "namespace: shop}", "namespace: shop, generation: 2}", 1) +
			"status: {disruptionsAllowed: 5, observedGeneration: 1}\n" + pdbPods(2, ""), 1, true,
			"status stale (observedGeneration 1 < generation 2); disruptionsAllowed computed from spec: 1"},
		{"empty status", pdbDoc("minAvailable: 1") + "status: {}\n" + pdbPods(2, ""), 1, true,
			"no status from the disruption controller (observedGeneration 0); disruptionsAllowed computed from spec: 1"},
		{"zeroed status of kubectl create pdb --dry-run", pdbDoc("minAvailable: 1") +
			"status: {currentHealthy: 0, desiredHealthy: 0, disruptionsAllowed: 0, expectedPods: 0}\n" + pdbPods(2, ""), 1, true,
			"no status from the disruption controller (observedGeneration 0); disruptionsAllowed computed from spec: 1"},
		{"status of generation 0 with a generation", strings.Replace(pdbDoc("minAvailable: 1"), "namespace: shop}", "namespace: shop, generation: 1}", 1) +
			"status: {disruptionsAllowed: 3}\n" + pdbPods(2, ""), 1, true, "no status from the disruption controller (observedGeneration 0)"},
		{"fresh status used as is", strings.Replace(pdbDoc("minAvailable: 1"), "namespace: shop}", "namespace: shop, generation: 2}", 1) +
			"status: {disruptionsAllowed: 5, observedGeneration: 2}\n" + pdbPods(2, ""), 5, false, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c, err := Load(Source{Name: "pdb.yaml", Data: []byte(tc.docs)})
			require.NoError(t, err)
			require.Len(t, c.PodDisruptionBudgets, 1)
			b := c.PodDisruptionBudgets[0]
			assert.Equal(t, tc.allowed, b.DisruptionsAllowed)
			assert.Equal(t, tc.fromSpec, b.FromSpec)
			warned := warningsWith(c, "PodDisruptionBudget")
			if tc.how == "" {
				assert.Empty(t, warned)
				return
			}
			require.Len(t, warned, 1, "one warning per budget")
			assert.Contains(t, warned[0], "pdb.yaml: document 1: PodDisruptionBudget shop/web: ")
			assert.Contains(t, warned[0], tc.how)
		})
	}
}

func TestPodDisruptionBudgetSpecErrors(t *testing.T) {
	tests := []struct{ name, spec, msg string }{
		{"both set", "minAvailable: 1, maxUnavailable: 1", "PodDisruptionBudget shop/web: spec: minAvailable and maxUnavailable cannot both be set"},
		{"not a percentage", "minAvailable: half", `PodDisruptionBudget shop/web: spec.minAvailable: "half" is not an integer or a percentage 0%..100%`},
		{"over 100%", `maxUnavailable: "150%"`, `PodDisruptionBudget shop/web: spec.maxUnavailable: "150%" is not an integer or a percentage 0%..100%`},
		{"negative", "maxUnavailable: -1", "PodDisruptionBudget shop/web: spec.maxUnavailable: -1 is negative"},
		{"fractional percentage", `minAvailable: "50.5%"`, `PodDisruptionBudget shop/web: spec.minAvailable: "50.5%" is not an integer or a percentage`},
		{"unknown unhealthyPodEvictionPolicy", `minAvailable: 1, unhealthyPodEvictionPolicy: Always`,
			`PodDisruptionBudget shop/web: spec.unhealthyPodEvictionPolicy: "Always" is not IfHealthyBudget or AlwaysAllow`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Load(Source{Name: "pdb.yaml", Data: []byte(pdbDoc(tc.spec))})
			require.ErrorIs(t, err, ErrInvalid)
			assert.Contains(t, err.Error(), "pdb.yaml: document 1: "+tc.msg)
		})
	}
}

func TestPodDisruptionBudgetFixture(t *testing.T) {
	c, err := loadFixture(t, "pdbs.yaml")
	require.NoError(t, err)
	got := map[string]int32{}
	for _, b := range c.PodDisruptionBudgets {
		got[b.Name] = b.DisruptionsAllowed
	}
	assert.Equal(t, map[string]int32{"web-from-git": 2, "web-observed": 1, "web-stale": 2}, got)
	assert.Empty(t, c.Pods, "the Deployment has its 10 pods")
	assert.Equal(t, []string{
		"skipped 1 ReplicaSet: their Deployment is expanded instead: shop/web-6f7d9c5b8 (pdbs.yaml: document 2: items[1])",
		"pdbs.yaml: document 1: PodDisruptionBudget shop/web-from-git: no status from the disruption controller (observedGeneration 0); disruptionsAllowed computed from spec: 2 " +
			"(10 of 10 matching pods ready, 8 desired: minAvailable 80% of 10 expected)",
		"pdbs.yaml: document 2: items[13]: PodDisruptionBudget shop/web-stale: status stale (observedGeneration 2 < generation 3); " +
			"disruptionsAllowed computed from spec: 2 (10 of 10 matching pods ready, 8 desired: maxUnavailable 20% of 10 expected)"}, c.Warnings)
}

// A zeroed status (kubectl create pdb --dry-run=client -o yaml) is not
// the disruption controller's; unhealthyPodEvictionPolicy AlwaysAllow
// reaches disruption.PDB.
func TestPodDisruptionBudgetDryRunFixture(t *testing.T) {
	c, err := loadFixture(t, "pdb-dry-run.yaml")
	require.NoError(t, err)
	require.Len(t, c.PodDisruptionBudgets, 2)
	web, unhealthy := c.PodDisruptionBudgets[0], c.PodDisruptionBudgets[1]
	assert.Equal(t, int32(1), web.DisruptionsAllowed, "2 ready pods, minAvailable 1")
	assert.True(t, web.FromSpec)
	assert.False(t, web.AlwaysAllowUnhealthy)
	assert.True(t, unhealthy.AlwaysAllowUnhealthy)
	assert.Contains(t, c.Warnings, "pdb-dry-run.yaml: document 1: PodDisruptionBudget shop/web-dry-run: no status from the disruption controller "+
		"(observedGeneration 0); disruptionsAllowed computed from spec: 1 (2 of 2 matching pods ready, 1 desired: minAvailable 1 of 2 expected)")
	pdbs := c.DisruptionPDBs()
	require.Len(t, pdbs, 2)
	assert.False(t, pdbs[0].AlwaysAllowUnhealthy)
	assert.True(t, pdbs[1].AlwaysAllowUnhealthy)
}
