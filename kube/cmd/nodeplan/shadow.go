package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"sync"
	"syscall"
	"time"

	"github.com/nodeplan/nodeplan/consolidation"
	"github.com/nodeplan/nodeplan/kube"
	"github.com/nodeplan/nodeplan/kube/live"
	"github.com/nodeplan/nodeplan/kube/shadow"
	"k8s.io/client-go/rest"
)

// shadowConfig are the flags of nodeplan shadow besides the catalog's.
// The cluster is named by the kube flags (clusterFlags: --kubeconfig,
// --context, --request-timeout).
type shadowConfig struct {
	duration    time.Duration
	metricsAddr string
	windows     shadow.WatchOptions
}

// shadowFlags registers the flags of nodeplan shadow.
func shadowFlags(fs *flag.FlagSet, c *config) {
	s := &c.shadow
	fs.DurationVar(&s.duration, "duration", 0, "stop after this long and print the summary (default: run until SIGINT or SIGTERM)")
	fs.StringVar(&s.metricsAddr, "metrics-addr", "", "serve the totals for Prometheus at ADDR/metrics (host:port)")
	fs.DurationVar(&s.windows.BatchIdle, "batch-idle", time.Second, "end a provisioning batch after this long without a new NodeClaim (Karpenter's --batch-idle-duration)")
	fs.DurationVar(&s.windows.BatchMax, "batch-max", 10*time.Second, "end a provisioning batch this long after its first NodeClaim (Karpenter's --batch-max-duration)")
	fs.DurationVar(&s.windows.ResolveTimeout, "resolve-timeout", 2*time.Minute, "wait this long for a NodeClaim's instance type, zone and capacity type labels; later it is reported unresolved")
	fs.DurationVar(&s.windows.DisruptionTimeout, "disruption-timeout", 15*time.Minute, "wait this long for the nodes Karpenter marked for disruption to be deleted")
	fs.DurationVar(&s.windows.Resync, "resync", 10*time.Minute, "informer resync period")
}

// checkShadow validates the flags of nodeplan shadow.
func checkShadow(c *config) error {
	s := &c.shadow
	for _, d := range []struct {
		name string
		v    time.Duration
	}{{"--batch-idle", s.windows.BatchIdle}, {"--batch-max", s.windows.BatchMax}, {"--resolve-timeout", s.windows.ResolveTimeout},
		{"--disruption-timeout", s.windows.DisruptionTimeout}, {"--resync", s.windows.Resync}} {
		if d.v <= 0 {
			return fmt.Errorf("%s %v: want a positive duration", d.name, d.v)
		}
	}
	if s.duration < 0 {
		return fmt.Errorf("--duration %v: want a non-negative duration", s.duration)
	}
	return nil
}

// shadowCmd is nodeplan shadow: it watches the cluster until SIGINT,
// SIGTERM or --duration, printing each event, then the summary.
func shadowCmd(args []string, stdout, stderr io.Writer) int {
	c, err := parseFlags("shadow", args, "table", "json")
	if err == nil {
		err = checkShadow(&c)
	}
	if err != nil {
		return fail("shadow", err, stdout, stderr)
	}
	cfg, _, err := live.Config(live.ConfigOptions{Kubeconfig: c.cluster.kubeconfig, Context: c.cluster.context, Timeout: c.cluster.timeout})
	if err != nil {
		return fail("shadow", err, stdout, stderr)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if c.shadow.duration > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, c.shadow.duration)
		defer cancel()
	}
	if err := watchShadow(ctx, c, cfg, stdout, stderr); err != nil {
		return fail("shadow", err, stdout, stderr)
	}
	return exitOK
}

// watchShadow runs the watch of c on cfg until ctx is done.
func watchShadow(ctx context.Context, c config, cfg *rest.Config, stdout, stderr io.Writer) error {
	out := &shadowWriter{w: stdout, json: c.output == "json"}
	var metrics *shadowMetrics
	if c.shadow.metricsAddr != "" {
		var err error
		if metrics, err = serveMetrics(ctx, c.shadow.metricsAddr, stderr); err != nil {
			return err
		}
	}
	o := c.shadow.windows
	o.Warn = func(s string) { fmt.Fprintf(stderr, "nodeplan shadow: warning: %s\n", s) }
	totals, err := shadow.Watch(ctx, cfg, o, func(objs kube.Objects) (shadow.Decider, error) {
		return shadowPlanner(c, objs, out)
	}, func(e shadow.Event) error {
		metrics.observe(&e)
		return out.event(&e)
	})
	switch {
	case out.started:
		if serr := out.summary(&totals); err == nil {
			err = serr
		}
	case err == nil: // stopped before the cluster's objects were listed
		fmt.Fprintln(stderr, "nodeplan shadow: stopped before the cluster was read: no events")
	}
	return err
}

// shadowPlanner builds the planner on the catalog of the cluster's region,
// as nodeplan consolidate builds its catalog, and prints the header.
func shadowPlanner(c config, objs kube.Objects, out *shadowWriter) (shadow.Decider, error) {
	cl, err := kube.FromObjects(objs)
	if err != nil {
		return nil, err
	}
	cat, err := clusterCatalog(c, &cl)
	if err != nil {
		return nil, err
	}
	out.prices = pricingOf(cat, c)
	if err := out.header(); err != nil {
		return nil, err
	}
	return &shadow.Planner{Catalog: cat, Consolidation: consolidation.Options{SpotToSpot: c.spotToSpot}, ExpireGrace: c.expireGrace}, nil
}

// shadowWriter prints events as table rows or JSON lines. It is safe for
// concurrent use.
type shadowWriter struct {
	mu      sync.Mutex
	w       io.Writer
	json    bool
	prices  pricing
	started bool
}
