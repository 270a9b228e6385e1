//go:build unix

package live

import (
	"context"
	"net/http"
	"os"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"
	"sigs.k8s.io/yaml"

	"github.com/nodeplan/nodeplan/kube/internal/apiservertest"
)

// The live tests run against a real kube-apiserver (package apiservertest;
// they skip without its binaries). The server is shared by the tests of
// this binary: each test creates objects named for it and deletes them.
func TestMain(m *testing.M) { os.Exit(apiservertest.Main(m)) }

// create creates the objects of manifests (YAML, one per entry) as the
// admin and deletes them when t ends.
func create(t *testing.T, srv *apiservertest.Server, manifests ...string) {
	t.Helper()
	c, err := dynamic.NewForConfig(srv.Config(apiservertest.Admin))
	require.NoError(t, err)
	for _, m := range manifests {
		o := &unstructured.Unstructured{}
		require.NoError(t, yaml.Unmarshal([]byte(m), &o.Object))
		gvk := o.GroupVersionKind()
		res := c.Resource(schema.GroupVersionResource{Group: gvk.Group, Version: gvk.Version, Resource: plural(gvk.Kind)})
		ri := dynamic.ResourceInterface(res)
		if ns := o.GetNamespace(); ns != "" {
			ri = res.Namespace(ns)
		}
		_, err := ri.Create(t.Context(), o, metav1.CreateOptions{})
		if gvk.Kind == "Namespace" && apierrors.IsAlreadyExists(err) {
			continue // namespaces stay: no controller deletes a terminating one
		}
		require.NoError(t, err, "%s %s", gvk.Kind, o.GetName())
		if gvk.Kind == "Namespace" {
			continue
		}
		t.Cleanup(func() {
			zero := int64(0)
			err := ri.Delete(context.Background(), o.GetName(), metav1.DeleteOptions{GracePeriodSeconds: &zero})
			assert.NoError(t, err, "delete %s %s", gvk.Kind, o.GetName())
		})
	}
}

// plural is the resource of kind: Read's, else kind in lower case with
// an s (Namespace, ClusterRole, ClusterRoleBinding).
func plural(kind string) string {
	for _, k := range kinds() {
		if k.kind == kind {
			return k.name
		}
	}
	return strings.ToLower(kind) + "s"
}

// counting counts the requests for one URL path.
type counting struct {
	path string
	n    atomic.Int32
	next http.RoundTripper
}

func (c *counting) RoundTrip(r *http.Request) (*http.Response, error) {
	if r.URL.Path == c.path {
		c.n.Add(1)
	}
	return c.next.RoundTrip(r)
}

// TestLivePages: past one page, Read follows the continue tokens: with
// pages of 2, the PriorityClasses (2 built in, 6 created) take one list
// request per 2, and come out sorted.
func TestLivePages(t *testing.T) {
	srv := apiservertest.Require(t)
	var created []string
	for _, name := range []string{"pages-f", "pages-b", "pages-d", "pages-a", "pages-e", "pages-c"} {
		create(t, srv, "{apiVersion: scheduling.k8s.io/v1, kind: PriorityClass, metadata: {name: "+name+"}, value: 10}")
		created = append(created, name)
	}
	cfg := srv.Config(apiservertest.Admin)
	count := &counting{path: "/apis/scheduling.k8s.io/v1/priorityclasses"}
	cfg.WrapTransport = func(rt http.RoundTripper) http.RoundTripper { count.next = rt; return count }
	objs, err := Read(t.Context(), cfg, Options{PageSize: 2})
	require.NoError(t, err)
	var names []string
	for _, pc := range objs.PriorityClasses {
		names = append(names, pc.Name)
	}
	assert.GreaterOrEqual(t, len(names), 8)
	assert.True(t, slices.IsSorted(names), "%q", names)
	for _, n := range append(created, "system-node-critical", "system-cluster-critical") {
		assert.Contains(t, names, n)
	}
	assert.Equal(t, int32((len(names)+1)/2), count.n.Load(), "list requests for %d PriorityClasses in pages of 2", len(names))
}

