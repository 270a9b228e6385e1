//go:build unix

package main

import (
	"bufio"
	"context"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"
	"sigs.k8s.io/yaml"

	"github.com/nodeplan/nodeplan/kube/internal/apiservertest"
	"github.com/nodeplan/nodeplan/kube/live"
)

// TestShadowLive runs nodeplan shadow's watch (as the command runs it,
// from its flags) against the live test server: a NodePool and a pending
// pod, then a NodeClaim Karpenter launched as m5.xlarge: one table row,
// then the summary when the watch stops. The other live tests of the
// package delete their objects, so the pod is the only pending one.
func TestShadowLive(t *testing.T) {
	srv := apiservertest.Require(t)
	admin, err := dynamic.NewForConfig(srv.Config(apiservertest.Admin))
	require.NoError(t, err)
	create := func(resource, ns, manifest string) {
		obj := &unstructured.Unstructured{}
		require.NoError(t, yaml.Unmarshal([]byte(manifest), &obj.Object))
		gvr := schema.GroupVersionResource{Version: "v1", Resource: resource}
		if resource == "nodepools" || resource == "nodeclaims" {
			gvr.Group = "karpenter.sh"
		}
		_, err := admin.Resource(gvr).Namespace(ns).Create(t.Context(), obj, metav1.CreateOptions{})
		require.NoError(t, err, manifest)
		t.Cleanup(func() {
			assert.NoError(t, admin.Resource(gvr).Namespace(ns).Delete(context.Background(), obj.GetName(), metav1.DeleteOptions{}))
		})
	}
	createNamespace(t, admin, "shadow-cli")
	create("nodepools", "", `{apiVersion: karpenter.sh/v1, kind: NodePool, metadata: {name: shadow-cli}, spec: {template: {spec: {
  nodeClassRef: {group: karpenter.k8s.aws, kind: EC2NodeClass, name: default},
  requirements: [{key: karpenter.sh/capacity-type, operator: In, values: [on-demand]},
    {key: node.kubernetes.io/instance-type, operator: In, values: [m5.xlarge]}]}}}}`)
	create("pods", "shadow-cli", `{apiVersion: v1, kind: Pod, metadata: {name: p, namespace: shadow-cli},
  spec: {nodeSelector: {karpenter.sh/nodepool: shadow-cli}, containers: [{name: c, image: x, resources: {requests: {cpu: "1"}}}]}}`)

	c, err := parseFlags("shadow", []string{"--kubeconfig", srv.Kubeconfig(t, apiservertest.Admin)}, "table", "json")
	require.NoError(t, err)
	cfg, _, err := live.Config(live.ConfigOptions{Kubeconfig: c.cluster.kubeconfig})
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	out, w := io.Pipe()
	done := make(chan error, 1)
	go func() { done <- watchShadow(ctx, c, cfg, w, io.Discard); w.Close() }()
	lines := make(chan string, 100)
	go func() {
		for s := bufio.NewScanner(out); s.Scan(); {
			lines <- s.Text()
		}
		close(lines)
	}()
	until := func(prefix string) string {
		t.Helper()
		for {
			select {
			case l, ok := <-lines:
				require.True(t, ok, "the output ended before a line %q", prefix)
				t.Log(l) // the output, for go test -v
				if strings.HasPrefix(l, prefix) {
					return l
				}
			case <-time.After(3 * time.Minute):
				t.Fatalf("no line %q within 3 minutes", prefix)
			}
		}
	}
	until("#    START") // the informers synced
	create("nodeclaims", "", `{apiVersion: karpenter.sh/v1, kind: NodeClaim, metadata: {name: shadow-cli-1, labels: {
  karpenter.sh/nodepool: shadow-cli, node.kubernetes.io/instance-type: m5.xlarge, topology.kubernetes.io/zone: us-east-1a,
  karpenter.sh/capacity-type: on-demand}},
  spec: {nodeClassRef: {group: karpenter.k8s.aws, kind: EC2NodeClass, name: default}, requirements: []}}`)
	row := strings.Fields(until("1 "))
	assert.Equal(t, []string{"1", "Provisioning", "1/1", "+1", "+1", "0.192000", "0.192000", "0.000000"},
		append(row[:1:1], row[2:]...), "the row but its time")
	cancel()
	until("summary: 1 provisioning event, 0 disruption events (0 errors)")
	assert.Equal(t, "  pods: 1 pending (each once), 1 placed by nodeplan", until("  pods:"))
	assert.Equal(t, "  difference (Karpenter - nodeplan): 0.000000 USD/hour", until("  difference"))
	require.NoError(t, <-done)
}

// TestShadowStopsBeforeSync: nodeplan shadow stopped before it has read
// the cluster (--duration shorter than the initial list, or SIGINT) exits
// 0 and says so; one that may not list the cluster exits 2 with the
// server's Forbidden.
func TestShadowStopsBeforeSync(t *testing.T) {
	srv := apiservertest.Require(t)
	tests := []struct {
		name, user, duration string
		code                 int
		err                  string
	}{
		{"stopped", apiservertest.Admin, "1ns", exitOK, "nodeplan shadow: stopped before the cluster was read: no events"},
		{"forbidden", apiservertest.Nobody, "1m", exitBadInput, "is forbidden"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var stdout, stderr strings.Builder
			code := run([]string{"shadow", "--kubeconfig", srv.Kubeconfig(t, tc.user), "--duration", tc.duration}, nil, &stdout, &stderr)
			assert.Equal(t, tc.code, code, stderr.String())
			assert.Contains(t, stderr.String(), tc.err)
			assert.NotContains(t, stderr.String(), "did not sync")
		})
	}
}
