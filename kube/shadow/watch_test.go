//go:build unix

package shadow

import (
	"context"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/nodeplan/nodeplan/instancetypes"
	"github.com/nodeplan/nodeplan/kube"
	"github.com/nodeplan/nodeplan/kube/internal/apiservertest"
	"github.com/nodeplan/nodeplan/kube/live"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"
	karpv1 "sigs.k8s.io/karpenter/pkg/apis/v1"
	"sigs.k8s.io/yaml"
)

func TestMain(m *testing.M) { os.Exit(apiservertest.Main(m)) }

// wait is how long a live test waits for one thing to happen: long, as
// the machine is slow and busy; nothing asserts on timing.
const wait = 3 * time.Minute

var (
	podsGVR       = schema.GroupVersionResource{Version: "v1", Resource: "pods"}
	nodesGVR      = schema.GroupVersionResource{Version: "v1", Resource: "nodes"}
	namespacesGVR = schema.GroupVersionResource{Version: "v1", Resource: "namespaces"}
	nodePoolsGVR  = schema.GroupVersionResource{Group: "karpenter.sh", Version: "v1", Resource: "nodepools"}
	nodeClaimsGVR = schema.GroupVersionResource{Group: "karpenter.sh", Version: "v1", Resource: "nodeclaims"}
	rolesGVR      = schema.GroupVersionResource{Group: "rbac.authorization.k8s.io", Version: "v1", Resource: "clusterroles"}
	bindingsGVR   = schema.GroupVersionResource{Group: "rbac.authorization.k8s.io", Version: "v1", Resource: "clusterrolebindings"}
)

// karpenter plays Karpenter (and the kubelet, and the scheduler) against
// the API server: it writes what they would.
type karpenter struct {
	t   *testing.T
	api dynamic.Interface
}

func (k *karpenter) create(gvr schema.GroupVersionResource, ns, manifest string) *unstructured.Unstructured {
	k.t.Helper()
	obj := &unstructured.Unstructured{}
	require.NoError(k.t, yaml.Unmarshal([]byte(manifest), &obj.Object))
	out, err := k.api.Resource(gvr).Namespace(ns).Create(k.t.Context(), obj, metav1.CreateOptions{})
	require.NoError(k.t, err, manifest)
	return out
}

// ensure creates the object unless one of its name exists (the tests
// share the server).
func (k *karpenter) ensure(gvr schema.GroupVersionResource, ns, manifest string) {
	k.t.Helper()
	obj := &unstructured.Unstructured{}
	require.NoError(k.t, yaml.Unmarshal([]byte(manifest), &obj.Object))
	_, err := k.api.Resource(gvr).Namespace(ns).Create(k.t.Context(), obj, metav1.CreateOptions{})
	if !apierrors.IsAlreadyExists(err) {
		require.NoError(k.t, err, manifest)
	}
}

// status writes the status of obj (a created object) as the YAML status.
func (k *karpenter) status(gvr schema.GroupVersionResource, obj *unstructured.Unstructured, status string) *unstructured.Unstructured {
	k.t.Helper()
	var s map[string]any
	require.NoError(k.t, yaml.Unmarshal([]byte(status), &s))
	obj.Object["status"] = s
	out, err := k.api.Resource(gvr).Namespace(obj.GetNamespace()).UpdateStatus(k.t.Context(), obj, metav1.UpdateOptions{})
	require.NoError(k.t, err)
	return out
}

// labels sets labels on obj, as Karpenter labels a NodeClaim it launched.
func (k *karpenter) labels(gvr schema.GroupVersionResource, obj *unstructured.Unstructured, labels map[string]string) *unstructured.Unstructured {
	k.t.Helper()
	l := obj.GetLabels()
	for key, v := range labels {
		l[key] = v
	}
	obj.SetLabels(l)
	out, err := k.api.Resource(gvr).Namespace(obj.GetNamespace()).Update(k.t.Context(), obj, metav1.UpdateOptions{})
	require.NoError(k.t, err)
	return out
}

