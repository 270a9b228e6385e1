package live_test

import (
	"context"
	"fmt"
	"os"
	"time"

	"github.com/nodeplan/nodeplan/kube"
	"github.com/nodeplan/nodeplan/kube/live"
)

// ExampleRead reads the cluster of the current kubeconfig context, every
// namespace, and builds the snapshot nodeplan plans on. (Not run: it
// needs a cluster.)
func ExampleRead() {
	cfg, _, err := live.Config(live.ConfigOptions{Timeout: time.Minute})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return
	}
	var warnings []string
	objs, err := live.Read(context.Background(), cfg, live.Options{
		Progress: os.Stderr,
		Warn:     func(w string) { warnings = append(warnings, w) },
	})
	if err != nil {
		fmt.Fprintln(os.Stderr, err) // a *live.ListError: the resource and the server's message
		return
	}
	cluster, err := kube.FromObjects(objs)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return
	}
	fmt.Println(len(cluster.Pods), "pending pods,", len(cluster.Nodes), "nodes;", len(warnings), "warnings from the read")
}
