package main

import (
	"net/http/httptest"
	"testing"

	"github.com/prometheus/client_golang/prometheus/promhttp"
	"github.com/stretchr/testify/assert"
)

// TestShadowMetrics: /metrics serves the summary's counters.
func TestShadowMetrics(t *testing.T) {
	events, _ := shadowEvents()
	m := &shadowMetrics{}
	for i := range events {
		m.observe(&events[i])
	}
	var nilMetrics *shadowMetrics
	nilMetrics.observe(&events[0]) // no --metrics-addr: nothing, no panic
	rec := httptest.NewRecorder()
	promhttp.HandlerFor(m.registry(), promhttp.HandlerOpts{}).ServeHTTP(rec, httptest.NewRequest("GET", "/metrics", nil))
	body := rec.Body.String()
	for _, line := range []string{
		`nodeplan_shadow_events_total{type="Provisioning"} 2`,
		`nodeplan_shadow_events_total{type="Disruption"} 1`,
		`nodeplan_shadow_errors_total 1`,
		`nodeplan_shadow_pending_pods_total 3`,
		`nodeplan_shadow_placed_pods_total 3`,
		`nodeplan_shadow_nodes_launched_total{planner="karpenter"} 4`,
		`nodeplan_shadow_nodes_removed_total{planner="nodeplan"} 1`,
		`nodeplan_shadow_unpriced_nodes_total{planner="karpenter"} 1`,
		`nodeplan_shadow_price_change_per_hour{planner="karpenter"} 0.192`,
		`nodeplan_shadow_price_change_per_hour{planner="nodeplan"} -0.092`,
		`nodeplan_shadow_difference_per_hour 0.096`,
		`nodeplan_shadow_unknown_difference_events_total 2`,
	} {
		assert.Contains(t, body, line+"\n")
	}
}