func (k *karpenter) bind(ns, pod, node string) {
	k.t.Helper()
	obj := &unstructured.Unstructured{Object: map[string]any{"apiVersion": "v1", "kind": "Binding",
		"metadata": map[string]any{"name": pod}, "target": map[string]any{"kind": "Node", "name": node}}}
	_, err := k.api.Resource(podsGVR).Namespace(ns).Create(k.t.Context(), obj, metav1.CreateOptions{}, "binding")
	require.NoError(k.t, err)
}

const liveNS = "shadow-watch"

func livePod(name string) string {
	return `{apiVersion: v1, kind: Pod, metadata: {name: ` + name + `, namespace: ` + liveNS + `},
  spec: {containers: [{name: c, image: x, resources: {requests: {cpu: "1", memory: 1Gi}}}]}}`
}

const unschedulable = `{phase: Pending, conditions: [{type: PodScheduled, status: "False", reason: Unschedulable}]}`

const liveClaim = `
apiVersion: karpenter.sh/v1
kind: NodeClaim
metadata: {name: default-x1, labels: {karpenter.sh/nodepool: default}}
spec:
  nodeClassRef: {group: karpenter.k8s.aws, kind: EC2NodeClass, name: default}
  requirements:
  - {key: karpenter.sh/capacity-type, operator: In, values: [on-demand]}
  - {key: node.kubernetes.io/instance-type, operator: In, values: [m5.large, m5.xlarge, m5.2xlarge]}
`

const liveNode = `
apiVersion: v1
kind: Node
metadata:
  name: n1
  labels: {karpenter.sh/nodepool: default, node.kubernetes.io/instance-type: m5.xlarge, topology.kubernetes.io/zone: us-east-1a,
    karpenter.sh/capacity-type: on-demand, kubernetes.io/arch: amd64, kubernetes.io/os: linux, karpenter.sh/registered: "true",
    karpenter.sh/initialized: "true"}
spec: {providerID: "aws:///us-east-1a/i-1"}
`

// start returns the server and a Karpenter player on it, with the
// test's NodePool and apiservertest.Reader bound read-only.
func start(t *testing.T) (*apiservertest.Server, *karpenter) {
	srv := apiservertest.Require(t)
	admin, err := dynamic.NewForConfig(srv.Config(apiservertest.Admin))
	require.NoError(t, err)
	k := &karpenter{t: t, api: admin}
	readOnly(k)
	k.ensure(nodePoolsGVR, "", pool)
	return srv, k
}

// readOnly binds apiservertest.Reader to the shipped ClusterRole
// nodeplan-reader (kube/deploy/clusterrole.yaml): get, list and watch on
// the resources nodeplan reads, the rights nodeplan shadow asks for.
func readOnly(k *karpenter) {
	role, err := os.ReadFile("../deploy/clusterrole.yaml")
	require.NoError(k.t, err)
	k.ensure(rolesGVR, "", string(role))
	k.ensure(bindingsGVR, "", `{apiVersion: rbac.authorization.k8s.io/v1, kind: ClusterRoleBinding, metadata: {name: shadow-reader},
  roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: nodeplan-reader},
  subjects: [{apiGroup: rbac.authorization.k8s.io, kind: User, name: reader}]}`)
}

