package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/nodeplan/nodeplan/kube"
	"github.com/nodeplan/nodeplan/kube/live"
)

// defaultRequestTimeout is --request-timeout's default.
const defaultRequestTimeout = time.Minute

// clusterConfig names the cluster a command reads when no manifest is
// given.
type clusterConfig struct {
	kubeconfig, context string
	namespace           string
	allNamespaces       bool
	timeout             time.Duration
	// progress receives the read's progress lines (the command's stderr).
	progress io.Writer
}

// checkSource rejects the cluster flags beside manifests, and -n beside -A.
func checkSource(fs *flag.FlagSet, c *config) error {
	var set []string
	fs.Visit(func(f *flag.Flag) {
		if slices.Contains(clusterFlagNames, f.Name) {
			set = append(set, strings.Repeat("-", min(len(f.Name), 2))+f.Name) // -n, --namespace
		}
	})
	switch {
	case len(set) > 0 && len(c.files) > 0:
		return fmt.Errorf("%s reads a cluster and -f reads manifests: give one or the other", set[0])
	case c.cluster.namespace != "" && c.cluster.allNamespaces:
		return errors.New("-n and -A: give one or the other")
	}
	return nil
}

// readCluster reads the cluster c names and builds its snapshot; the
// read's warnings come first among the snapshot's.
func readCluster(c clusterConfig) (kube.Cluster, error) {
	cfg, _, err := live.Config(live.ConfigOptions{Kubeconfig: c.kubeconfig, Context: c.context, Timeout: c.timeout})
	if errors.Is(err, live.ErrNoConfig) {
		return kube.Cluster{}, fmt.Errorf("no manifest given (-f FILE or DIR) and %w", err)
	}
	if err != nil {
		return kube.Cluster{}, err
	}
	var warnings []string
	objs, err := live.Read(context.Background(), cfg, live.Options{Namespace: c.namespace, Progress: c.progress,
		Warn: func(w string) { warnings = append(warnings, w) }})
	if err != nil {
		return kube.Cluster{}, err
	}
	cluster, err := kube.FromObjects(objs)
	if err != nil {
		return kube.Cluster{}, err
	}
	cluster.Warnings = append(warnings, cluster.Warnings...)
	return cluster, nil
}