// TestLiveNamespace: -n narrows the pending pods to one namespace (the
// field selectors as the real server reads them) and keeps the bound pods
// of every namespace.
func TestLiveNamespace(t *testing.T) {
	srv := apiservertest.Require(t)
	pod := func(ns, name, node string) string {
		return "{apiVersion: v1, kind: Pod, metadata: {namespace: " + ns + ", name: " + name + "}, spec: {nodeName: '" + node +
			"', containers: [{name: c, image: registry.k8s.io/pause:3.10}]}}"
	}
	create(t, srv, "{apiVersion: v1, kind: Namespace, metadata: {name: narrow-a}}", "{apiVersion: v1, kind: Namespace, metadata: {name: narrow-b}}",
		pod("narrow-a", "pending", ""), pod("narrow-a", "bound", "n1"), pod("narrow-b", "pending", ""), pod("narrow-b", "bound", "n1"),
		"{apiVersion: apps/v1, kind: Deployment, metadata: {namespace: narrow-b, name: web}, spec: {selector: {matchLabels: {app: web}}, "+
			"template: {metadata: {labels: {app: web}}, spec: {containers: [{name: c, image: registry.k8s.io/pause:3.10}]}}}}")
	objs, err := Read(t.Context(), srv.Config(apiservertest.Admin), Options{Namespace: "narrow-a"})
	require.NoError(t, err)
	var pods []string
	for _, p := range objs.Pods {
		if strings.HasPrefix(p.Namespace, "narrow-") {
			pods = append(pods, p.Namespace+"/"+p.Name)
		}
	}
	assert.Equal(t, []string{"narrow-a/bound", "narrow-a/pending", "narrow-b/bound"}, pods)
	assert.Empty(t, objs.Deployments, "narrow-b's Deployment")
	assert.Equal(t, "Pod", objs.Pods[0].Kind)
}

// TestLiveForbidden: a user without rights gets the server's Forbidden,
// naming the resource; the reader bound to the shipped ClusterRole reads
// everything, so the ClusterRole is enough.
func TestLiveForbidden(t *testing.T) {
	srv := apiservertest.Require(t)
	_, err := Read(t.Context(), srv.Config(apiservertest.Nobody), Options{})
	var le *ListError
	require.ErrorAs(t, err, &le)
	assert.Equal(t, "nodepools.karpenter.sh", le.Resource)
	assert.True(t, apierrors.IsForbidden(err), "%v", err)
	assert.ErrorContains(t, err, `User "nobody" cannot list resource "nodepools" in API group "karpenter.sh" at the cluster scope`)

	role, err := os.ReadFile("../deploy/clusterrole.yaml")
	require.NoError(t, err)
	create(t, srv, string(role), `{apiVersion: rbac.authorization.k8s.io/v1, kind: ClusterRoleBinding, metadata: {name: live-reader},
		roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: nodeplan-reader},
		subjects: [{apiGroup: rbac.authorization.k8s.io, kind: User, name: reader}]}`)
	for _, ns := range []string{"", "default"} {
		require.EventuallyWithT(t, func(c *assert.CollectT) {
			_, err := Read(t.Context(), srv.Config(apiservertest.Reader), Options{Namespace: ns})
			assert.NoError(c, err)
		}, 30*time.Second, 100*time.Millisecond, "the reader bound to nodeplan-reader, namespace %q", ns)
	}
}

// TestLiveTimeout: a request the server does not answer in cfg.Timeout
// fails with a ListError soon after it.
func TestLiveTimeout(t *testing.T) {
	srv := apiservertest.Require(t)
	cfg := srv.Config(apiservertest.Admin)
	cfg.Timeout = time.Nanosecond
	start := time.Now()
	_, err := Read(t.Context(), cfg, Options{})
	var le *ListError
	require.ErrorAs(t, err, &le)
	assert.ErrorIs(t, err, context.DeadlineExceeded)
	assert.Less(t, time.Since(start), 10*time.Second)
}
