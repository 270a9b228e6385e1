package kube_test

import (
	"errors"
	"os"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nodeplan/nodeplan/buffer"
	"github.com/nodeplan/nodeplan/instancetypes"
	"github.com/nodeplan/nodeplan/kube"
	"github.com/nodeplan/nodeplan/packing"
	"github.com/nodeplan/nodeplan/packing/verify"
)

func loadBuffers(t *testing.T, extra string) (kube.Cluster, error) {
	t.Helper()
	data, err := os.ReadFile("testdata/capacity-buffers.yaml")
	require.NoError(t, err)
	srcs := []kube.Source{{Name: "capacity-buffers.yaml", Data: data}}
	if extra != "" {
		srcs = append(srcs, kube.Source{Name: "extra.yaml", Data: []byte(extra)})
	}
	return kube.Load(srcs...)
}

// TestCapacityBuffers: testdata/capacity-buffers.yaml holds a 4-replica
// Deployment with a 50 % buffer (2 pods), a PodTemplate buffer limited to
// 5 cpu of 2-cpu pods (2 pods; its PVC volume dropped, so the missing
// claim does not matter), and a buffer naming a DaemonSet
// (ResolutionFailed, K/utils/apps/resolve.go:132-133).
func TestCapacityBuffers(t *testing.T) {
	c, err := loadBuffers(t, "")
	require.NoError(t, err)
	require.Len(t, c.Buffers, 3)
	got := map[string]int32{}
	for _, r := range c.Buffers {
		got[r.Key()] = r.Replicas
	}
	assert.Equal(t, map[string]int32{"shop/web-headroom": 2, "shop/batch": 2, "shop/broken": 0}, got)
	broken := c.Buffers[1]
	assert.Equal(t, buffer.ResolutionFailed, broken.Reason)
	require.ErrorIs(t, broken.Err, buffer.ErrUnsupportedRef)
	var re *buffer.RefError
	require.ErrorAs(t, broken.Err, &re)
	assert.Equal(t, "spec.scalableRef.kind", re.Field)
	assert.Equal(t, []string{"capacity buffers: 3, holding room for 4 virtual pods (Karpenter provisions for them only with its CapacityBuffer feature gate on)"},
		c.BufferWarnings(), "the commands that hold room for buffers print it")
	assert.NotContains(t, c.Warnings, c.BufferWarnings()[0], "not every command")

	cat, err := instancetypes.AWS(instancetypes.Options{CapacityTypes: []instancetypes.CapacityType{instancetypes.OnDemand}})
	require.NoError(t, err)
	p, err := c.Problem(cat)
	require.NoError(t, err)
	require.Len(t, p.Pods, 8, "4 real pods, then 4 buffer pods")
	assert.Equal(t, "capacity-buffer-web-headroom-1", p.Pods[6].Name)
	assert.Equal(t, "web-headroom", p.Pods[6].Buffer)
	assert.Equal(t, map[string]string{"app": "web"}, p.Pods[6].Labels)
	plan, err := packing.Solve(p, packing.Options{})
	require.NoError(t, err)
	assert.Empty(t, verify.Plan(p, plan))
	assert.Len(t, plan.Order, 4)
	assert.Len(t, plan.Headroom, 4)
	hs := kube.Headroom(c.Buffers, &p, &plan)
	require.Len(t, hs, 3)
	assert.Equal(t, 2, hs[0].OnNewNodeClaims+hs[0].OnExistingNodes)
	assert.Equal(t, "NotReadyForProvisioning", hs[1].Provisioning)
	assert.Contains(t, hs[1].Error, "DaemonSet")

	// Apply takes the plan: buffer pods are neither bound nor pending after.
	after, err := c.Apply(p, plan, time.Time{})
	require.NoError(t, err)
	assert.Empty(t, after.Pods)
	for _, n := range after.Nodes {
		for _, pod := range n.Pods {
			assert.Empty(t, pod.Buffer, "node %s holds buffer pod %s", n.Name, pod.Key())
		}
	}
	assert.Len(t, after.Buffers, 3, "the buffers stay for the next plan")
}

