//go:build unix

package apiservertest

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

// karpenterModule is the Go module whose pkg/apis/crds the server's CRDs
// are topped up from.
const karpenterModule = "sigs.k8s.io/karpenter"

// moduleCRDs returns the CRDs of Karpenter's module, at the version
// versions.env pins, that have lacks by name: the CRDs a Karpenter
// release added after hack/kube-binaries.sh built its folder
// (autoscaling.x-k8s.io's CapacityBuffer, for one). The module is the one
// the kube module's go.mod requires, found in the module cache with `go
// list -m`, so the binary folder is neither rebuilt nor changed. A module
// that cannot be found, or is not at the pinned version, is an error: the
// server does not start, and the live tests fail (under CI=true as
// elsewhere) rather than run without a CRD.
func moduleCRDs(have []*unstructured.Unstructured) ([]*unstructured.Unstructured, error) {
	dir, err := moduleDir()
	if err != nil {
		return nil, err
	}
	all, err := readCRDs(filepath.Join(dir, "pkg", "apis", "crds"))
	if err != nil {
		return nil, err
	}
	known := map[string]bool{}
	for _, crd := range have {
		known[crd.GetName()] = true
	}
	var out []*unstructured.Unstructured
	for _, crd := range all {
		if !known[crd.GetName()] {
			out = append(out, crd)
		}
	}
	return out, nil
}

// moduleDir is the folder of Karpenter's module at the pinned version.
func moduleDir() (string, error) {
	pins, err := pins(versionsFile)
	if err != nil {
		return "", err
	}
	want := ""
	for _, p := range pins {
		if v, ok := strings.CutPrefix(p, "karpenter="); ok {
			want = v
		}
	}
	if want == "" {
		return "", errors.New("apiservertest: versions.env pins no karpenter version")
	}
	cmd := exec.Command(goCommand(), "list", "-m", "-f", "{{.Version}} {{.Dir}}", karpenterModule)
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("apiservertest: finding the CRDs of %s: go list -m: %w", karpenterModule, err)
	}
	version, dir, _ := strings.Cut(strings.TrimSpace(string(out)), " ")
	switch {
	case version != want:
		return "", fmt.Errorf("apiservertest: the kube module requires %s %s, but versions.env pins %s", karpenterModule, version, want)
	case dir == "":
		return "", fmt.Errorf("apiservertest: %s %s is not in the module cache (go mod download %s@%s)", karpenterModule, version, karpenterModule, version)
	}
	return dir, nil
}

// goCommand is the go command of the toolchain that built the test, else
// the one on $PATH.
func goCommand() string {
	if goroot := runtime.GOROOT(); goroot != "" {
		if p := filepath.Join(goroot, "bin", "go"); isFile(p) {
			return p
		}
	}
	return "go"
}

func isFile(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.Mode().IsRegular()
}
