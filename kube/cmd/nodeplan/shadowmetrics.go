package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"sync"
	"time"

	"github.com/nodeplan/nodeplan/kube/shadow"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// shadowMetrics serves the totals of nodeplan shadow for Prometheus: the
// counters of the summary, updated with every event. A nil
// *shadowMetrics observes nothing.
type shadowMetrics struct {
	mu     sync.Mutex
	totals shadow.Totals
}

// observe counts e.
func (m *shadowMetrics) observe(e *shadow.Event) {
	if m == nil {
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	m.totals.Add(e)
}

// read returns f of the totals.
func (m *shadowMetrics) read(f func(*shadow.Totals) float64) func() float64 {
	return func() float64 {
		m.mu.Lock()
		defer m.mu.Unlock()
		return f(&m.totals)
	}
}

// registry registers the metrics of m.
func (m *shadowMetrics) registry() *prometheus.Registry {
	reg := prometheus.NewRegistry()
	counter := func(name, help string, labels prometheus.Labels, f func(*shadow.Totals) float64) {
		reg.MustRegister(prometheus.NewCounterFunc(prometheus.CounterOpts{Name: "nodeplan_shadow_" + name, Help: help, ConstLabels: labels}, m.read(f)))
	}
	gauge := func(name, help string, labels prometheus.Labels, f func(*shadow.Totals) float64) {
		reg.MustRegister(prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "nodeplan_shadow_" + name, Help: help, ConstLabels: labels}, m.read(f)))
	}
	for _, typ := range []shadow.Type{shadow.Provisioning, shadow.Disruption} {
		counter("events_total", "Karpenter events shadowed, by type.", prometheus.Labels{"type": typ.String()},
			func(t *shadow.Totals) float64 { return float64(t.Events[typ]) })
	}
	counter("errors_total", "Events nodeplan could not decide on.", nil, func(t *shadow.Totals) float64 { return float64(t.Errors) })
	counter("pending_pods_total", "Distinct pods pending in provisioning events (a pod pending in several counts once).", nil, func(t *shadow.Totals) float64 { return float64(t.Pods) })
	counter("placed_pods_total", "Distinct pods nodeplan placed in provisioning events.", nil, func(t *shadow.Totals) float64 { return float64(t.Placed) })
	for _, side := range []struct {
		name string
		get  func(*shadow.Totals) *shadow.Side
	}{{"karpenter", func(t *shadow.Totals) *shadow.Side { return &t.Karpenter }}, {"nodeplan", func(t *shadow.Totals) *shadow.Side { return &t.Nodeplan }}} {
		l := prometheus.Labels{"planner": side.name}
		counter("nodes_launched_total", "Nodes launched.", l, func(t *shadow.Totals) float64 { return float64(side.get(t).Launched) })
		counter("nodes_removed_total", "Nodes removed by disruption.", l, func(t *shadow.Totals) float64 { return float64(side.get(t).Removed) })
		counter("unpriced_nodes_total", "Nodes left out of the price sums (offering unresolved or unknown).", l,
			func(t *shadow.Totals) float64 { return float64(side.get(t).Unpriced) })
		gauge("price_change_per_hour", "Hourly price of the nodes launched minus those removed, summed over the events.", l,
			func(t *shadow.Totals) float64 { return side.get(t).Change.Decimal() })
	}
	gauge("difference_per_hour", "Karpenter's hourly price change minus nodeplan's, over the events whose difference is known.", nil,
		func(t *shadow.Totals) float64 { return t.Difference.Decimal() })
	counter("unknown_difference_events_total", "Events whose difference is unknown.", nil, func(t *shadow.Totals) float64 { return float64(t.Unknown) })
	return reg
}

// serveMetrics serves /metrics at addr until ctx is done.
func serveMetrics(ctx context.Context, addr string, stderr io.Writer) (*shadowMetrics, error) {
	m := &shadowMetrics{}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("--metrics-addr: %w", err)
	}
	mux := http.NewServeMux()
	mux.Handle("/metrics", promhttp.HandlerFor(m.registry(), promhttp.HandlerOpts{}))
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	go func() {
		if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			fmt.Fprintf(stderr, "nodeplan shadow: metrics: %v\n", err)
		}
	}()
	go func() {
		<-ctx.Done()
		srv.Close()
	}()
	return m, nil
}
