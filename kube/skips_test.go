package kube

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Objects skipped for the same reason are one warning line with their
// count and the first few, as a real dump holds hundreds of them.
func TestSkippedAggregated(t *testing.T) {
	var b strings.Builder
	b.WriteString("apiVersion: apps/v1\nkind: DaemonSet\nmetadata: {name: agent, namespace: kube-system}\n" +
		"spec: {template: {spec: {containers: [{name: c}]}}}\n")
	b.WriteString("---\napiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web, namespace: shop}\n" +
		"spec: {replicas: 0, template: {spec: {containers: [{name: c}]}}}\n")
	for i := range 5 {
		fmt.Fprintf(&b, "---\napiVersion: apps/v1\nkind: ReplicaSet\nmetadata: {name: web-%d, namespace: shop, ownerReferences: "+
			"[{apiVersion: apps/v1, kind: Deployment, name: web, uid: u, controller: true}]}\nspec: {replicas: 0, template: {spec: {containers: [{name: c}]}}}\n", i)
	}
	for i := range 4 {
		fmt.Fprintf(&b, "---\napiVersion: v1\nkind: Pod\nmetadata: {name: done-%d, namespace: batch}\nspec: {containers: [{name: c}]}\nstatus: {phase: Succeeded}\n", i)
	}
	b.WriteString("---\napiVersion: v1\nkind: Pod\nmetadata: {name: oom, namespace: batch}\nspec: {containers: [{name: c}]}\nstatus: {phase: Failed}\n")
	for i := range 2 {
		fmt.Fprintf(&b, "---\napiVersion: v1\nkind: Pod\nmetadata: {name: agent-%d, namespace: kube-system, ownerReferences: "+
			"[{apiVersion: apps/v1, kind: DaemonSet, name: agent, uid: u, controller: true}]}\nspec: {containers: [{name: c}]}\n", i)
	}
	b.WriteString("---\napiVersion: v1\nkind: Pod\nmetadata: {name: lost}\nspec: {nodeName: ghost, containers: [{name: c}]}\n")
	c, err := Load(Source{Name: "dump.yaml", Data: []byte(b.String())})
	require.NoError(t, err)
	assert.Equal(t, []string{
		"skipped 4 Pods: phase Succeeded takes no room: batch/done-0 (dump.yaml: document 8), batch/done-1 (dump.yaml: document 9), " +
			"batch/done-2 (dump.yaml: document 10), and 1 more",
		"skipped 1 Pod: phase Failed takes no room: batch/oom (dump.yaml: document 12)",
		"skipped 2 Pods: a pending daemonset pod is counted by its DaemonSet: kube-system/agent-0 (dump.yaml: document 13), " +
			"kube-system/agent-1 (dump.yaml: document 14)",
		"skipped 1 Pod: bound to a node that is not in the input: default/lost on ghost (dump.yaml: document 15)",
		"skipped 5 ReplicaSets: their Deployment is expanded instead: shop/web-0 (dump.yaml: document 3), shop/web-1 (dump.yaml: document 4), " +
			"shop/web-2 (dump.yaml: document 5), and 2 more",
	}, c.Warnings)
}

