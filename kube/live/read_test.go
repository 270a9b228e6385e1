package live

import (
	"context"
	"errors"
	"fmt"
	"net"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/client-go/rest"
)

// TestReadPages: every kind is read page by page until the server gives
// no continue token, in pages of Options.PageSize (default 500), and each
// kind comes out sorted by namespace and name whatever the server's order.
func TestReadPages(t *testing.T) {
	var pods []map[string]any
	for _, ns := range []string{"b", "a"} {
		for i := 4; i >= 0; i-- {
			pods = append(pods, obj(ns, fmt.Sprintf("p%d", i), nil))
		}
	}
	f := &fakeAPI{objects: map[string][]map[string]any{
		"/api/v1/pods":                              pods,
		"/api/v1/nodes":                             {obj("", "n2", nil), obj("", "n1", nil)},
		"/apis/karpenter.sh/v1/nodepools":           {obj("", "default", nil)},
		"/apis/karpenter.k8s.aws/v1/ec2nodeclasses": {obj("", "b", nil), obj("", "a", nil)},
	}}
	cfg := serve(t, f)
	objs, err := Read(context.Background(), cfg, Options{PageSize: 3})
	require.NoError(t, err)
	var got []string
	for _, p := range objs.Pods {
		got = append(got, p.Namespace+"/"+p.Name)
	}
	assert.Equal(t, []string{"a/p0", "a/p1", "a/p2", "a/p3", "a/p4", "b/p0", "b/p1", "b/p2", "b/p3", "b/p4"}, got)
	require.Len(t, objs.Nodes, 2)
	assert.Equal(t, "n1", objs.Nodes[0].Name)
	assert.Equal(t, "Node", objs.Nodes[0].Kind)
	assert.Equal(t, "v1", objs.Nodes[0].APIVersion)
	assert.Equal(t, "karpenter.sh/v1", objs.NodePools[0].APIVersion)
	require.Len(t, objs.EC2NodeClasses, 2)
	assert.Equal(t, "a", objs.EC2NodeClasses[0].Metadata.Name)
	assert.Len(t, objs.NodePools, 1)
	podLists := 0
	for _, r := range f.requests {
		if strings.HasPrefix(r, "/api/v1/pods?") {
			podLists++
			assert.Contains(t, r, "limit=3")
		}
	}
	assert.Equal(t, 4, podLists, "10 pods in pages of 3: %q", f.requests)
	assert.Len(t, f.requests, len(kinds())+3)

	f.requests = nil
	_, err = Read(context.Background(), cfg, Options{})
	require.NoError(t, err)
	assert.Contains(t, f.requests[0], "limit=500")
}

// TestReadNamespace: a namespace narrows the pending pods and the
// workloads; bound pods, DaemonSets and the cluster-scoped kinds are still
// listed cluster-wide.
func TestReadNamespace(t *testing.T) {
	bound := map[string]any{"spec": map[string]any{"nodeName": "n1"}}
	f := &fakeAPI{objects: map[string][]map[string]any{
		"/api/v1/pods":              {obj("a", "pending", nil), obj("b", "pending", nil), obj("a", "bound", bound), obj("b", "bound", bound)},
		"/apis/apps/v1/deployments": {obj("a", "web", nil), obj("b", "web", nil)},
		"/apis/apps/v1/daemonsets":  {obj("kube-system", "cni", nil)},
	}}
	objs, err := Read(context.Background(), serve(t, f), Options{Namespace: "a"})
	require.NoError(t, err)
	var pods []string
	for _, p := range objs.Pods {
		pods = append(pods, p.Namespace+"/"+p.Name)
	}
	assert.Equal(t, []string{"a/bound", "a/pending", "b/bound"}, pods)
	require.Len(t, objs.Deployments, 1)
	assert.Equal(t, "a", objs.Deployments[0].Namespace)
	assert.Len(t, objs.DaemonSets, 1)
	for _, want := range []string{"/api/v1/pods?fieldSelector=spec.nodeName%21%3D", "/api/v1/namespaces/a/pods?fieldSelector=spec.nodeName%3D",
		"/apis/apps/v1/namespaces/a/deployments?", "/apis/apps/v1/daemonsets?", "/api/v1/nodes?"} {
		assert.True(t, hasPrefix(f.requests, want), "no request %s in %q", want, f.requests)
	}

	_, err = Read(context.Background(), serve(t, f), Options{Namespace: "Not_A_Namespace"})
	assert.ErrorContains(t, err, `namespace "Not_A_Namespace"`)
}

func hasPrefix(requests []string, prefix string) bool {
	for _, r := range requests {
		if strings.HasPrefix(r, prefix) {
			return true
		}
	}
	return false
}

