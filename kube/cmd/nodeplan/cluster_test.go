package main

import (
	"encoding/json"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"sigs.k8s.io/yaml"
)

// isolate keeps every test from reading the machine's cluster: without -f
// a command reads the kubeconfig, and no test may find a real one. Each
// TestMain calls it first.
func isolate() {
	os.Setenv("KUBECONFIG", filepath.Join(os.TempDir(), "nodeplan-tests-have-no-kubeconfig"))
	os.Unsetenv("KUBERNETES_SERVICE_HOST")
}

// writeKubeconfig writes a kubeconfig for server (context "test",
// namespace shop) and returns its path.
func writeKubeconfig(t *testing.T, server string) string {
	t.Helper()
	cfg := "apiVersion: v1\nkind: Config\ncurrent-context: test\n" +
		"clusters: [{name: c, cluster: {server: \"" + server + "\"}}]\n" +
		"users: [{name: u, user: {token: t}}]\n" +
		"contexts: [{name: test, context: {cluster: c, user: u, namespace: shop}}]\n"
	path := filepath.Join(t.TempDir(), "kubeconfig")
	require.NoError(t, os.WriteFile(path, []byte(cfg), 0o600))
	return path
}

// fakeCluster serves, as lists, a NodePool and pods given as YAML or
// JSON manifests, every other collection empty; a path in forbid answers
// 403 with the server's message.
func fakeCluster(t *testing.T, pools []string, pods []string, forbid string) string {
	t.Helper()
	lists := map[string][]any{"/apis/karpenter.sh/v1/nodepools": decode(t, pools), "/api/v1/pods": decode(t, pods)}
	s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		if r.URL.Path == forbid {
			w.WriteHeader(http.StatusForbidden)
			w.Write([]byte(`{"kind":"Status","apiVersion":"v1","status":"Failure","reason":"Forbidden","code":403,` +
				`"message":"pods is forbidden: User \"nobody\" cannot list resource \"pods\" in API group \"\" at the cluster scope"}`))
			return
		}
		data, err := yaml.Marshal(map[string]any{"kind": "List", "apiVersion": "v1", "metadata": map[string]any{}, "items": lists[r.URL.Path]})
		require.NoError(t, err)
		json, err := yaml.YAMLToJSON(data)
		require.NoError(t, err)
		w.Write(json)
	}))
	t.Cleanup(s.Close)
	return writeKubeconfig(t, s.URL)
}

func decode(t *testing.T, docs []string) []any {
	out := []any{}
	for _, d := range docs {
		var v any
		require.NoError(t, yaml.Unmarshal([]byte(d), &v))
		out = append(out, v)
	}
	return out
}

// TestClusterFlags: without -f a command reads the cluster the kubeconfig
// names; the cluster flags beside -f, and -n beside -A, are errors; a
// refused or unreachable API server is exit status 2 with its message.
func TestClusterFlags(t *testing.T) {
	ok := fakeCluster(t, []string{poolYAML}, []string{podJSON("a")}, "")
	forbidden := fakeCluster(t, []string{poolYAML}, nil, "/api/v1/pods")
	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	closed := writeKubeconfig(t, "http://"+l.Addr().String())
	require.NoError(t, l.Close())
	pod := filepath.Join(t.TempDir(), "pod.json")
	require.NoError(t, os.WriteFile(pod, []byte(podJSON("a")), 0o600))
	tests := []cliCase{
		{"provision reads the cluster", []string{"provision", "--kubeconfig", ok, "-o", "json"}, exitOK, `"newNodes": 1`, ""},
		{"-A", []string{"provision", "--kubeconfig", ok, "-A", "-o", "json"}, exitOK, `"default/a"`, ""},
		{"consolidate reads the cluster", []string{"consolidate", "--kubeconfig", ok, "--now", "2025-01-01T00:00:00Z"}, exitOK, "", ""},
		{"drift reads the cluster", []string{"drift", "--kubeconfig", ok, "--now", "2025-01-01T00:00:00Z"}, exitOK, "", ""},
		{"$KUBECONFIG", []string{"provision", "-o", "json"}, exitOK, `"newNodes": 1`, ""},
		{"an unknown context", []string{"provision", "--kubeconfig", ok, "--context", "prod"}, exitBadInput, "", `context "prod" does not exist`},
		{"forbidden", []string{"provision", "--kubeconfig", forbidden}, exitBadInput, "",
			`nodeplan provision: listing pods (every namespace): pods is forbidden: User "nobody" cannot list resource "pods"`},
		{"unreachable", []string{"drift", "--kubeconfig", closed, "--request-timeout", "5s"}, exitBadInput, "", "connection refused"},
		{"--kubeconfig with -f", []string{"provision", "-f", pod, "--kubeconfig", ok}, exitBadInput, "", "--kubeconfig reads a cluster and -f reads manifests"},
		{"-n with a file", []string{"consolidate", pod, "-n", "shop"}, exitBadInput, "", "-n reads a cluster and -f reads manifests"},
		{"--request-timeout with -f", []string{"provision", "-f", pod, "--request-timeout", "1s"}, exitBadInput, "", "--request-timeout reads a cluster"},
		{"-n and -A", []string{"provision", "--kubeconfig", ok, "-n", "shop", "-A"}, exitBadInput, "", "-n and -A"},
		{"a bad namespace", []string{"provision", "--kubeconfig", ok, "-n", "Shop!"}, exitBadInput, "", `namespace "Shop!"`},
		{"help names the flags", []string{"provision", "--help"}, exitOK, "-request-timeout duration", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if strings.HasPrefix(tc.name, "$KUBECONFIG") {
				t.Setenv("KUBECONFIG", ok)
			}
			out, errs := check(t, tc.args, tc.code, tc.stdout, tc.stderr)
			assert.NotContains(t, out+errs, "goroutine", "no stack")
		})
	}
}

// TestLiveNowIsTheClock: read live, consolidate, drift and diff decide at
// the clock's now, not at the newest creationTimestamp as for files: a
// cluster where nothing was created for a day is decided now
// (expireAfter, consolidateAfter and budget schedules count from it).
func TestLiveNowIsTheClock(t *testing.T) {
	old := `{"apiVersion":"v1","kind":"Pod","metadata":{"name":"a","namespace":"default","creationTimestamp":"2020-01-01T00:00:00Z"},` +
		`"spec":{"containers":[{"name":"c","resources":{"requests":{"cpu":"1"}}}]}}`
	kc := fakeCluster(t, []string{poolYAML}, []string{old}, "")
	for _, cmd := range []string{"consolidate", "drift", "diff"} {
		out, _ := check(t, []string{cmd, "--kubeconfig", kc, "-o", "json"}, exitOK, "", "")
		var r struct{ Now, NowFrom string }
		require.NoError(t, json.Unmarshal([]byte(out), &r), cmd)
		now, err := time.Parse(time.RFC3339, r.Now)
		require.NoError(t, err, cmd)
		assert.WithinDuration(t, time.Now(), now, time.Minute, "%s decided at %s (%s)", cmd, r.Now, r.NowFrom)
		assert.Equal(t, "clock", r.NowFrom, cmd)
	}
}
