package apiservertest_test

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"
	"sigs.k8s.io/yaml"

	"github.com/nodeplan/nodeplan/kube/internal/apiservertest"
)

func TestMain(m *testing.M) { os.Exit(apiservertest.Main(m)) }

var (
	nodePools      = schema.GroupVersionResource{Group: "karpenter.sh", Version: "v1", Resource: "nodepools"}
	ec2NodeClasses = schema.GroupVersionResource{Group: "karpenter.k8s.aws", Version: "v1", Resource: "ec2nodeclasses"}
	pods           = schema.GroupVersionResource{Version: "v1", Resource: "pods"}
	clusterRoles   = schema.GroupVersionResource{Group: "rbac.authorization.k8s.io", Version: "v1", Resource: "clusterroles"}
	roleBindings   = schema.GroupVersionResource{Group: "rbac.authorization.k8s.io", Version: "v1", Resource: "clusterrolebindings"}
)

func client(t *testing.T, config *rest.Config) dynamic.Interface {
	t.Helper()
	c, err := dynamic.NewForConfig(config)
	require.NoError(t, err)
	return c
}

func object(t *testing.T, manifest string) *unstructured.Unstructured {
	t.Helper()
	obj := &unstructured.Unstructured{}
	require.NoError(t, yaml.Unmarshal([]byte(manifest), &obj.Object))
	return obj
}

func names(list *unstructured.UnstructuredList) []string {
	var out []string
	for _, item := range list.Items {
		out = append(out, item.GetName())
	}
	return out
}

const ec2NodeClass = `
apiVersion: karpenter.k8s.aws/v1
kind: EC2NodeClass
metadata:
  name: default
spec:
  role: KarpenterNodeRole-test
  amiSelectorTerms:
    - alias: al2023@latest
  subnetSelectorTerms:
    - tags: {karpenter.sh/discovery: test}
  securityGroupSelectorTerms:
    - tags: {karpenter.sh/discovery: test}
`

const nodePool = `
apiVersion: karpenter.sh/v1
kind: NodePool
metadata:
  name: general
spec:
  template:
    spec:
      nodeClassRef: {group: karpenter.k8s.aws, kind: EC2NodeClass, name: default}
      requirements:
        - key: karpenter.sh/capacity-type
          operator: In
          values: ["spot", "on-demand"]
  limits:
    cpu: "1000"
`

// TestKarpenterResources writes an EC2NodeClass and a NodePool through the
// CRDs Main installed and lists them back, defaulted by the CRD schemas.
func TestKarpenterResources(t *testing.T) {
	admin := client(t, apiservertest.Require(t).Config(apiservertest.Admin))
	ctx := t.Context()
	for _, tc := range []struct {
		resource schema.GroupVersionResource
		manifest string
	}{{ec2NodeClasses, ec2NodeClass}, {nodePools, nodePool}} {
		_, err := admin.Resource(tc.resource).Create(ctx, object(t, tc.manifest), metav1.CreateOptions{})
		require.NoError(t, err, tc.resource.Resource)
	}
	classes, err := admin.Resource(ec2NodeClasses).List(ctx, metav1.ListOptions{})
	require.NoError(t, err)
	assert.Equal(t, []string{"default"}, names(classes))
	pools, err := admin.Resource(nodePools).List(ctx, metav1.ListOptions{})
	require.NoError(t, err)
	require.Equal(t, []string{"general"}, names(pools))
	policy, _, _ := unstructured.NestedString(pools.Items[0].Object, "spec", "disruption", "consolidationPolicy")
	assert.Equal(t, "WhenEmptyOrUnderutilized", policy, "the CRD's default")
}

// TestForbidden checks that authorization is RBAC: a user without a
// binding may not list pods, the admin may.
func TestForbidden(t *testing.T) {
	srv := apiservertest.Require(t)
	_, err := client(t, srv.Config(apiservertest.Nobody)).Resource(pods).Namespace("default").List(t.Context(), metav1.ListOptions{})
	assert.True(t, apierrors.IsForbidden(err), "nobody lists pods: %v", err)
	_, err = client(t, srv.Config(apiservertest.Admin)).Resource(pods).Namespace("default").List(t.Context(), metav1.ListOptions{})
	assert.NoError(t, err, "admin lists pods")
}

// TestReaderBinding binds Reader to a role that reads pods; it may list
// pods once the binding takes effect, and still not delete them.
func TestReaderBinding(t *testing.T) {
	srv := apiservertest.Require(t)
	admin := client(t, srv.Config(apiservertest.Admin))
	reader := client(t, srv.Config(apiservertest.Reader))
	ctx := t.Context()
	_, err := reader.Resource(pods).List(ctx, metav1.ListOptions{})
	require.True(t, apierrors.IsForbidden(err), "reader before its binding: %v", err)

	_, err = admin.Resource(clusterRoles).Create(ctx, object(t, `
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata: {name: pod-reader}
rules:
  - {apiGroups: [""], resources: [pods], verbs: [get, list, watch]}
`), metav1.CreateOptions{})
	require.NoError(t, err)
	_, err = admin.Resource(roleBindings).Create(ctx, object(t, `
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata: {name: reader-pod-reader}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: pod-reader}
subjects:
  - {apiGroup: rbac.authorization.k8s.io, kind: User, name: reader}
`), metav1.CreateOptions{})
	require.NoError(t, err)

	require.EventuallyWithT(t, func(c *assert.CollectT) {
		_, err := reader.Resource(pods).List(ctx, metav1.ListOptions{})
		assert.NoError(c, err)
	}, 30*time.Second, 100*time.Millisecond, "reader lists pods after its binding")
	err = reader.Resource(pods).Namespace("default").DeleteCollection(ctx, metav1.DeleteOptions{}, metav1.ListOptions{})
	assert.True(t, apierrors.IsForbidden(err), "reader deletes pods: %v", err)
}

