package apiservertest

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// EnvAssets names the environment variable that points at the folder
// hack/kube-binaries.sh builds.
const EnvAssets = "NODEPLAN_KUBE_ASSETS"

// kubeVersion is the Kubernetes release hack/kube-binaries.sh builds; the
// default folder is named after it.
const kubeVersion = "v1.35.4"

// stamp is the file hack/kube-binaries.sh writes last into a complete
// folder.
const stamp = ".complete"

// assets is a complete folder of binaries and CRDs.
type assets struct{ dir string }

func (a assets) apiserver() string { return filepath.Join(a.dir, "kube-apiserver") }
func (a assets) etcd() string      { return filepath.Join(a.dir, "etcd") }
func (a assets) crds() string      { return filepath.Join(a.dir, "crds") }

// errNoAssets reports that neither $NODEPLAN_KUBE_ASSETS nor the default
// folder holds the binaries.
var errNoAssets = errors.New("apiservertest: kube-apiserver and etcd not found")

// findAssets returns the folder $NODEPLAN_KUBE_ASSETS names, which must be
// complete, else the default folder if it is complete, else an error
// wrapping errNoAssets.
func findAssets() (assets, error) {
	if dir := os.Getenv(EnvAssets); dir != "" {
		a := assets{dir: dir}
		if err := a.check(); err != nil {
			return assets{}, fmt.Errorf("apiservertest: $%s=%s: %w", EnvAssets, dir, err)
		}
		return a, nil
	}
	dir, err := defaultDir()
	if err != nil {
		return assets{}, fmt.Errorf("%w ($%s is unset): %w", errNoAssets, EnvAssets, err)
	}
	a := assets{dir: dir}
	if err := a.check(); err != nil {
		return assets{}, fmt.Errorf("%w ($%s is unset and %s: %w)", errNoAssets, EnvAssets, dir, err)
	}
	return a, nil
}

// defaultDir is hack/kube-binaries.sh's folder:
// ${NODEPLAN_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/nodeplan}/kube-v1.35.4.
func defaultDir() (string, error) {
	cache := os.Getenv("NODEPLAN_CACHE")
	if cache == "" {
		base := os.Getenv("XDG_CACHE_HOME")
		if base == "" {
			home, err := os.UserHomeDir()
			if err != nil {
				return "", err
			}
			base = filepath.Join(home, ".cache")
		}
		cache = filepath.Join(base, "nodeplan")
	}
	return filepath.Join(cache, "kube-"+kubeVersion), nil
}

// check reports whether the folder is complete: the stamp, both binaries
// executable and a crds folder.
func (a assets) check() error {
	if _, err := os.Stat(filepath.Join(a.dir, stamp)); errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("no %s: hack/kube-binaries.sh has not completed it", stamp)
	} else if err != nil {
		return err
	}
	for _, bin := range []string{a.apiserver(), a.etcd()} {
		info, err := os.Stat(bin)
		if err != nil {
			return err
		}
		if info.Mode()&0o111 == 0 {
			return fmt.Errorf("%s is not executable", bin)
		}
	}
	if _, err := os.Stat(a.crds()); err != nil {
		return err
	}
	return nil
}
