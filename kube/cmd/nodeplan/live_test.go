//go:build unix

package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	"k8s.io/client-go/discovery"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/restmapper"
	"sigs.k8s.io/yaml"

	"github.com/nodeplan/nodeplan/kube/internal/apiservertest"
	"github.com/nodeplan/nodeplan/kube/live"
)

// TestMain starts the API server of the live tests (apiservertest), after
// isolate.
func TestMain(m *testing.M) {
	isolate()
	os.Exit(apiservertest.Main(m))
}

// applyFile creates the objects of a manifest file through the API server
// as the admin, as kubectl create would (their namespaces first), writes
// the status each has in the file with the status subresource, and
// deletes them when t ends. It returns how many it created.
func applyFile(t *testing.T, srv *apiservertest.Server, path string) int {
	t.Helper()
	client, mapper := clients(t, srv)
	objs := readObjects(t, path)
	for _, o := range objs {
		if ns := o.GetNamespace(); ns != "" {
			createNamespace(t, client, ns)
		}
	}
	for _, o := range objs {
		mapping, err := mapper.RESTMapping(o.GroupVersionKind().GroupKind(), o.GroupVersionKind().Version)
		require.NoError(t, err)
		ri := resourceFor(client, mapping, o.GetNamespace())
		status, hasStatus := o.Object["status"]
		delete(o.Object, "status")
		created, err := ri.Create(t.Context(), o, metav1.CreateOptions{})
		require.NoError(t, err, "%s %s", o.GetKind(), o.GetName())
		t.Cleanup(func() {
			zero, background := int64(0), metav1.DeletePropagationBackground
			assert.NoError(t, ri.Delete(context.Background(), o.GetName(), metav1.DeleteOptions{GracePeriodSeconds: &zero, PropagationPolicy: &background}))
		})
		if o.GetKind() == "Node" {
			created = untaint(t, ri, created, o)
		}
		if hasStatus {
			created.Object["status"] = status
			_, err = ri.UpdateStatus(t.Context(), created, metav1.UpdateOptions{})
			require.NoError(t, err, "status of %s %s", o.GetKind(), o.GetName())
		}
	}
	return len(objs)
}

// clients returns an admin dynamic client of srv and a REST mapper of its
// resources.
func clients(t *testing.T, srv *apiservertest.Server) (*dynamic.DynamicClient, meta.RESTMapper) {
	cfg := srv.Config(apiservertest.Admin)
	client, err := dynamic.NewForConfig(cfg)
	require.NoError(t, err)
	disc, err := discovery.NewDiscoveryClientForConfig(cfg)
	require.NoError(t, err)
	groups, err := restmapper.GetAPIGroupResources(disc)
	require.NoError(t, err)
	return client, restmapper.NewDiscoveryRESTMapper(groups)
}

// dumpFile writes the objects of path as the server holds them, read
// back one by one, into a kind List file, as kubectl get -o yaml writes
// them, and returns its path.
func dumpFile(t *testing.T, srv *apiservertest.Server, path string) string {
	t.Helper()
	client, mapper := clients(t, srv)
	var items []any
	for _, o := range readObjects(t, path) {
		mapping, err := mapper.RESTMapping(o.GroupVersionKind().GroupKind(), o.GroupVersionKind().Version)
		require.NoError(t, err)
		got, err := resourceFor(client, mapping, o.GetNamespace()).Get(t.Context(), o.GetName(), metav1.GetOptions{})
		require.NoError(t, err)
		items = append(items, got.Object)
	}
	data, err := yaml.Marshal(map[string]any{"apiVersion": "v1", "kind": "List", "items": items})
	require.NoError(t, err)
	out := filepath.Join(t.TempDir(), "dump.yaml")
	require.NoError(t, os.WriteFile(out, data, 0o644))
	return out
}

// untaint gives a created Node the taints of its manifest: the API
// server's TaintNodesByCondition admission adds node.kubernetes.io/not-ready,
// which the node lifecycle controller (not running here) removes once the
// node is Ready.
func untaint(t *testing.T, ri dynamic.ResourceInterface, created, manifest *unstructured.Unstructured) *unstructured.Unstructured {
	taints, found, err := unstructured.NestedSlice(manifest.Object, "spec", "taints")
	require.NoError(t, err)
	if found {
		require.NoError(t, unstructured.SetNestedSlice(created.Object, taints, "spec", "taints"))
	} else {
		unstructured.RemoveNestedField(created.Object, "spec", "taints")
	}
	updated, err := ri.Update(t.Context(), created, metav1.UpdateOptions{})
	require.NoError(t, err)
	return updated
}

func resourceFor(client dynamic.Interface, m *meta.RESTMapping, ns string) dynamic.ResourceInterface {
	if m.Scope.Name() == meta.RESTScopeNameNamespace {
		return client.Resource(m.Resource).Namespace(ns)
	}
	return client.Resource(m.Resource)
}

// readObjects reads the YAML documents of path.
func readObjects(t *testing.T, path string) []*unstructured.Unstructured {
	f, err := os.Open(path)
	require.NoError(t, err)
	defer f.Close()
	dec := utilyaml.NewYAMLOrJSONDecoder(f, 4096)
	var out []*unstructured.Unstructured
	for {
		o := &unstructured.Unstructured{}
		err := dec.Decode(&o.Object)
		if errors.Is(err, io.EOF) {
			return out
		}
		require.NoError(t, err)
		if len(o.Object) > 0 {
			out = append(out, o)
		}
	}
}

