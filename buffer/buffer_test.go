package buffer_test

import (
	"errors"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nodeplan/nodeplan/buffer"
	"github.com/nodeplan/nodeplan/packing"
	"github.com/nodeplan/nodeplan/resources"
)

// K is $GOMODCACHE/sigs.k8s.io/karpenter@v1.14.1/pkg.

func cpu(v string) resources.List {
	return resources.MustParse(map[resources.Name]string{resources.CPU: v})
}

func i32(v int32) (int32, bool) { return v, true }

// template is the suite's cpuPod(): requests cpu 1.
var template = packing.Pod{Labels: map[string]string{"app": "web"}, Requests: cpu("1")}

func podTemplateBuffer(replicas *int32, limits map[resources.Name]int64) buffer.Buffer {
	b := buffer.Buffer{Namespace: "default", Name: "cb", PodTemplate: "pt", Limits: limits}
	if replicas != nil {
		b.Replicas, b.HasReplicas = i32(*replicas)
	}
	return b
}

func scalableBuffer(replicas, pct *int32, limits map[resources.Name]int64) buffer.Buffer {
	b := buffer.Buffer{Namespace: "default", Name: "cb", Limits: limits,
		Scalable: &buffer.ScalableRef{Kind: "Deployment", Name: "d"}}
	if replicas != nil {
		b.Replicas, b.HasReplicas = i32(*replicas)
	}
	if pct != nil {
		b.Percentage, b.HasPercentage = i32(*pct)
	}
	return b
}

func ptr(v int32) *int32 { return &v }

func cpuLimit(cores int64) map[resources.Name]int64 {
	return map[resources.Name]int64{resources.CPU: cores * 1000}
}

var (
	ptTarget = buffer.Target{Kind: buffer.PodTemplate, Namespace: "default", Name: "pt"}
	dTarget  = buffer.Target{Kind: buffer.Deployment, Namespace: "default", Name: "d"}
)

// TestReplicasSuiteTable is the table of
// K/controllers/capacitybuffer/suite_test.go:373-476 (template pod
// requests cpu 1; deployments have 10 replicas unless said).
func TestReplicasSuiteTable(t *testing.T) {
	deploy := func(n int32) buffer.Workloads {
		return buffer.Workloads{dTarget: {Template: template, Replicas: n, HasReplicas: true}}
	}
	pt := buffer.Workloads{ptTarget: {Template: template}}
	tests := []struct {
		name string
		b    buffer.Buffer
		ws   buffer.Workloads
		want int32
	}{
		{"fixed replicas only", podTemplateBuffer(ptr(7), nil), pt, 7},                                                         // :373
		{"replicas capped by binding limit", podTemplateBuffer(ptr(10), cpuLimit(3)), pt, 3},                                   // :384
		{"non-binding limit does not reduce", podTemplateBuffer(ptr(3), cpuLimit(10)), pt, 3},                                  // :396
		{"limits only", podTemplateBuffer(nil, cpuLimit(5)), pt, 5},                                                            // :408
		{"percentage only", scalableBuffer(nil, ptr(20), nil), deploy(10), 2},                                                  // :419
		{"replicas > percentage", scalableBuffer(ptr(5), ptr(20), nil), deploy(10), 5},                                         // :429
		{"percentage > replicas", scalableBuffer(ptr(5), ptr(80), nil), deploy(10), 8},                                         // :440
		{"max capped by limit", scalableBuffer(ptr(5), ptr(80), cpuLimit(4)), deploy(10), 4},                                   // :452
		{"percentage rounds up to 1", scalableBuffer(nil, ptr(10), nil), deploy(1), 1},                                         // :465
		{"deployment of 10 at 20%", scalableBuffer(nil, ptr(20), nil), deploy(10), 2},                                          // :144
		{"nil workload replicas is 1", scalableBuffer(nil, ptr(100), nil), buffer.Workloads{dTarget: {Template: template}}, 1}, // :312
		{"workload of 0 replicas: no percentage", scalableBuffer(nil, ptr(50), nil), deploy(0), 0},                             // controller.go:188
		{"percentage 0 is a size constraint of 0", scalableBuffer(nil, ptr(0), cpuLimit(5)), deploy(10), 0},                    // controller.go:188, :217
		{"nothing set", podTemplateBuffer(nil, nil), pt, 0},                                                                    // controller.go:213
		{"percentage ignored with a podTemplateRef", func() buffer.Buffer {
			b := podTemplateBuffer(ptr(1), nil)
			b.Percentage, b.HasPercentage = 500, true
			return b
		}(), pt, 1}, // controller.go:185-190
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := buffer.Evaluate(tc.b, tc.ws)
			require.NoError(t, r.Err)
			assert.Equal(t, buffer.Resolved, r.Reason)
			assert.Equal(t, tc.want, r.Replicas)
		})
	}
}

