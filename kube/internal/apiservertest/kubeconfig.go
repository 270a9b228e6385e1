//go:build unix

package apiservertest

import (
	"os"
	"path/filepath"
	"testing"

	"sigs.k8s.io/yaml"
)

// Kubeconfig writes a kubeconfig file for user (see [Server.Config]) into
// t.TempDir() and returns its path. Its one context, "apiservertest", is
// the current one; it carries the server's address, the CA of its serving
// certificate and the user's token.
func (s *Server) Kubeconfig(t testing.TB, user string) string {
	t.Helper()
	config := s.Config(user)
	const name = "apiservertest"
	kubeconfig := map[string]any{
		"apiVersion":      "v1",
		"kind":            "Config",
		"current-context": name,
		"clusters": []any{map[string]any{"name": name, "cluster": map[string]any{
			"server":                     config.Host,
			"certificate-authority-data": config.CAData, // []byte marshals as base64
		}}},
		"users": []any{map[string]any{"name": user, "user": map[string]any{"token": config.BearerToken}}},
		"contexts": []any{map[string]any{"name": name, "context": map[string]any{
			"cluster": name,
			"user":    user,
		}}},
	}
	data, err := yaml.Marshal(kubeconfig)
	if err != nil {
		t.Fatalf("apiservertest: kubeconfig: %v", err)
	}
	path := filepath.Join(t.TempDir(), "kubeconfig")
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatalf("apiservertest: kubeconfig: %v", err)
	}
	return path
}
