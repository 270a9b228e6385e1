package apiservertest

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// fakeAssets lays out a folder as hack/kube-binaries.sh does, with the
// parts skip leaves out missing: "stamp", "crds" or "etcd" (not executable).
func fakeAssets(t *testing.T, dir, skip string) {
	t.Helper()
	require.NoError(t, os.MkdirAll(dir, 0o755))
	if skip != "crds" {
		require.NoError(t, os.Mkdir(filepath.Join(dir, "crds"), 0o755))
	}
	require.NoError(t, os.WriteFile(filepath.Join(dir, "kube-apiserver"), nil, 0o755))
	mode := os.FileMode(0o755)
	if skip == "etcd" {
		mode = 0o644
	}
	require.NoError(t, os.WriteFile(filepath.Join(dir, "etcd"), nil, mode))
	if skip != "stamp" {
		require.NoError(t, os.WriteFile(filepath.Join(dir, stamp), nil, 0o644))
	}
}

func TestFindAssets(t *testing.T) {
	tests := []struct {
		name     string
		env      bool   // the folder is named by $NODEPLAN_KUBE_ASSETS, else it is the default
		skip     string // see fakeAssets; "all" makes no folder
		wantErr  bool
		noAssets bool // the error is errNoAssets: tests skip unless CI=true
	}{
		{name: "default complete"},
		{name: "env complete", env: true},
		{name: "default missing", skip: "all", wantErr: true, noAssets: true},
		{name: "default without stamp", skip: "stamp", wantErr: true, noAssets: true},
		{name: "env missing", env: true, skip: "all", wantErr: true},
		{name: "env without stamp", env: true, skip: "stamp", wantErr: true},
		{name: "env without crds", env: true, skip: "crds", wantErr: true},
		{name: "env etcd not executable", env: true, skip: "etcd", wantErr: true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cache := t.TempDir()
			t.Setenv("NODEPLAN_CACHE", cache)
			dir := filepath.Join(cache, "kube-"+kubeVersion)
			t.Setenv(EnvAssets, "")
			if tc.env {
				dir = filepath.Join(t.TempDir(), "assets")
				t.Setenv(EnvAssets, dir)
			}
			if tc.skip != "all" {
				fakeAssets(t, dir, tc.skip)
			}
			a, err := findAssets()
			if !tc.wantErr {
				require.NoError(t, err)
				assert.Equal(t, dir, a.dir)
				return
			}
			require.Error(t, err)
			assert.Equal(t, tc.noAssets, errors.Is(err, errNoAssets), "errors.Is(%v, errNoAssets)", err)
		})
	}
}

func TestDefaultDir(t *testing.T) {
	tests := []struct {
		name, cache, xdg, home, want string
	}{
		{name: "NODEPLAN_CACHE", cache: "/c", xdg: "/x", home: "/h", want: "/c/kube-v1.35.4"},
		{name: "XDG_CACHE_HOME", xdg: "/x", home: "/h", want: "/x/nodeplan/kube-v1.35.4"},
		{name: "HOME", home: "/h", want: "/h/.cache/nodeplan/kube-v1.35.4"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv("NODEPLAN_CACHE", tc.cache)
			t.Setenv("XDG_CACHE_HOME", tc.xdg)
			t.Setenv("HOME", tc.home)
			got, err := defaultDir()
			require.NoError(t, err)
			assert.Equal(t, tc.want, got)
		})
	}
}