// TestLimitReplicas are the rows of
// K/controllers/capacitybuffer/helpers_test.go (calculateLimitReplicas),
// through Replicas with limits alone.
func TestLimitReplicas(t *testing.T) {
	mem := func(v string) int64 {
		return resources.MustParse(map[resources.Name]string{resources.Memory: v}).Memory
	}
	both := resources.MustParse(map[resources.Name]string{resources.CPU: "1", resources.Memory: "1Gi"})
	tests := []struct {
		name   string
		req    resources.List
		limits map[resources.Name]int64
		want   int32
	}{
		{"cpu limits", cpu("1"), cpuLimit(4), 4}, // :32
		{"memory limits", resources.List{Memory: mem("512Mi")}, map[resources.Name]int64{resources.Memory: mem("2Gi")}, 4}, // :48
		{"minimum across resources", both, map[resources.Name]int64{resources.CPU: 8000, resources.Memory: mem("4Gi")}, 4}, // :64
		{"no requests: limits ignored", resources.List{}, cpuLimit(4), 0},                                                  // :143
		{"no overlapping resource: limits ignored", cpu("1"), map[resources.Name]int64{resources.Memory: mem("1Gi")}, 0},   // :153
		{"floor divide", cpu("3"), cpuLimit(10), 3},                                                                        // :167
		{"millicore precision", cpu("250m"), cpuLimit(1), 4},                                                               // :182
		{"limit below one pod", cpu("2"), cpuLimit(1), 0},                                                                  // :197
		{"a zero limit is a limit", cpu("1"), map[resources.Name]int64{resources.CPU: 0}, 0},                               // helpers.go:40-47
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b := podTemplateBuffer(nil, tc.limits)
			assert.Equal(t, tc.want, buffer.Replicas(b, buffer.Workload{Template: packing.Pod{Requests: tc.req}}))
		})
	}
	// With replicas set, an ignored limit leaves them (helpers.go:39-41).
	b := podTemplateBuffer(ptr(6), map[resources.Name]int64{resources.Memory: 1})
	assert.Equal(t, int32(6), buffer.Replicas(b, buffer.Workload{Template: packing.Pod{Requests: cpu("1")}}))
}

// TestPercentage are the rows of helpers_test.go:424-456
// (calculatePercentageReplicas), with percentage alone.
func TestPercentage(t *testing.T) {
	tests := []struct {
		replicas, pct, want int32
	}{
		{10, 20, 2},                          // :424
		{3, 10, 1},                           // :429
		{1, 1, 1},                            // :434
		{0, 50, 0},                           // :439
		{10, 0, 0},                           // :443
		{5, 100, 5},                          // :447
		{5, 200, 10},                         // :451
		{1000, 10, 100},                      // :456
		{2147483647, 2147483647, 2147483647}, // saturates (nodeplan)
	}
	for _, tc := range tests {
		b := scalableBuffer(nil, &tc.pct, nil)
		got := buffer.Replicas(b, buffer.Workload{Template: template, Replicas: tc.replicas, HasReplicas: true})
		assert.Equal(t, tc.want, got, "%d%% of %d", tc.pct, tc.replicas)
	}
}