// TestCapacityBufferRefs: each ref resolves or fails with its reason, as
// K/controllers/capacitybuffer/suite_test.go:121, :198, :223, :274, :293,
// :312 do.
func TestCapacityBufferRefs(t *testing.T) {
	tests := []struct {
		name, manifest string
		reason         buffer.Reason
		replicas       int32
	}{
		{"podtemplate missing", `apiVersion: autoscaling.x-k8s.io/v1beta1
kind: CapacityBuffer
metadata: {name: x, namespace: shop}
spec: {podTemplateRef: {name: gone}, replicas: 1}`,
			buffer.PodTemplateNotFound, 0}, // :121
		{"deployment missing", `apiVersion: autoscaling.x-k8s.io/v1beta1
kind: CapacityBuffer
metadata: {name: x, namespace: shop}
spec: {scalableRef: {kind: Deployment, name: gone}, replicas: 1}`,
			buffer.ScalableRefNotFound, 0}, // :198
		{"deployment in another namespace", `apiVersion: autoscaling.x-k8s.io/v1beta1
kind: CapacityBuffer
metadata: {name: x, namespace: other}
spec: {scalableRef: {kind: Deployment, name: web}, replicas: 1}`,
			buffer.ScalableRefNotFound, 0},
		{"unsupported group", `apiVersion: autoscaling.x-k8s.io/v1beta1
kind: CapacityBuffer
metadata: {name: x, namespace: shop}
spec: {scalableRef: {apiGroup: batch, kind: Deployment, name: web}, replicas: 1}`,
			buffer.ResolutionFailed, 0}, // :293
		{"statefulset with nil replicas is 1", `apiVersion: autoscaling.x-k8s.io/v1beta1
kind: CapacityBuffer
metadata: {name: x, namespace: shop}
spec: {scalableRef: {kind: StatefulSet, name: db}, percentage: 100}
---
apiVersion: apps/v1
kind: StatefulSet
metadata: {name: db, namespace: shop}
spec: {selector: {matchLabels: {app: db}}, template: {metadata: {labels: {app: db}}, spec: {containers: [{name: c, image: pg, resources: {requests: {cpu: 500m}}}]}}}`,
			buffer.Resolved, 1}, // :223, :312
		{"replicaset", `apiVersion: autoscaling.x-k8s.io/v1beta1
kind: CapacityBuffer
metadata: {name: x, namespace: shop}
spec: {scalableRef: {kind: ReplicaSet, name: rs}, percentage: 34}
---
apiVersion: apps/v1
kind: ReplicaSet
metadata: {name: rs, namespace: shop}
spec: {replicas: 3, selector: {matchLabels: {app: rs}}, template: {metadata: {labels: {app: rs}}, spec: {containers: [{name: c, image: a}]}}}`,
			buffer.Resolved, 2},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c, err := loadBuffers(t, tc.manifest)
			require.NoError(t, err)
			r := c.Buffers[len(c.Buffers)-1]
			assert.Equal(t, tc.reason, r.Reason)
			assert.Equal(t, tc.replicas, r.Replicas)
			if tc.reason != buffer.Resolved {
				var re *buffer.RefError
				assert.True(t, errors.As(r.Err, &re), "%v", r.Err)
			}
		})
	}
}

// TestCapacityBufferBadLimit: a limit that is not a quantity is an
// *ObjectError naming the buffer and the field.
func TestCapacityBufferBadLimit(t *testing.T) {
	_, err := loadBuffers(t, `apiVersion: autoscaling.x-k8s.io/v1beta1
kind: CapacityBuffer
metadata: {name: big, namespace: shop}
spec: {podTemplateRef: {name: batch-shape}, limits: {cpu: "1e300"}}`)
	var oe *kube.ObjectError
	require.ErrorAs(t, err, &oe)
	assert.Equal(t, []string{"CapacityBuffer", "shop", "big", "spec.limits.cpu"}, []string{oe.Kind, oe.Namespace, oe.Name, oe.Field})
}

// TestCapacityBufferInvalid: what the CapacityBuffer CRD rejects (its
// OpenAPI minimums and its CEL rules,
// K/apis/autoscaling/v1beta1/capacitybuffer.go:92-93) is bad input, an
// *ObjectError wrapping kube.ErrInvalid that names the buffer, field,
// file and document; not a buffer that is merely not ready.
func TestCapacityBufferInvalid(t *testing.T) {
	const head = "apiVersion: autoscaling.x-k8s.io/v1beta1\nkind: CapacityBuffer\nmetadata: {name: x, namespace: shop}\n"
	tests := []struct{ name, spec, field string }{
		{"negative replicas", "spec: {podTemplateRef: {name: batch-shape}, replicas: -1}", "spec.replicas"},
		{"negative percentage", "spec: {scalableRef: {kind: Deployment, name: web}, percentage: -5}", "spec.percentage"},
		{"negative limit", "spec: {podTemplateRef: {name: batch-shape}, limits: {cpu: '-1'}}", "spec.limits.cpu"},
		{"a limit's key with a slash", "spec: {podTemplateRef: {name: batch-shape}, limits: {nvidia.com/gpu: '-1'}}", `spec.limits["nvidia.com/gpu"]`},
		{"both refs", "spec: {podTemplateRef: {name: batch-shape}, scalableRef: {kind: Deployment, name: web}, replicas: 1}", "spec.scalableRef"},
		{"podTemplateRef without replicas or limits", "spec: {podTemplateRef: {name: batch-shape}}", "spec.podTemplateRef"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := loadBuffers(t, head+tc.spec)
			var oe *kube.ObjectError
			require.ErrorAs(t, err, &oe)
			assert.Equal(t, []string{"CapacityBuffer", "shop", "x", tc.field}, []string{oe.Kind, oe.Namespace, oe.Name, oe.Field})
			assert.ErrorIs(t, err, kube.ErrInvalid)
			assert.ErrorContains(t, err, "extra.yaml: document 1: CapacityBuffer shop/x: "+tc.field)
		})
	}
}

