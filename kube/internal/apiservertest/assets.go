package apiservertest

import (
	_ "embed"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
)

// EnvAssets names the environment variable that points at the folder
// hack/kube-binaries.sh builds.
const EnvAssets = "NODEPLAN_KUBE_ASSETS"

// versionsFile is versions.env: the name=version lines that
// hack/kube-binaries.sh reads too, the one place the versions are written.
//
//go:embed versions.env
var versionsFile string

// stamp is the file hack/kube-binaries.sh writes last into a complete
// folder; it lists the pins and etcd's version, one name=version a line.
const stamp = ".complete"

// pinLine is the form of a versions.env line; the script checks the same.
var pinLine = regexp.MustCompile(`^[a-z_]+=v[0-9A-Za-z.+-]+$`)

// pins returns the name=version lines of text (versions.env), in order,
// or an error naming the first line of another form.
func pins(text string) ([]string, error) {
	var out []string
	for i, line := range strings.Split(text, "\n") {
		switch {
		case line == "" || strings.HasPrefix(line, "#"):
		case pinLine.MatchString(line):
			out = append(out, line)
		default:
			return nil, fmt.Errorf("apiservertest: versions.env line %d: %q is not name=version", i+1, line)
		}
	}
	if len(out) == 0 {
		return nil, errors.New("apiservertest: versions.env pins no version")
	}
	return out, nil
}

// folderName is the name hack/kube-binaries.sh gives its folder: every
// pin, its = replaced by -, joined by -.
func folderName(pins []string) string {
	return strings.ReplaceAll(strings.Join(pins, "-"), "=", "-")
}

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
	pins, err := pins(versionsFile)
	if err != nil {
		return assets{}, err
	}
	if dir := os.Getenv(EnvAssets); dir != "" {
		a := assets{dir: dir}
		if err := a.check(pins); err != nil {
			return assets{}, fmt.Errorf("apiservertest: $%s=%s: %w", EnvAssets, dir, err)
		}
		return a, nil
	}
	dir, err := defaultDir(pins)
	if err != nil {
		return assets{}, fmt.Errorf("%w ($%s is unset): %w", errNoAssets, EnvAssets, err)
	}
	a := assets{dir: dir}
	if err := a.check(pins); err != nil {
		return assets{}, fmt.Errorf("%w ($%s is unset and %s: %w)", errNoAssets, EnvAssets, dir, err)
	}
	return a, nil
}

// defaultDir is hack/kube-binaries.sh's folder for pins:
// ${NODEPLAN_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/nodeplan}/[folderName].
func defaultDir(pins []string) (string, error) {
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
	return filepath.Join(cache, folderName(pins)), nil
}

// check reports whether the folder is complete and of pins: a stamp that
// lists every pin, both binaries executable and a crds folder.
func (a assets) check(pins []string) error {
	data, err := os.ReadFile(filepath.Join(a.dir, stamp))
	if errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("no %s: hack/kube-binaries.sh has not completed it", stamp)
	} else if err != nil {
		return err
	}
	lines := strings.Split(string(data), "\n")
	for _, pin := range pins {
		if !slices.Contains(lines, pin) {
			return fmt.Errorf("%s does not list %s (versions.env): built for other versions; run hack/kube-binaries.sh", stamp, pin)
		}
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
