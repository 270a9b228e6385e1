package live

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const kubeconfig = `apiVersion: v1
kind: Config
current-context: one
clusters:
- name: c1
  cluster: {server: "https://one.example:6443"}
- name: c2
  cluster: {server: "https://two.example:6443"}
users:
- name: u
  user: {token: secret}
contexts:
- name: one
  context: {cluster: c1, user: u, namespace: shop}
- name: two
  context: {cluster: c2, user: u}
`

// TestConfig: kubectl's rules: --kubeconfig over $KUBECONFIG, --context
// over the current context, the context's namespace ("default" when it
// names none), the request timeout; no configuration at all is
// ErrNoConfig.
func TestConfig(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "config")
	require.NoError(t, os.WriteFile(path, []byte(kubeconfig), 0o600))
	t.Setenv("KUBERNETES_SERVICE_HOST", "") // not in a pod
	t.Setenv("KUBECONFIG", path)
	tests := []struct {
		name       string
		o          ConfigOptions
		host, ns   string
		wantErrMsg string
	}{
		{"$KUBECONFIG, current context", ConfigOptions{Timeout: time.Minute}, "https://one.example:6443", "shop", ""},
		{"--context", ConfigOptions{Context: "two"}, "https://two.example:6443", "default", ""},
		{"--kubeconfig", ConfigOptions{Kubeconfig: path, Context: "two"}, "https://two.example:6443", "default", ""},
		{"an unknown context", ConfigOptions{Context: "three"}, "", "", `context "three" does not exist`},
		{"a missing --kubeconfig", ConfigOptions{Kubeconfig: filepath.Join(dir, "nope")}, "", "", "nope"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cfg, ns, err := Config(tc.o)
			if tc.wantErrMsg != "" {
				assert.ErrorContains(t, err, tc.wantErrMsg)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tc.host, cfg.Host)
			assert.Equal(t, tc.ns, ns)
			assert.Equal(t, tc.o.Timeout, cfg.Timeout)
			assert.Equal(t, "secret", cfg.BearerToken)
		})
	}
	t.Setenv("KUBECONFIG", filepath.Join(dir, "absent"))
	_, _, err := Config(ConfigOptions{})
	assert.ErrorIs(t, err, ErrNoConfig)
}