// TestCapacityBufferLocated: errors found when the buffers are evaluated,
// after every object is read, name the file and document too, and the
// pod caps name the field that gave the count: one buffer's
// (buffer.MaxReplicas, buffer.ErrTooManyReplicas) and the pods of one
// Load (kube.MaxReplicas, with the workloads').
func TestCapacityBufferLocated(t *testing.T) {
	const buf = "apiVersion: autoscaling.x-k8s.io/v1beta1\nkind: CapacityBuffer\nmetadata: {name: x, namespace: shop}\n"
	const big = "\n---\napiVersion: apps/v1\nkind: Deployment\nmetadata: {name: big, namespace: shop}\n" +
		"spec: {replicas: 60000, selector: {matchLabels: {app: big}}, template: {metadata: {labels: {app: big}}, spec: {containers: [{name: c, image: a}]}}}"
	tests := []struct {
		name, manifest, err string
		tooMany             bool
	}{
		{"a PodTemplate that does not convert", buf + "spec: {podTemplateRef: {name: odd}, replicas: 1}\n---\n" +
			"apiVersion: v1\nkind: PodTemplate\nmetadata: {name: odd, namespace: shop}\n" +
			"template: {spec: {nodeSelector: {'bad key': a}, containers: [{name: c, image: a}]}}",
			"extra.yaml: document 2: PodTemplate shop/odd: template.spec.nodeSelector", false},
		{"one buffer, too many by replicas", buf + "spec: {podTemplateRef: {name: batch-shape}, replicas: 200000}",
			"extra.yaml: document 1: CapacityBuffer shop/x: spec.replicas: 200000 replicas: too many replicas (limit 100000)", true},
		{"one buffer, too many by limits", buf + "spec: {podTemplateRef: {name: batch-shape}, limits: {cpu: '400000'}}",
			"extra.yaml: document 1: CapacityBuffer shop/x: spec.limits.cpu: 200000 replicas: too many replicas", true},
		{"with the workloads, by replicas", buf + "spec: {podTemplateRef: {name: batch-shape}, replicas: 60000}" + big,
			"extra.yaml: document 1: CapacityBuffer shop/x: spec.replicas: 60000 more buffer pods", false},
		{"with the workloads, by percentage", buf + "spec: {scalableRef: {kind: Deployment, name: big}, percentage: 100}" + big,
			"extra.yaml: document 1: CapacityBuffer shop/x: spec.percentage: 60000 more buffer pods", false},
		{"with the workloads, by limits", buf + "spec: {podTemplateRef: {name: batch-shape}, limits: {cpu: '120000'}}" + big,
			"extra.yaml: document 1: CapacityBuffer shop/x: spec.limits: 60000 more buffer pods", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := loadBuffers(t, tc.manifest)
			assert.ErrorContains(t, err, tc.err)
			assert.Equal(t, tc.tooMany, errors.Is(err, buffer.ErrTooManyReplicas), "%v", err)
		})
	}
}

// TestCapacityBufferPercentageWithoutScalable: the CRD lets a
// podTemplateRef buffer set percentage, which Karpenter ignores
// (K/controllers/capacitybuffer/controller.go:188): nodeplan warns, naming
// the document.
func TestCapacityBufferPercentageWithoutScalable(t *testing.T) {
	c, err := loadBuffers(t, "apiVersion: autoscaling.x-k8s.io/v1beta1\nkind: CapacityBuffer\nmetadata: {name: x, namespace: shop}\n"+
		"spec: {podTemplateRef: {name: batch-shape}, replicas: 1, percentage: 50}")
	require.NoError(t, err)
	assert.Contains(t, c.Warnings, "capacitybuffer shop/x: spec.percentage is ignored without spec.scalableRef, as Karpenter ignores it (extra.yaml: document 1)")
}