// Pending pods that neither kube-scheduler nor Karpenter places (gated,
// preempting, of another scheduler), and the pods of workloads whose
// template is gated or names another scheduler, are not planned: one
// warning line per reason names them.
func TestUnprovisionedSkipped(t *testing.T) {
	const pod = "apiVersion: v1\nkind: Pod\nmetadata: {name: %s, namespace: ns}\nspec: {%scontainers: [{name: c}]}\nstatus: {%s}\n"
	const deploy = "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: %s, namespace: ns}\n" +
		"spec: {replicas: 2, template: {spec: {%scontainers: [{name: c}]}}}\n"
	const node = "apiVersion: v1\nkind: Node\nmetadata: {name: n1}\nstatus: {allocatable: {cpu: \"4\"}}\n"
	tests := []struct {
		name, doc string
		pods      []string // planned, by name
		warning   string   // the one skip warning; "" for none
	}{
		{"gated", fmt.Sprintf(pod, "p", "schedulingGates: [{name: kueue.x-k8s.io/admission}, {name: b}], ", "phase: Pending"), nil,
			"skipped 1 Pod: " + whyGated + ": ns/p with gate kueue.x-k8s.io/admission, b (s.yaml: document 1)"},
		{"preempting", fmt.Sprintf(pod, "p", "", "phase: Pending, nominatedNodeName: n9"), nil,
			"skipped 1 Pod: " + whyPreempting + ": ns/p nominated to n9 (s.yaml: document 1)"},
		{"another scheduler", fmt.Sprintf(pod, "p", "schedulerName: fargate-scheduler, ", ""), nil,
			"skipped 1 Pod: " + whyScheduler + ": ns/p for fargate-scheduler (s.yaml: document 1)"},
		{"default-scheduler named", fmt.Sprintf(pod, "p", "schedulerName: default-scheduler, ", ""), []string{"p"}, ""},
		{"gated and of another scheduler: gated", fmt.Sprintf(pod, "p", "schedulingGates: [{name: g}], schedulerName: x, ", ""), nil,
			"skipped 1 Pod: " + whyGated + ": ns/p with gate g (s.yaml: document 1)"},
		{"bound, of another scheduler", node + "---\n" + fmt.Sprintf(pod, "p", "nodeName: n1, schedulerName: x, ", "phase: Running"), nil, ""},
		{"a gated template", fmt.Sprintf(deploy, "web", "schedulingGates: [{name: g}], "), nil,
			"skipped 2 Pods: " + whyGated + ": ns/web-0 with gate g of Deployment web (s.yaml: document 1), " +
				"ns/web-1 with gate g of Deployment web (s.yaml: document 1)"},
		{"a template of another scheduler", fmt.Sprintf(deploy, "web", "schedulerName: x, "), nil,
			"skipped 2 Pods: " + whyScheduler + ": ns/web-0 for x of Deployment web (s.yaml: document 1), " +
				"ns/web-1 for x of Deployment web (s.yaml: document 1)"},
		{"a gated pod of its workload counts as present", fmt.Sprintf(deploy, "web", "") + "---\n" +
			"apiVersion: v1\nkind: Pod\nmetadata: {name: web-x, namespace: ns, ownerReferences: [{apiVersion: apps/v1, kind: Deployment, " +
			"name: web, uid: u, controller: true}]}\nspec: {schedulingGates: [{name: g}], containers: [{name: c}]}\n",
			[]string{"web-0"}, "skipped 1 Pod: " + whyGated + ": ns/web-x with gate g (s.yaml: document 2)"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c, err := Load(Source{Name: "s.yaml", Data: []byte(tc.doc)})
			require.NoError(t, err)
			var names []string
			for _, p := range c.Pods {
				names = append(names, p.Name)
			}
			assert.Equal(t, tc.pods, names)
			got := warningsWith(c, "skipped")
			if tc.warning == "" {
				assert.Empty(t, got)
				return
			}
			assert.Equal(t, []string{tc.warning}, got)
		})
	}
}

// A skipped pod is not counted among the pods planned with priority 0 for
// a PriorityClass the manifests lack.
func TestUnprovisionedNoPriorityWarning(t *testing.T) {
	c, err := Load(Source{Name: "s.yaml", Data: []byte("apiVersion: v1\nkind: Pod\nmetadata: {name: p}\n" +
		"spec: {priorityClassName: missing, schedulingGates: [{name: g}], containers: [{name: c}]}\n")})
	require.NoError(t, err)
	assert.Empty(t, warningsWith(c, "PriorityClass"))
	assert.Len(t, warningsWith(c, "skipped"), 1)
}