// TestWatch plays Karpenter against a real API server: a NodePool and
// three pending pods, then one NodeClaim launched as m5.xlarge, its Node
// and the pods bound to it (a provisioning event), then the NodeClaim
// deleted (a disruption event). Watch runs as a user bound to the
// shipped nodeplan-reader ClusterRole (get, list and watch).
func TestWatch(t *testing.T) {
	srv, k := start(t)
	admin := k.api
	k.ensure(namespacesGVR, "", `{apiVersion: v1, kind: Namespace, metadata: {name: `+liveNS+`}}`)
	for _, name := range []string{"a", "b", "c"} {
		k.status(podsGVR, k.create(podsGVR, liveNS, livePod(name)), unschedulable)
	}

	cat := awsCatalog(t)
	w := startWatch(t, srv, cat)
	// Provisioning: Karpenter creates the claim, launches it, labels it.
	claim := k.create(nodeClaimsGVR, "", liveClaim)
	claim = k.status(nodeClaimsGVR, claim, `{providerID: "aws:///us-east-1a/i-1", nodeName: n1}`)
	claim = k.labels(nodeClaimsGVR, claim, map[string]string{"node.kubernetes.io/instance-type": "m5.xlarge",
		"topology.kubernetes.io/zone": "us-east-1a", "karpenter.sh/capacity-type": "on-demand"})
	e := w.next("provisioning")
	want := provisionAnswer(t, cat)
	xlarge := instancetypes.MustPriceFromDollars(0.192)
	assert.Equal(t, Provisioning, e.Type)
	require.NoError(t, e.Err)
	assert.Equal(t, []Claim{{Name: "default-x1", NodePool: "default", Offering: Offering{"m5.xlarge", "us-east-1a", "on-demand"},
		Price: xlarge, Priced: true}}, dropNodes(e.Karpenter.Launched))
	want.PendingPods = []string{"shadow-watch/a", "shadow-watch/b", "shadow-watch/c"} // the manifests' pods, in the test's namespace
	assert.Equal(t, want, e.Nodeplan)
	d, ok := e.Difference()
	assert.True(t, ok)
	assert.Equal(t, xlarge-want.Price, d)

	// The node registers and the pods are bound to it; then Karpenter
	// consolidates: it deletes the NodeClaim.
	node := k.create(nodesGVR, "", liveNode)
	k.status(nodesGVR, node, `{allocatable: {cpu: 3920m, memory: 14Gi, pods: "58"}, capacity: {cpu: "4", memory: 16Gi, pods: "58"},
  conditions: [{type: Ready, status: "True"}]}`)
	for _, name := range []string{"a", "b", "c"} {
		k.bind(liveNS, name, "n1")
	}
	require.NoError(t, admin.Resource(nodeClaimsGVR).Delete(t.Context(), "default-x1", metav1.DeleteOptions{}))
	e = w.next("disruption")
	assert.Equal(t, Disruption, e.Type)
	require.NoError(t, e.Err)
	assert.Equal(t, []string{"default-x1"}, names(e.Karpenter.Removed))
	change, unpriced := e.Karpenter.Change()
	assert.Equal(t, -xlarge, change)
	assert.Zero(t, unpriced)

	totals := w.stop()
	assert.Equal(t, [2]int{1, 1}, totals.Events)
	assert.Equal(t, Side{Launched: 1, Removed: 1}, totals.Karpenter)
}

// provisionAnswer is the planner's answer on the test's NodePool and
// pods, built from manifests rather than read from the server.
func provisionAnswer(t *testing.T, cat *instancetypes.Catalog) Decision {
	d, err := (&Planner{Catalog: cat}).Provision(objects(t, pool+"---\n"+pendingPod("a")+"---\n"+pendingPod("b")+"---\n"+pendingPod("c")))
	require.NoError(t, err)
	return d
}

// dropNodes clears the node names, which the test's timing decides (the
// claim's status may be read before or after it is written).
func dropNodes(cs []Claim) []Claim {
	for i := range cs {
		cs[i].Node = ""
	}
	return cs
}

// watch is a Watch running as apiservertest.Reader in a goroutine.
type watch struct {
	t      *testing.T
	events chan Event
	done   chan error
	cancel context.CancelFunc
	totals Totals
}

// startWatch starts Watch with the planner on cat and returns once its
// informers synced.
func startWatch(t *testing.T, srv *apiservertest.Server, cat *instancetypes.Catalog) *watch {
	ctx, cancel := context.WithCancel(t.Context())
	w := &watch{t: t, events: make(chan Event, 10), done: make(chan error, 1), cancel: cancel}
	t.Cleanup(cancel)
	ready := make(chan struct{})
	go func() {
		var err error
		w.totals, err = Watch(ctx, srv.Config(apiservertest.Reader), WatchOptions{Tick: 50 * time.Millisecond},
			func(kube.Objects) (Decider, error) { close(ready); return &Planner{Catalog: cat}, nil },
			func(e Event) error { w.events <- e; return nil })
		w.done <- err
	}()
	select {
	case <-ready:
	case err := <-w.done:
		t.Fatalf("Watch ended before its informers synced: %v", err)
	case <-time.After(wait):
		t.Fatalf("informers not synced within %v", wait)
	}
	return w
}

// next waits for the next event.
func (w *watch) next(what string) Event {
	w.t.Helper()
	select {
	case e := <-w.events:
		return e
	case err := <-w.done:
		w.t.Fatalf("Watch ended before the %s event: %v", what, err)
	case <-time.After(wait):
		w.t.Fatalf("no %s event within %v", what, wait)
	}
	return Event{}
}

