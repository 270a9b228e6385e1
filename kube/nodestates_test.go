package kube

import (
	"strings"
	"testing"

	"github.com/nodeplan/nodeplan/instancetypes"
	"github.com/nodeplan/nodeplan/packing"
	"github.com/nodeplan/nodeplan/requirements"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// statesBase is a NodePool, Node n1 (m5.large, providerID aws:///i-1)
// with an 800m pod and a daemonset pod, and a pending pod.
const statesBase = `apiVersion: karpenter.sh/v1
kind: NodePool
metadata: {name: default}
spec:
  template:
    spec:
      requirements: [{key: karpenter.sh/capacity-type, operator: In, values: [on-demand]}]
---
apiVersion: v1
kind: Node
metadata:
  name: n1
  labels: {karpenter.sh/nodepool: default, karpenter.sh/capacity-type: on-demand, node.kubernetes.io/instance-type: m5.large,
    topology.kubernetes.io/zone: us-east-1a, karpenter.sh/initialized: "true"}
%s
spec: {providerID: "aws:///i-1"}
status:
  allocatable: {cpu: 1930m, memory: 7Gi, pods: "29"}
%s
---
apiVersion: v1
kind: Pod
metadata: {name: app, namespace: default}
spec: {nodeName: n1, containers: [{name: c, resources: {requests: {cpu: 800m}}}]}
---
apiVersion: v1
kind: Pod
metadata:
  name: logs-x
  namespace: default
  ownerReferences: [{apiVersion: apps/v1, kind: DaemonSet, name: logs, uid: u, controller: true}]
spec: {nodeName: n1, containers: [{name: c, resources: {requests: {cpu: 50m}}}]}
---
apiVersion: v1
kind: Pod
metadata: {name: job, namespace: default}
spec: {containers: [{name: c, resources: {requests: {cpu: 1500m}}}]}
`

// claim is a NodeClaim m5.large of pool default with the given extra
// metadata and status lines.
func claim(meta, status string) string {
	return `---
apiVersion: karpenter.sh/v1
kind: NodeClaim
metadata:
  name: default-x
  creationTimestamp: "2025-01-01T00:00:00Z"
  labels: {karpenter.sh/nodepool: default, karpenter.sh/capacity-type: on-demand, topology.kubernetes.io/zone: us-east-1b}
` + meta + `
spec:
  requirements:
  - {key: node.kubernetes.io/instance-type, operator: In, values: [m5.large]}
  - {key: kubernetes.io/arch, operator: In, values: [amd64, arm64]}
  - {key: kubernetes.io/hostname, operator: In, values: [h]}
  taints: [{key: dedicated, value: x, effect: NoSchedule}, {key: boot, effect: NoSchedule}]
  startupTaints: [{key: boot, effect: NoSchedule}]
status:
` + status + "\n"
}

// TestProblemNodeStates: deleting nodes (by their Node or their
// NodeClaim) give their pods but daemonset ones to the pending pods;
// launched NodeClaims without a Node are nodes in flight; a Node's Ready
// condition is read as NotReady.
func TestProblemNodeStates(t *testing.T) {
	const deleting = "  deletionTimestamp: \"2025-01-31T23:59:00Z\"\n  finalizers: [karpenter.sh/termination]"
	const launched = "  providerID: aws:///i-2\n  allocatable: {cpu: 1930m, memory: 7Gi, pods: \"29\"}"
	type node struct {
		name           string
		pods           int
		marked, ready  bool
		initialized    bool
		allocatableCPU int64
		priced         bool
	}
	tests := []struct {
		name               string
		nodeMeta, nodeCond string
		extra              string
		pending            []string
		nodes              []node
	}{
		{"plain", "", "", "", []string{"job"}, []node{{"n1", 2, false, true, true, 1930, true}}},
		{"deleting Node", deleting, "", "", []string{"job", "app"}, []node{{"n1", 1, true, true, true, 1930, true}}},
		{"deleting NodeClaim naming the node", "", "", claim(deleting, "  nodeName: n1\n  providerID: aws:///i-1"),
			[]string{"job", "app"}, []node{{"n1", 1, true, true, true, 1930, true}}},
		{"deleting NodeClaim of the node's providerID", "", "", claim(deleting, "  providerID: aws:///i-1"),
			[]string{"job", "app"}, []node{{"n1", 1, true, true, true, 1930, true}}},
		{"NodeClaim of the node adds nothing", "", "", claim("", "  providerID: aws:///i-1\n  allocatable: {cpu: \"1\"}"),
			[]string{"job"}, []node{{"n1", 2, false, true, true, 1930, true}}},
		{"launched NodeClaim without a Node is in flight", "", "", claim("", launched),
			[]string{"job"}, []node{{"n1", 2, false, true, true, 1930, true}, {"default-x", 0, false, true, false, 1930, true}}},
		{"NodeClaim naming an absent Node is in flight", "", "", claim("", launched+"\n  nodeName: gone"),
			[]string{"job"}, []node{{"n1", 2, false, true, true, 1930, true}, {"default-x", 0, false, true, false, 1930, true}}},
		{"in flight without allocatable takes its type's", "", "", claim("", "  providerID: aws:///i-2"),
			[]string{"job"}, []node{{"n1", 2, false, true, true, 1930, true}, {"default-x", 0, false, true, false, 1930, true}}},
		{"deleting in flight", "", "", claim(deleting, launched),
			[]string{"job"}, []node{{"n1", 2, false, true, true, 1930, true}, {"default-x", 0, true, true, false, 1930, true}}},
		{"NodeClaim not launched adds nothing", "", "", claim("", "  allocatable: {cpu: \"1\"}"),
			[]string{"job"}, []node{{"n1", 2, false, true, true, 1930, true}}},
		{"Ready Unknown is NotReady", "", "  conditions: [{type: Ready, status: Unknown}]", "",
			[]string{"job"}, []node{{"n1", 2, false, false, true, 1930, true}}},
		{"Ready False is NotReady", "", "  conditions: [{type: Ready, status: \"False\"}]", "",
			[]string{"job"}, []node{{"n1", 2, false, false, true, 1930, true}}},
		{"Ready True", "", "  conditions: [{type: MemoryPressure, status: \"True\"}, {type: Ready, status: \"True\"}]", "",
			[]string{"job"}, []node{{"n1", 2, false, true, true, 1930, true}}},
	}
	cat, err := instancetypes.AWS(instancetypes.Options{})
	require.NoError(t, err)
	m5, ok := cat.Get("m5.large")
	require.True(t, ok)
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			yaml := strings.Replace(strings.Replace(statesBase, "%s", tc.nodeMeta, 1), "%s", tc.nodeCond, 1) + tc.extra
			c, err := Load(Source{Name: "s.yaml", Data: []byte(yaml)})
			require.NoError(t, err)
			p, err := c.Problem(cat)
			require.NoError(t, err)
			var pending []string
			for _, pod := range p.Pods {
				pending = append(pending, pod.Name)
			}
			assert.Equal(t, tc.pending, pending)
			require.Len(t, p.Nodes, len(tc.nodes))
			for i, want := range tc.nodes {
				n := p.Nodes[i]
				assert.Equal(t, want.name, n.Name)
				assert.Len(t, n.Pods, want.pods)
				assert.Equal(t, want.marked, n.MarkedForDeletion, "MarkedForDeletion")
				assert.Equal(t, !want.ready, n.NotReady, "NotReady")
				assert.Equal(t, want.initialized, n.Initialized, "Initialized")
				assert.Equal(t, want.allocatableCPU, n.Allocatable.CPU)
				assert.Equal(t, want.priced, !n.PriceUnknown && n.Price > 0, "priced")
			}
			if len(p.Nodes) > 1 {
				f := p.Nodes[1]
				assert.Equal(t, map[string]string{requirements.LabelNodePool: "default", requirements.LabelCapacityType: "on-demand",
					requirements.LabelZone: "us-east-1b", requirements.LabelInstanceType: "m5.large"}, f.Labels)
				assert.Equal(t, []requirements.Taint{{Key: "dedicated", Value: "x", Effect: requirements.NoSchedule}}, f.Taints)
				assert.Equal(t, "m5.large", f.InstanceType)
				assert.Equal(t, "us-east-1b", f.Zone)
				assert.Equal(t, instancetypes.OnDemand, f.CapacityType)
				if strings.Contains(tc.name, "without allocatable") {
					assert.Equal(t, m5.Allocatable, f.Allocatable)
				}
			}
			for _, n := range c.Nodes {
				assert.Len(t, n.Pods, 2, "the cluster's nodes keep their pods")
			}
			cl, err := c.Consolidation(cat, c.Nodes[0].CreationTime)
			require.NoError(t, err)
			assert.Len(t, cl.Nodes, len(tc.nodes), "consolidation sees the same nodes")
			assert.Len(t, cl.Nodes[0].Pods, 2, "consolidation leaves the pods of deleting nodes on them")
		})
	}
}