// TestPodAdmitted checks a pod without a service-account token is
// admitted (the ServiceAccount plugin is off) and stays pending: nothing
// schedules it.
func TestPodAdmitted(t *testing.T) {
	admin := client(t, apiservertest.Require(t).Config(apiservertest.Admin))
	namespaces := schema.GroupVersionResource{Version: "v1", Resource: "namespaces"}
	_, err := admin.Resource(namespaces).Create(t.Context(), object(t, `{apiVersion: v1, kind: Namespace, metadata: {name: pod-admitted}}`), metav1.CreateOptions{})
	require.NoError(t, err)
	created, err := admin.Resource(pods).Namespace("pod-admitted").Create(t.Context(), object(t, `
apiVersion: v1
kind: Pod
metadata: {name: pending}
spec:
  containers:
    - {name: app, image: registry.k8s.io/pause:3.10, resources: {requests: {cpu: 500m}}}
`), metav1.CreateOptions{})
	require.NoError(t, err)
	node, _, _ := unstructured.NestedString(created.Object, "spec", "nodeName")
	assert.Empty(t, node)
}

// TestKubeconfig reads the file Kubeconfig writes as kubectl would and
// talks to the server through it, checking its certificate.
func TestKubeconfig(t *testing.T) {
	srv := apiservertest.Require(t)
	path := srv.Kubeconfig(t, apiservertest.Admin)
	config, err := clientcmd.BuildConfigFromFlags("", path)
	require.NoError(t, err)
	assert.Equal(t, srv.URL(), config.Host)
	assert.False(t, config.Insecure)
	crds := schema.GroupVersionResource{Group: "apiextensions.k8s.io", Version: "v1", Resource: "customresourcedefinitions"}
	list, err := client(t, config).Resource(crds).List(t.Context(), metav1.ListOptions{})
	require.NoError(t, err)
	assert.True(t, slices.Contains(names(list), "nodepools.karpenter.sh"), "CRDs %v", names(list))
}

// TestMainWithoutBinaries runs this test binary again without binaries:
// under CI=true it must fail before any test, otherwise the live tests
// skip with a message saying how to build the binaries.
func TestMainWithoutBinaries(t *testing.T) {
	if os.Getenv("APISERVERTEST_CHILD") != "" {
		return // a child runs one other test
	}
	tests := []struct {
		ci       string
		wantFail bool
		want     string
	}{
		{ci: "true", wantFail: true, want: "never skip under CI=true"},
		{ci: "", want: "--- SKIP: TestForbidden"},
	}
	for _, tc := range tests {
		t.Run("CI="+tc.ci, func(t *testing.T) {
			cmd := exec.CommandContext(t.Context(), os.Args[0], "-test.run=^TestForbidden$", "-test.v")
			cmd.Env = append(os.Environ(), "APISERVERTEST_CHILD=1", "CI="+tc.ci,
				apiservertest.EnvAssets+"=", "NODEPLAN_CACHE="+t.TempDir())
			out, err := cmd.CombinedOutput()
			assert.Equal(t, tc.wantFail, err != nil, "exit: %v\n%s", err, out)
			assert.Contains(t, string(out), tc.want)
			assert.Contains(t, string(out), "hack/kube-binaries.sh")
		})
	}
}

// TestInterrupt runs this test binary again with its own server and
// signals it once the server is up, as Ctrl-C or a killing test runner
// would: it must stop the server and remove its temporary folder.
func TestInterrupt(t *testing.T) {
	apiservertest.Require(t) // skip without binaries, as the child would
	if os.Getenv("APISERVERTEST_CHILD") == "interrupt" {
		fmt.Println("server up")
		time.Sleep(time.Hour) // until the parent signals
		return
	}
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
		t.Run(sig.String(), func(t *testing.T) {
			tmp := t.TempDir()
			cmd := exec.CommandContext(t.Context(), os.Args[0], "-test.run=^TestInterrupt$", "-test.v")
			cmd.Env = append(os.Environ(), "APISERVERTEST_CHILD=interrupt", "TMPDIR="+tmp)
			var stderr strings.Builder
			cmd.Stderr = &stderr
			stdout, err := cmd.StdoutPipe()
			require.NoError(t, err)
			require.NoError(t, cmd.Start())
			up := false
			for lines := bufio.NewScanner(stdout); !up && lines.Scan(); {
				up = lines.Text() == "server up"
			}
			require.True(t, up, "the child's server did not come up:\n%s", stderr.String())
			folders, err := filepath.Glob(filepath.Join(tmp, "nodeplan-apiserver-*"))
			require.NoError(t, err)
			require.Len(t, folders, 1, "the child's temporary folder")

			require.NoError(t, cmd.Process.Signal(sig))
			err = cmd.Wait()
			require.Error(t, err, "the child ends with the signal")
			assert.NoDirExists(t, folders[0], "child's stderr:\n%s", stderr.String())
			assert.Contains(t, stderr.String(), "stopped the API server")
		})
	}
}