// stop ends the watch and returns its totals.
func (w *watch) stop() Totals {
	w.t.Helper()
	w.cancel()
	select {
	case err := <-w.done:
		require.NoError(w.t, err)
	case <-time.After(wait):
		w.t.Fatalf("Watch did not stop within %v", wait)
	}
	return w.totals
}

// TestWatchReplacement plays a Karpenter consolidation that replaces a
// node: it taints the node, sets its NodeClaim's DisruptionReason
// condition, creates the replacement NodeClaim (launched and labelled),
// then deletes the candidate's NodeClaim: one disruption event.
func TestWatchReplacement(t *testing.T) {
	srv, k := start(t)
	admin := k.api
	launched := map[string]string{"node.kubernetes.io/instance-type": "m5.xlarge", "topology.kubernetes.io/zone": "us-east-1a",
		"karpenter.sh/capacity-type": "on-demand"}
	old := k.create(nodeClaimsGVR, "", strings.ReplaceAll(liveClaim, "default-x1", "default-old"))
	old = k.status(nodeClaimsGVR, old, `{providerID: "aws:///us-east-1a/i-old", nodeName: n-old}`)
	old = k.labels(nodeClaimsGVR, old, launched)
	node := k.create(nodesGVR, "", strings.NewReplacer("name: n1", "name: n-old", "i-1", "i-old").Replace(liveNode))

	w := startWatch(t, srv, awsCatalog(t))
	require.NoError(t, unstructured.SetNestedSlice(node.Object, []any{map[string]any{"key": "karpenter.sh/disrupted", "effect": "NoSchedule"}},
		"spec", "taints"))
	_, err := admin.Resource(nodesGVR).Update(t.Context(), node, metav1.UpdateOptions{})
	require.NoError(t, err)
	k.status(nodeClaimsGVR, old, `{providerID: "aws:///us-east-1a/i-old", nodeName: n-old, conditions: [{type: DisruptionReason,
  status: "True", reason: Underutilized, message: Underutilized, lastTransitionTime: "2026-01-02T03:04:05Z"}]}`)
	replacement := k.create(nodeClaimsGVR, "", strings.ReplaceAll(liveClaim, "default-x1", "default-new"))
	launched["node.kubernetes.io/instance-type"] = "m5.large"
	k.labels(nodeClaimsGVR, replacement, launched)
	require.NoError(t, admin.Resource(nodeClaimsGVR).Delete(t.Context(), "default-old", metav1.DeleteOptions{}))

	e := w.next("disruption")
	assert.Equal(t, Disruption, e.Type)
	require.NoError(t, e.Err)
	assert.Equal(t, "Underutilized", e.Karpenter.Reason)
	assert.Equal(t, []string{"default-new"}, names(e.Karpenter.Launched))
	assert.Equal(t, []string{"default-old"}, names(e.Karpenter.Removed))
	assert.Empty(t, e.Karpenter.Kept)
	change, unpriced := e.Karpenter.Change()
	assert.Equal(t, instancetypes.MustPriceFromDollars(0.096)-instancetypes.MustPriceFromDollars(0.192), change)
	assert.Zero(t, unpriced)
	totals := w.stop()
	assert.Equal(t, [2]int{0, 1}, totals.Events)
}

// TestWatchForbidden: a user who may read the discovery documents
// (every authenticated user may) but not list the resources gets the
// server's Forbidden as a *live.ListError at once, not informers that
// retry the list until the context ends.
func TestWatchForbidden(t *testing.T) {
	srv := apiservertest.Require(t)
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	defer cancel()
	start := time.Now()
	_, err := Watch(ctx, srv.Config(apiservertest.Nobody), WatchOptions{},
		func(kube.Objects) (Decider, error) { return &Planner{}, nil }, func(Event) error { return nil })
	t.Logf("after %v: %v", time.Since(start).Round(time.Second), err)
	assert.True(t, apierrors.IsForbidden(err), "want the server's Forbidden, got %v", err)
	var le *live.ListError
	assert.ErrorAs(t, err, &le)
	assert.Less(t, time.Since(start), 20*time.Second, "a refused list is an error at once, not a hang")
}