func createNamespace(t *testing.T, client dynamic.Interface, name string) {
	ns := &unstructured.Unstructured{Object: map[string]any{"apiVersion": "v1", "kind": "Namespace", "metadata": map[string]any{"name": name}}}
	_, err := client.Resource(schema.GroupVersionResource{Version: "v1", Resource: "namespaces"}).Create(t.Context(), ns, metav1.CreateOptions{})
	if !apierrors.IsAlreadyExists(err) { // namespaces stay: no controller deletes a terminating one
		require.NoError(t, err)
	}
}

// report runs args and returns its JSON report without its warnings.
func report(t *testing.T, args ...string) map[string]any {
	t.Helper()
	var out, errs bytes.Buffer
	code := run(args, nil, &out, &errs)
	require.Contains(t, []int{exitOK, exitUnschedulable}, code, "stderr: %s", errs.String())
	var r map[string]any
	require.NoError(t, json.Unmarshal(out.Bytes(), &r), out.String())
	t.Logf("%v warnings: %v", args[len(args)-1], r["warnings"])
	delete(r, "warnings")
	return r
}

// TestLiveCluster: the objects of a manifest file, created through the
// API server and read back without -f, give the plan the file gives; the
// commands' exit codes and output on a live cluster, for a user without
// rights and with -n.
func TestLiveCluster(t *testing.T) {
	srv := apiservertest.Require(t)
	const file = "../../testdata/cluster.yaml"
	applyFile(t, srv, file)
	admin := srv.Kubeconfig(t, apiservertest.Admin)
	t.Run("same plan as the file", func(t *testing.T) {
		fromFile := report(t, "provision", "-o", "json", "-f", file)
		live := report(t, "provision", "-o", "json", "--kubeconfig", admin)
		assert.Equal(t, fromFile, live)
	})
	// The server writes creationTimestamps (and defaults), so the objects
	// it holds are the file's with those changes: every command gives on
	// them, read live, what it gives on them dumped as kubectl get -o yaml
	// would.
	// Read live they decide at the clock's now, files at their newest
	// creationTimestamp: both are given one --now, an hour after the
	// server created the objects.
	dump := dumpFile(t, srv, file)
	now := []string{"--now", time.Now().Add(time.Hour).UTC().Format(time.RFC3339)}
	for _, cmd := range [][]string{{"provision"}, append([]string{"consolidate"}, now...), append([]string{"drift"}, now...),
		append([]string{"diff"}, now...)} {
		t.Run("same "+cmd[0]+" as the server's objects dumped", func(t *testing.T) {
			fromFile := report(t, append(cmd, "-o", "json", "-f", dump)...)
			live := report(t, append(cmd, "-o", "json", "--kubeconfig", admin)...)
			assert.Equal(t, fromFile, live)
		})
	}
	t.Run("the read warns of nothing", func(t *testing.T) {
		var warnings []string
		objs, err := live.Read(t.Context(), srv.Config(apiservertest.Admin), live.Options{Warn: func(w string) { warnings = append(warnings, w) }})
		require.NoError(t, err)
		assert.Empty(t, warnings, "every field the server writes is one nodeplan's types have; no server warning")
		assert.NotEmpty(t, objs.NodePools)
	})
	tests := []cliCase{
		{"provision", []string{"provision", "--kubeconfig", admin}, exitUnschedulable, "6 new nodes, 14 pods scheduled, 1 unschedulable", ""},
		{"consolidate", []string{"consolidate", "--kubeconfig", admin, "-o", "json"}, exitOK, `"kind": "ConsolidationReport"`, ""},
		{"drift", []string{"drift", "--kubeconfig", admin, "-o", "json"}, exitOK, `"kind": "DriftReport"`, ""},
		{"diff", []string{"diff", "--kubeconfig", admin, "-o", "json"}, exitUnschedulable, `"kind": "DiffReport"`, ""},
		{"nobody", []string{"provision", "--kubeconfig", srv.Kubeconfig(t, apiservertest.Nobody)}, exitBadInput, "",
			`nodeplan provision: listing nodepools.karpenter.sh (every namespace): nodepools.karpenter.sh is forbidden: User "nobody" cannot list resource "nodepools"`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			out, _ := check(t, tc.args, tc.code, tc.stdout, tc.stderr)
			if tc.code == exitBadInput {
				assert.Empty(t, out)
			}
		})
	}
	t.Run("provision -n", func(t *testing.T) {
		r := report(t, "provision", "-o", "json", "--kubeconfig", admin, "-n", "shop")
		var pods []string
		for _, n := range r["nodes"].([]any) {
			for _, p := range n.(map[string]any)["pods"].([]any) {
				pods = append(pods, p.(string))
			}
		}
		assert.Contains(t, pods, "shop/web-0", "shop's pending pods")
		assert.Contains(t, pods, "shop/web-7d4b9c-x2k8q", "a bound pod")
		for _, p := range pods {
			assert.True(t, strings.HasPrefix(p, "shop/"), "%s: another namespace's pending pod", p)
		}
		assert.Empty(t, r["unschedulable"], "batch/giant is another namespace's")
	})
}