// TestReadErrors: a refused list is a *ListError naming the resource and
// carrying the server's message, on which apierrors' predicates hold;
// missing Karpenter CRDs are ErrNoKarpenter, a missing EC2NodeClass CRD a
// warning.
func TestReadErrors(t *testing.T) {
	tests := []struct {
		name     string
		fail     map[string]int
		is       func(error) bool
		resource string
		message  string
	}{
		{"forbidden", map[string]int{"/api/v1/pods": 403}, apierrors.IsForbidden, "pods", "the fake says Forbidden to /api/v1/pods"},
		{"unauthorized", map[string]int{"/apis/karpenter.sh/v1/nodepools": 401}, apierrors.IsUnauthorized, "nodepools.karpenter.sh", "the fake says Unauthorized"},
		{"forbidden in a group", map[string]int{"/apis/policy/v1/poddisruptionbudgets": 403}, apierrors.IsForbidden, "poddisruptionbudgets.policy", "Forbidden"},
		{"no NodePools", map[string]int{"/apis/karpenter.sh/v1/nodepools": 404}, func(err error) bool { return errors.Is(err, ErrNoKarpenter) }, "nodepools.karpenter.sh", "Karpenter is not installed"},
		{"no NodeClaims", map[string]int{"/apis/karpenter.sh/v1/nodeclaims": 404}, func(err error) bool { return errors.Is(err, ErrNoKarpenter) }, "nodeclaims.karpenter.sh", "the fake says NotFound"},
		{"no Nodes", map[string]int{"/api/v1/nodes": 404}, apierrors.IsNotFound, "nodes", "NotFound"},
		{"server error", map[string]int{"/apis/batch/v1/jobs": 500}, apierrors.IsInternalError, "jobs.batch", "InternalError"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Read(context.Background(), serve(t, &fakeAPI{fail: tc.fail}), Options{})
			require.Error(t, err)
			var le *ListError
			require.ErrorAs(t, err, &le)
			assert.Equal(t, tc.resource, le.Resource)
			assert.True(t, tc.is(err), "%v", err)
			assert.ErrorContains(t, err, tc.message)
			assert.ErrorContains(t, err, "listing "+tc.resource)
		})
	}
}

// TestReadNoEC2NodeClasses: on a cluster without the AWS provider's CRD,
// Read reads no EC2NodeClass and says so once.
func TestReadNoEC2NodeClasses(t *testing.T) {
	var warnings []string
	f := &fakeAPI{fail: map[string]int{"/apis/karpenter.k8s.aws/v1/ec2nodeclasses": 404}}
	objs, err := Read(context.Background(), serve(t, f), Options{Warn: func(w string) { warnings = append(warnings, w) }})
	require.NoError(t, err)
	assert.Empty(t, objs.EC2NodeClasses)
	require.Len(t, warnings, 1)
	assert.Contains(t, warnings[0], "read no ec2nodeclasses.karpenter.k8s.aws")
}

// TestReadUnreachable: a server that is not there is a ListError, soon.
func TestReadUnreachable(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	addr := l.Addr().String()
	require.NoError(t, l.Close())
	start := time.Now()
	_, err = Read(context.Background(), &rest.Config{Host: "http://" + addr, Timeout: 5 * time.Second}, Options{})
	var le *ListError
	require.ErrorAs(t, err, &le)
	assert.Equal(t, "nodepools.karpenter.sh", le.Resource)
	assert.ErrorContains(t, err, "connection refused")
	assert.Less(t, time.Since(start), 5*time.Second)
}

// TestReadWarnings: fields the Go types lack are named in one warning with
// their object (not for EC2NodeClass, which kube mirrors in part), and the
// server's warnings are passed on once each.
func TestReadWarnings(t *testing.T) {
	extra := map[string]any{"spec": map[string]any{"newField": 1}}
	f := &fakeAPI{header: `299 - "this API is deprecated"`, objects: map[string][]map[string]any{
		"/api/v1/pods":                              {obj("a", "p1", extra), obj("a", "p2", extra)},
		"/api/v1/nodes":                             {obj("", "n1", extra)},
		"/apis/karpenter.sh/v1/nodepools":           {obj("", "default", extra), obj("", "gpu", extra)},
		"/apis/karpenter.k8s.aws/v1/ec2nodeclasses": {obj("", "default", extra)},
	}}
	var warnings []string
	_, err := Read(context.Background(), serve(t, f), Options{Warn: func(w string) { warnings = append(warnings, w) }})
	require.NoError(t, err)
	assert.Equal(t, []string{
		"API server: this API is deprecated",
		"ignored 5 unknown fields, which the API types nodeplan is built with lack (a newer server's fields): NodePool default spec.newField, NodePool gpu spec.newField, Node n1 spec.newField, and 2 more",
	}, warnings)
}