// TestEvaluateReasons: the ReadyForProvisioning reasons and named errors
// (suite_test.go:121, :198, :274, :293; controller.go:167-170).
func TestEvaluateReasons(t *testing.T) {
	withRef := func(group, kind string) buffer.Buffer {
		b := scalableBuffer(ptr(1), nil, nil)
		b.Scalable.APIGroup, b.Scalable.Kind = group, kind
		return b
	}
	tests := []struct {
		name   string
		b      buffer.Buffer
		reason buffer.Reason
		err    error
		field  string
	}{
		{"podtemplate not found", podTemplateBuffer(ptr(1), nil), buffer.PodTemplateNotFound, buffer.ErrNotFound, "spec.podTemplateRef.name"},         // :121
		{"scalable ref not found", withRef("", "Deployment"), buffer.ScalableRefNotFound, buffer.ErrNotFound, "spec.scalableRef.name"},                // :198
		{"unsupported kind", withRef("apps", "DaemonSet"), buffer.ResolutionFailed, buffer.ErrUnsupportedRef, "spec.scalableRef.kind"},                // :274
		{"unsupported group", withRef("batch", "Deployment"), buffer.ResolutionFailed, buffer.ErrUnsupportedRef, "spec.scalableRef.apiGroup"},         // :293
		{"group is checked before kind", withRef("x", "Job"), buffer.ResolutionFailed, buffer.ErrUnsupportedRef, "apiGroup"},                          // resolve.go:107-113
		{"no ref", buffer.Buffer{Namespace: "default", Name: "cb", Replicas: 1, HasReplicas: true}, buffer.ResolutionFailed, buffer.ErrNoRef, "spec"}, // controller.go:167
		{"negative replicas", podTemplateBuffer(ptr(-1), nil), buffer.ResolutionFailed, buffer.ErrInvalidBuffer, "spec.replicas"},
		{"negative limit", podTemplateBuffer(nil, cpuLimit(-1)), buffer.ResolutionFailed, buffer.ErrInvalidBuffer, "spec.limits.cpu"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := buffer.Evaluate(tc.b, buffer.Workloads{dTarget: {Template: template}, {Kind: buffer.Deployment, Namespace: "other", Name: "d"}: {}})
			if tc.name == "scalable ref not found" {
				r = buffer.Evaluate(tc.b, nil)
			}
			assert.Equal(t, tc.reason, r.Reason)
			require.ErrorIs(t, r.Err, tc.err)
			assert.Contains(t, r.Err.Error(), tc.field)
			assert.Contains(t, r.Err.Error(), "default/cb")
			assert.False(t, r.Ready())
			assert.Nil(t, r.Pods())
			var re *buffer.RefError
			if !errors.Is(tc.err, buffer.ErrInvalidBuffer) {
				assert.ErrorAs(t, r.Err, &re)
			}
		})
	}
	// Both refs: the PodTemplate wins (resolve.go:75-87).
	b := scalableBuffer(ptr(2), nil, nil)
	b.PodTemplate = "pt"
	tgt, err := b.Target()
	require.NoError(t, err)
	assert.Equal(t, ptTarget, tgt)
	// StatefulSet and ReplicaSet resolve (suite_test.go:223).
	for _, k := range []buffer.Kind{buffer.StatefulSet, buffer.ReplicaSet} {
		b := withRef("apps", k.String())
		tgt, err := b.Target()
		require.NoError(t, err)
		assert.Equal(t, k, tgt.Kind)
	}
}

// TestPods: the virtual pods of K/state/virtualpods/utilities.go:81-120.
func TestPods(t *testing.T) {
	tmpl := template
	tmpl.Namespace, tmpl.Name, tmpl.Owner, tmpl.DoNotDisrupt, tmpl.Priority = "x", "tmpl", "ReplicaSet/web", "true", 1000
	r := buffer.Evaluate(podTemplateBuffer(ptr(3), nil), buffer.Workloads{ptTarget: {Template: tmpl}})
	pods := r.Pods()
	require.Len(t, pods, 3)
	for i, p := range pods {
		assert.Equal(t, []string{"default", "capacity-buffer-cb-" + string(rune('1'+i)), "cb"}, []string{p.Namespace, p.Name, p.Buffer})
		assert.Equal(t, int32(buffer.PodPriority), p.Priority)
		assert.Equal(t, map[string]string{"app": "web"}, p.Labels)
		assert.True(t, p.Requests.Equal(cpu("1")))
		assert.Empty(t, p.Owner+p.DoNotDisrupt)
	}
	assert.Equal(t, "x", tmpl.Namespace, "the template is not modified")
	empty := buffer.Evaluate(podTemplateBuffer(ptr(0), nil), buffer.Workloads{ptTarget: {Template: tmpl}})
	assert.Nil(t, empty.Pods(), "0 replicas: no pods (utilities.go:55-57)")
}