// TestProblemInFlightErrors: an in-flight NodeClaim with no allocatable
// and a type the catalog lacks, and a claim's bad requirement, are errors
// naming file, document, NodeClaim and field.
func TestProblemInFlightErrors(t *testing.T) {
	cat, err := instancetypes.AWS(instancetypes.Options{})
	require.NoError(t, err)
	base := strings.Replace(strings.Replace(statesBase, "%s", "", 1), "%s", "", 1)
	unknown := strings.Replace(claim("", "  providerID: aws:///i-2"), "m5.large", "m9.huge", 1)
	c, err := Load(Source{Name: "s.yaml", Data: []byte(base + unknown)})
	require.NoError(t, err)
	_, err = c.Problem(cat)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "s.yaml: document 6: NodeClaim default-x: status.allocatable")
	assert.ErrorIs(t, err, ErrInvalid)
	known, err := Load(Source{Name: "s.yaml", Data: []byte(base + claim("", "  providerID: aws:///i-2"))})
	require.NoError(t, err)
	_, err = known.Problem(nil) // no catalog to take the allocatable from: an error, not a panic
	assert.ErrorContains(t, err, "NodeClaim default-x: status.allocatable")

	bad := strings.Replace(claim("", "  providerID: aws:///i-2"), "operator: In, values: [amd64, arm64]", "operator: Gt, values: [x]", 1)
	_, err = Load(Source{Name: "s.yaml", Data: []byte(base + bad)})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "NodeClaim default-x: spec.requirements[1]")
}