// TestWatchClaimCreatedWhileDeciding: a NodeClaim Karpenter creates while
// Watch builds its Decider (nodeplan shadow builds the region's catalog
// there) is an event: Start is given the snapshot the decider was given,
// not a later one that has it.
func TestWatchClaimCreatedWhileDeciding(t *testing.T) {
	srv, k := start(t)
	cat := awsCatalog(t)
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	events := make(chan Event, 10)
	done := make(chan error, 1)
	go func() {
		_, err := Watch(ctx, srv.Config(apiservertest.Reader), WatchOptions{Tick: 50 * time.Millisecond},
			func(kube.Objects) (Decider, error) {
				k.create(nodeClaimsGVR, "", strings.ReplaceAll(liveClaim, "{name: default-x1, labels: {karpenter.sh/nodepool: default}}",
					"{name: during-start, labels: {karpenter.sh/nodepool: default, node.kubernetes.io/instance-type: m5.large, "+
						"topology.kubernetes.io/zone: us-east-1a, karpenter.sh/capacity-type: on-demand}}"))
				time.Sleep(2 * time.Second) // the informer stores it meanwhile, as a catalog build takes time
				return &Planner{Catalog: cat}, nil
			},
			func(e Event) error { events <- e; return nil })
		done <- err
	}()
	select {
	case e := <-events:
		assert.Equal(t, []string{"during-start"}, names(e.Karpenter.Launched))
	case err := <-done:
		t.Fatalf("Watch ended: %v", err)
	case <-time.After(20 * time.Second):
		t.Errorf("no event for the NodeClaim created after the initial list")
	}
	cancel()
	<-done
	assert.NoError(t, k.api.Resource(nodeClaimsGVR).Delete(context.Background(), "during-start", metav1.DeleteOptions{}))
}

// TestWatchStoppedBeforeSync: a context that ends before the initial list
// is read (SIGINT, --duration) ends Watch with no error and no event, and
// the decider is not asked.
func TestWatchStoppedBeforeSync(t *testing.T) {
	srv := apiservertest.Require(t)
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	totals, err := Watch(ctx, srv.Config(apiservertest.Reader), WatchOptions{},
		func(kube.Objects) (Decider, error) { t.Error("decider called"); return &Planner{}, nil }, func(Event) error { return nil })
	assert.NoError(t, err)
	assert.Equal(t, Totals{}, totals)
}

// TestWatcherDecodes: the informers' objects are decoded with live's
// decoder: case-sensitive (a field of another case is unknown, warned of
// once), and an object that does not decode is kept unstructured and
// ends the watch with an error naming it, not dropped.
func TestWatcherDecodes(t *testing.T) {
	var warnings []string
	w := newWatcher(WatchOptions{Warn: func(s string) { warnings = append(warnings, s) }}.withWatchDefaults(), nil)
	var claims *resource
	for i := range resources {
		if resources[i].kind == "NodeClaim" {
			claims = &resources[i]
		}
	}
	u := func(y string) any {
		obj := &unstructured.Unstructured{}
		require.NoError(t, yaml.Unmarshal([]byte(y), &obj.Object))
		return obj
	}
	good := `{apiVersion: karpenter.sh/v1, kind: NodeClaim, metadata: {name: a}, status: {NodeName: n1}}`
	for range 2 {
		nc, ok := w.typed(claims, u(good)).(*karpv1.NodeClaim)
		require.True(t, ok)
		assert.Empty(t, nc.Status.NodeName, "NodeName is not nodeName")
	}
	assert.Equal(t, []string{"ignored an unknown field, which the API types nodeplan is built with lack (a newer server's field): NodeClaim status.NodeName"}, warnings)
	select {
	case err := <-w.failed:
		t.Fatalf("failed: %v", err)
	default:
	}

	bad := w.typed(claims, u(`{apiVersion: karpenter.sh/v1, kind: NodeClaim, metadata: {name: b}, spec: {expireAfter: 5}}`))
	assert.False(t, decoded(bad))
	select {
	case err := <-w.failed:
		assert.ErrorContains(t, err, "NodeClaim b: decoding a NodeClaim")
	default:
		t.Error("no error for an object that does not decode")
	}
}