// TestSummarize: the Provisioning condition rows of
// K/controllers/provisioning/buffers_test.go:170-210 and :109-165.
func TestSummarize(t *testing.T) {
	ready := func(ns string, n int32) buffer.Result {
		return buffer.Result{Namespace: ns, Name: "web", Replicas: n}
	}
	pod := func(ns string) packing.Pod { return packing.Pod{Namespace: ns, Name: "p", Buffer: "web"} }
	pods := []packing.Pod{pod("a"), pod("a"), pod("a"), pod("b"), {Namespace: "a", Name: "real"}}
	onNode := func(i int) packing.Headroom { return packing.Headroom{Pod: i, Node: "n1"} }
	onClaim := func(i int) packing.Headroom { return packing.Headroom{Pod: i, NodeClaim: "c1"} }
	tests := []struct {
		name     string
		result   buffer.Result
		headroom []packing.Headroom
		want     buffer.Provisioning
		message  string
	}{
		{"all fit", ready("a", 3), []packing.Headroom{onNode(0), onNode(1), onNode(2)}, buffer.FitsExistingCapacity, "All 3 virtual pods fit on existing capacity"},                        // :170
		{"new nodes needed", ready("a", 3), []packing.Headroom{onNode(0), onClaim(1), onClaim(2)}, buffer.RequiresNewCapacity, "2/3 virtual pods required new capacity, 0 failed"},         // :178
		{"failed", ready("a", 3), []packing.Headroom{onNode(0), onNode(1), {Pod: 2, Unschedulable: true}}, buffer.RequiresNewCapacity, "0/3 virtual pods required new capacity, 1 failed"}, // buffers.go:170-179
		{"not ready", buffer.Result{Namespace: "a", Name: "web", Reason: buffer.PodTemplateNotFound}, nil, buffer.NotReadyForProvisioning, "Buffer is not ReadyForProvisioning"},           // :186
		{"empty", ready("a", 0), nil, buffer.BufferEmpty, "Buffer has zero desired replicas"},                                                                                              // :195
		{"no results", ready("a", 3), nil, buffer.Unchanged, ""},                                                     // :203
		{"other namespace's pods do not count", ready("a", 1), []packing.Headroom{onClaim(3)}, buffer.Unchanged, ""}, // :141
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := buffer.Summarize([]buffer.Result{tc.result}, pods, packing.Plan{Headroom: tc.headroom})
			require.Len(t, s, 1)
			assert.Equal(t, tc.want, s[0].Provisioning)
			assert.Equal(t, tc.message, s[0].Message)
		})
	}
}

func TestEnums(t *testing.T) {
	assert.Equal(t, "ScalableRefNotFound", buffer.ScalableRefNotFound.String())
	assert.Equal(t, "Reason(9)", buffer.Reason(9).String())
	assert.Equal(t, "FitsExistingCapacity", buffer.FitsExistingCapacity.String())
	assert.Equal(t, "ReplicaSet", buffer.ReplicaSet.String())
	assert.Equal(t, "Deployment default/d", dTarget.String())
}

// TestEvaluateTooManyReplicas: a count above MaxReplicas is a ReplicasError
// naming the field that produced it, and no pods; MaxReplicas itself
// resolves. Karpenter would try to build that many virtual pods
// (K/state/virtualpods/utilities.go:81-120); nodeplan refuses.
func TestEvaluateTooManyReplicas(t *testing.T) {
	over := int32(buffer.MaxReplicas + 1)
	big := buffer.Workload{Template: template, Replicas: 1_000_000, HasReplicas: true}
	tests := []struct {
		name  string
		b     buffer.Buffer
		field string // "" resolves
	}{
		{"replicas", podTemplateBuffer(&over, nil), "spec.replicas"},
		{"replicas at the cap", podTemplateBuffer(ptr(buffer.MaxReplicas), nil), ""},
		{"replicas max int32", podTemplateBuffer(ptr(math.MaxInt32), nil), "spec.replicas"},
		{"percentage", scalableBuffer(ptr(1), ptr(50), nil), "spec.percentage"},
		{"limits", podTemplateBuffer(nil, cpuLimit(buffer.MaxReplicas+1)), "spec.limits.cpu"},
		{"limits bound a huge percentage", scalableBuffer(nil, ptr(100), cpuLimit(10)), ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := buffer.Evaluate(tc.b, buffer.Workloads{ptTarget: {Template: template}, dTarget: big})
			if tc.field == "" {
				require.NoError(t, r.Err)
				assert.True(t, r.Ready())
				assert.LessOrEqual(t, r.Replicas, int32(buffer.MaxReplicas))
				return
			}
			assert.Equal(t, buffer.ResolutionFailed, r.Reason)
			require.ErrorIs(t, r.Err, buffer.ErrTooManyReplicas)
			var re *buffer.ReplicasError
			require.ErrorAs(t, r.Err, &re)
			assert.Equal(t, tc.field, re.Field)
			assert.Greater(t, re.Replicas, int64(buffer.MaxReplicas))
			assert.Contains(t, r.Err.Error(), "default/cb")
			assert.Zero(t, r.Replicas)
			assert.Nil(t, r.Pods())
		})
	}
}
