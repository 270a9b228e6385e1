package kube

import (
	"strings"
	"testing"

	"github.com/nodeplan/nodeplan/resources"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// dsDoc is a DaemonSet kube-system/agent (uid ds-1) whose template requests
// 100m and 100Mi.
const dsDoc = "apiVersion: apps/v1\nkind: DaemonSet\nmetadata: {name: agent, namespace: kube-system, uid: ds-1}\n" +
	"spec: {template: {spec: {containers: [{name: c, resources: {requests: {cpu: 100m, memory: 100Mi}}}]}}}\n"

// dsPod is a pod named name in namespace ns controlled by DaemonSet owner
// (with uid, when not ""), created at created, on node node-1, requesting cpu
// and 100Mi.
func dsPod(ns, name, owner, uid, created, cpu string) string {
	ref := "{apiVersion: apps/v1, kind: DaemonSet, name: " + owner + ", controller: true"
	if uid != "" {
		ref += ", uid: " + uid
	}
	return "apiVersion: v1\nkind: Pod\nmetadata: {name: " + name + ", namespace: " + ns + ", creationTimestamp: '" + created +
		"', ownerReferences: [" + ref + "}]}\nspec: {nodeName: node-1, containers: [{name: c, resources: {requests: {cpu: " + cpu +
		", memory: 100Mi}}}]}\nstatus: {phase: Running}\n"
}

const dsNode = "apiVersion: v1\nkind: Node\nmetadata: {name: node-1}\nstatus: {allocatable: {cpu: '4', memory: 8Gi, pods: '110'}}\n"

// TestLoadDaemonSetFromItsPod checks that a DaemonSet's requests are those
// of its newest pod in the manifests, as Karpenter's provisioner takes
// them, and its template's when it has none.
func TestLoadDaemonSetFromItsPod(t *testing.T) {
	const t1, t2 = "2025-01-01T00:00:00Z", "2025-01-02T00:00:00Z"
	tests := []struct {
		name string
		pods []string
		cpu  string
	}{
		{"no pod: the template", nil, "100m"},
		{"its pod", []string{dsPod("kube-system", "agent-a", "agent", "ds-1", t1, "250m")}, "250m"},
		{"its pod without uid", []string{dsPod("kube-system", "agent-a", "agent", "", t1, "250m")}, "250m"},
		{"the newest of its pods", []string{dsPod("kube-system", "agent-a", "agent", "ds-1", t2, "300m"),
			dsPod("kube-system", "agent-b", "agent", "ds-1", t1, "250m")}, "300m"},
		{"the first by name among the newest", []string{dsPod("kube-system", "agent-b", "agent", "ds-1", t1, "300m"),
			dsPod("kube-system", "agent-a", "agent", "ds-1", t1, "250m")}, "250m"},
		{"a pod of another namespace is not its", []string{dsPod("default", "agent-a", "agent", "", t1, "250m")}, "100m"},
		{"a pod of another DaemonSet is not its", []string{dsPod("kube-system", "other-a", "other", "", t1, "250m")}, "100m"},
		{"a pod of another uid is not its", []string{dsPod("kube-system", "agent-a", "agent", "ds-0", t2, "250m"),
			dsPod("kube-system", "agent-b", "agent", "ds-1", t1, "200m")}, "200m"},
		{"a resized pod: its status", []string{strings.Replace(dsPod("kube-system", "agent-a", "agent", "ds-1", t1, "250m"),
			"status: {phase: Running}", "status: {phase: Running, containerStatuses: [{name: c, resources: {requests: {cpu: 400m}}}]}", 1)}, "400m"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			docs := append([]string{dsDoc, dsNode}, tc.pods...)
			c, err := Load(Source{Name: "ds.yaml", Data: []byte(strings.Join(docs, "---\n"))})
			require.NoError(t, err)
			require.Len(t, c.DaemonSets, 1)
			want := resources.MustParse(map[resources.Name]string{resources.CPU: tc.cpu, resources.Memory: "100Mi"})
			assert.True(t, want.Equal(c.DaemonSets[0].Requests), "got %v; want %v", c.DaemonSets[0].Requests, want)
		})
	}
}