// TestProgress: no line in the first second, then at most one a second.
func TestProgress(t *testing.T) {
	var b strings.Builder
	now := time.Unix(0, 0)
	p := progress{w: &b, now: func() time.Time { return now }, start: now}
	for _, step := range []struct {
		after time.Duration
		n     int
	}{{500 * time.Millisecond, 500}, {600 * time.Millisecond, 1000}, {500 * time.Millisecond, 1500}, {500 * time.Millisecond, 12000}} {
		now = now.Add(step.after)
		p.report(step.n, "pods")
	}
	assert.Equal(t, "read 1,000 pods…\nread 12,000 pods…\n", b.String())
	assert.Equal(t, []string{"0", "999", "1,000", "-12,345", "1,234,567"}, []string{thousands(0), thousands(999), thousands(1000), thousands(-12345), thousands(1234567)})
}

// TestReadEveryKind: every field of kube.Objects is listed, from its
// collection (so a kind added to kube.Objects must be added to kinds,
// and with it to the ClusterRole).
func TestReadEveryKind(t *testing.T) {
	f := &fakeAPI{objects: map[string][]map[string]any{}}
	for _, k := range kinds() {
		f.objects[k.path("")] = []map[string]any{obj("", k.kind, nil)}
	}
	objs, err := Read(context.Background(), serve(t, f), Options{})
	require.NoError(t, err)
	v := reflect.ValueOf(objs)
	for i := range v.NumField() {
		assert.Equal(t, 1, v.Field(i).Len(), "kube.Objects.%s", v.Type().Field(i).Name)
	}
	assert.Equal(t, v.NumField(), len(kinds()))
}

// TestReadHangingServer: a server that accepts and never answers fails
// the read after cfg.Timeout (kubectl's --request-timeout), not never.
func TestReadHangingServer(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	var conns []net.Conn // held open, unanswered, until the listener closes
	done := make(chan struct{})
	go func() {
		defer close(done)
		for {
			c, err := l.Accept()
			if err != nil {
				break
			}
			conns = append(conns, c)
		}
		for _, c := range conns {
			c.Close()
		}
	}()
	t.Cleanup(func() { l.Close(); <-done })
	start := time.Now()
	_, err = Read(context.Background(), &rest.Config{Host: "http://" + l.Addr().String(), Timeout: 300 * time.Millisecond}, Options{})
	var le *ListError
	require.ErrorAs(t, err, &le)
	assert.ErrorIs(t, err, context.DeadlineExceeded)
	assert.Less(t, time.Since(start), 5*time.Second)
}

// TestReadProgress: a read that lasts reports how far it got on
// Options.Progress (here a clock that advances a second a call).
func TestReadProgress(t *testing.T) {
	var pods []map[string]any
	for i := range 5 {
		pods = append(pods, obj("a", fmt.Sprintf("p%d", i), nil))
	}
	tick := time.Unix(0, 0)
	clock := func() time.Time { tick = tick.Add(time.Second); return tick }
	var b strings.Builder
	_, err := Read(context.Background(), serve(t, &fakeAPI{objects: map[string][]map[string]any{"/api/v1/pods": pods}}),
		Options{PageSize: 2, Progress: &b, now: clock})
	require.NoError(t, err)
	assert.Contains(t, b.String(), "read 2 pods…\nread 4 pods…\nread 5 pods…\n")
	assert.NotContains(t, b.String(), "read 0")
}

// TestReadExpiredContinue: a continue token that expires makes Read list
// the kind again from its first page, once, with nothing read twice; a
// second expiry is the server's error.
func TestReadExpiredContinue(t *testing.T) {
	extra := map[string]any{"spec": map[string]any{"newField": 1}}
	var pods []map[string]any
	for i := range 5 {
		pods = append(pods, obj("a", fmt.Sprintf("p%d", i), extra))
	}
	f := &fakeAPI{expire: 1, objects: map[string][]map[string]any{"/api/v1/pods": pods}}
	var warnings []string
	objs, err := Read(context.Background(), serve(t, f), Options{PageSize: 2, Warn: func(w string) { warnings = append(warnings, w) }})
	require.NoError(t, err)
	assert.Len(t, objs.Pods, 5)
	require.Len(t, warnings, 1)
	assert.Contains(t, warnings[0], "ignored 5 unknown fields")

	f.expire = 2
	_, err = Read(context.Background(), serve(t, f), Options{PageSize: 2})
	assert.True(t, apierrors.IsResourceExpired(err), "%v", err)
	assert.ErrorContains(t, err, "listing pods")
}

// TestReadInvalidOptions: a namespace that is not a label and a negative
// PageSize are errors wrapping ErrInvalidOptions, before any request (the
// host is one nothing listens on, which would be a *ListError).
func TestReadInvalidOptions(t *testing.T) {
	cfg := &rest.Config{Host: "http://127.0.0.1:1", Timeout: time.Second}
	for name, o := range map[string]Options{
		"namespace": {Namespace: "Not_A_Label"},
		"page size": {PageSize: -1},
	} {
		t.Run(name, func(t *testing.T) {
			_, err := Read(context.Background(), cfg, o)
			require.ErrorIs(t, err, ErrInvalidOptions)
			var le *ListError
			assert.False(t, errors.As(err, &le), "no request is made: %v", err)
		})
	}
}
