package main

import (
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/nodeplan/nodeplan/kube"
)

// manifestExtensions are the files -f DIR reads, as kubectl's.
var manifestExtensions = []string{".yaml", ".yml", ".json"}

// loadCluster reads the manifests of c (files, directories, stdin) and
// loads them, or without any, the cluster c names. An input without any
// object is kube.ErrNoObjects.
func loadCluster(c config, stdin io.Reader) (kube.Cluster, error) {
	if len(c.files) == 0 {
		return readCluster(c.cluster)
	}
	sources, err := read(c.files, c.recursive, stdin)
	if err != nil {
		return kube.Cluster{}, err
	}
	return kube.Load(sources...)
}

// read returns the sources named by the -f arguments, in order: "-" is
// stdin, a file is read whatever its name, a directory contributes its
// *.yaml, *.yml and *.json files in name order, and with recursive those
// of its subdirectories too, depth first in name order (as kubectl -R).
func read(names []string, recursive bool, stdin io.Reader) ([]kube.Source, error) {
	var out []kube.Source
	for _, name := range names {
		var err error
		if out, err = readInput(out, name, recursive, stdin); err != nil {
			return nil, err
		}
	}
	return out, nil
}

func readInput(out []kube.Source, name string, recursive bool, stdin io.Reader) ([]kube.Source, error) {
	if name == "-" {
		data, err := io.ReadAll(stdin)
		if err != nil {
			return out, fmt.Errorf("stdin: %w", err)
		}
		return append(out, kube.Source{Name: "stdin", Data: data}), nil
	}
	info, err := os.Stat(name)
	if err != nil {
		return out, err
	}
	if !info.IsDir() {
		return appendFile(out, name)
	}
	paths, err := manifestFiles(name, recursive)
	if err != nil {
		return out, err
	}
	for _, p := range paths {
		if out, err = appendFile(out, p); err != nil {
			return out, err
		}
	}
	return out, nil
}

func appendFile(out []kube.Source, path string) ([]kube.Source, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return out, err
	}
	return append(out, kube.Source{Name: path, Data: data}), nil
}

// manifestFiles lists the manifest files of dir in lexical order, those of
// its subdirectories only when recursive. A directory without any is an
// error that says what was looked for.
func manifestFiles(dir string, recursive bool) ([]string, error) {
	var paths []string
	subdirs := false
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		switch {
		case err != nil:
			return err
		case d.IsDir() && path != dir && !recursive:
			subdirs = true
			return fs.SkipDir
		case !d.IsDir() && isManifest(path):
			paths = append(paths, path)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if len(paths) == 0 {
		hint := ""
		if subdirs {
			hint = " (-R reads its subdirectories)"
		}
		return nil, fmt.Errorf("no objects in %s: the directory has no %s files%s", dir, strings.Join(manifestExtensions, ", "), hint)
	}
	return paths, nil
}

func isManifest(path string) bool {
	return slices.Contains(manifestExtensions, strings.ToLower(filepath.Ext(path)))
}
