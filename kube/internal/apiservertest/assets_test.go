package apiservertest

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// testPins are versions.env's pins.
func testPins(t *testing.T) []string {
	t.Helper()
	pins, err := pins(versionsFile)
	require.NoError(t, err)
	return pins
}

// fakeAssets lays out a folder as hack/kube-binaries.sh does, with the
// parts skip leaves out missing: "stamp", "crds" or "etcd" (not
// executable); "stale" writes the stamp of other Karpenter versions.
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
	text := strings.Join(testPins(t), "\n") + "\netcd=v3.6.5\n"
	if skip == "stale" {
		text = strings.ReplaceAll(text, "karpenter=", "karpenter=v0.0.1-") // karpenter=v0.0.1-v1.14.1
	}
	if skip != "stamp" {
		require.NoError(t, os.WriteFile(filepath.Join(dir, stamp), []byte(text), 0o644))
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
		{name: "default stale stamp", skip: "stale", wantErr: true, noAssets: true},
		{name: "env without stamp", env: true, skip: "stamp", wantErr: true},
		{name: "env stale stamp", env: true, skip: "stale", wantErr: true},
		{name: "env without crds", env: true, skip: "crds", wantErr: true},
		{name: "env etcd not executable", env: true, skip: "etcd", wantErr: true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cache := t.TempDir()
			t.Setenv("NODEPLAN_CACHE", cache)
			dir := filepath.Join(cache, folderName(testPins(t)))
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
		{name: "NODEPLAN_CACHE", cache: "/c", xdg: "/x", home: "/h", want: "/c/kube-v1.35.4-karpenter-v1.14.1-aws-v1.14.1"},
		{name: "XDG_CACHE_HOME", xdg: "/x", home: "/h", want: "/x/nodeplan/kube-v1.35.4-karpenter-v1.14.1-aws-v1.14.1"},
		{name: "HOME", home: "/h", want: "/h/.cache/nodeplan/kube-v1.35.4-karpenter-v1.14.1-aws-v1.14.1"},
	}
	pins := []string{"kube=v1.35.4", "karpenter=v1.14.1", "aws=v1.14.1"}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv("NODEPLAN_CACHE", tc.cache)
			t.Setenv("XDG_CACHE_HOME", tc.xdg)
			t.Setenv("HOME", tc.home)
			got, err := defaultDir(pins)
			require.NoError(t, err)
			assert.Equal(t, tc.want, got)
		})
	}
}

// TestScriptDir checks that hack/kube-binaries.sh names the folder that
// defaultDir expects, for versions.env as committed.
func TestScriptDir(t *testing.T) {
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("no bash:", err)
	}
	cache := t.TempDir()
	t.Setenv("NODEPLAN_CACHE", cache)
	cmd := exec.Command(bash, filepath.Join("..", "..", "..", "hack", "kube-binaries.sh"), "--dir")
	out, err := cmd.Output()
	require.NoError(t, err)
	want, err := defaultDir(testPins(t))
	require.NoError(t, err)
	assert.Equal(t, want+"\n", string(out))
}

func TestPins(t *testing.T) {
	tests := []struct {
		name, text string
		want       []string // nil: an error
	}{
		{name: "committed", text: versionsFile, want: []string{"kube=v1.35.4", "karpenter=v1.14.1", "aws=v1.14.1"}},
		{name: "comments and blanks", text: "# c\n\nkube=v1\n", want: []string{"kube=v1"}},
		{name: "quoted", text: "kube=\"v1.35.4\"\n"},
		{name: "space", text: "kube = v1.35.4\n"},
		{name: "expansion", text: "kube=v$minor\n"},
		{name: "no v", text: "kube=1.35.4\n"},
		{name: "empty", text: "# nothing\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := pins(tc.text)
			if tc.want == nil {
				assert.Error(t, err)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tc.want, got)
		})
	}
}
