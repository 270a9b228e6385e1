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
		"skipped 1 Pod: bound to a node that is not in the manifests: default/lost on ghost (dump.yaml: document 15)",
		"skipped 5 ReplicaSets: their Deployment is expanded instead: shop/web-0 (dump.yaml: document 3), shop/web-1 (dump.yaml: document 4), " +
			"shop/web-2 (dump.yaml: document 5), and 2 more",
	}, c.Warnings)
}