// TestInFlightSolve: the pending pod lands on the in-flight claim, not on a
// new node; the deleting node's pod is planned again.
func TestInFlightSolve(t *testing.T) {
	cat, err := instancetypes.AWS(instancetypes.Options{})
	require.NoError(t, err)
	yaml := strings.Replace(strings.Replace(statesBase, "%s", "", 1), "%s", "", 1) +
		strings.ReplaceAll(claim("", "  providerID: aws:///i-2\n  allocatable: {cpu: 1930m, memory: 7Gi, pods: \"29\"}"), "dedicated", "other")
	yaml = strings.Replace(yaml, "  taints: [{key: other, value: x, effect: NoSchedule}, {key: boot, effect: NoSchedule}]\n", "", 1)
	c, err := Load(Source{Name: "s.yaml", Data: []byte(yaml)})
	require.NoError(t, err)
	p, err := c.Problem(cat)
	require.NoError(t, err)
	plan, err := packing.Solve(p, packing.Options{})
	require.NoError(t, err)
	assert.Empty(t, plan.NodeClaims)
	require.Len(t, plan.Bindings, 1)
	assert.Equal(t, "default-x", plan.Bindings[0].Node)
}

// TestReplanDeletingReschedulable: of a deleting node's pods, only those
// Karpenter reschedules are planned again — not daemonset, mirror or
// terminating pods, but a terminating StatefulSet pod, which comes back
// under its name and is no longer terminating.
func TestReplanDeletingReschedulable(t *testing.T) {
	pods := []packing.Pod{
		{Namespace: "a", Name: "web", Owner: "ReplicaSet/web-1"},
		{Namespace: "a", Name: "agent", Owner: "DaemonSet/agent"},
		{Namespace: "a", Name: "static", Owner: "Node/n1"},
		{Namespace: "a", Name: "going", Owner: "ReplicaSet/web-1", Terminating: true},
		{Namespace: "a", Name: "db-0", Owner: "StatefulSet/db", Terminating: true},
	}
	in := packing.Problem{Nodes: []packing.Node{{Name: "n1", MarkedForDeletion: true, Pods: pods}, {Name: "n2", Pods: pods[:1]}}}
	out := replanDeleting(in)
	var moved []string
	for _, p := range out.Pods {
		assert.False(t, p.Terminating, p.Name)
		moved = append(moved, p.Name)
	}
	assert.Equal(t, []string{"web", "db-0"}, moved)
	var kept []string
	for _, p := range out.Nodes[0].Pods {
		kept = append(kept, p.Name)
	}
	assert.Equal(t, []string{"agent", "static", "going"}, kept)
	assert.Len(t, out.Nodes[1].Pods, 1, "a node not being deleted keeps its pods")
	assert.Len(t, in.Nodes[0].Pods, 5, "the input is not modified")
	assert.True(t, in.Nodes[0].Pods[4].Terminating, "the input is not modified")
}
