package kube

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	karpv1 "sigs.k8s.io/karpenter/pkg/apis/v1"
)

func nillableOf(d time.Duration) karpv1.NillableDuration {
	return karpv1.NillableDuration{Duration: &d}
}

// TestNodePoolOf: each field nodeplan reads of a karpv1 NodePool reaches
// this package's NodePool, which FromNodePool converts.
func TestNodePoolOf(t *testing.T) {
	sched, two, weight, replicas := "0 9 * * 1-5", 2, int32(7), int64(3)
	tests := []struct {
		name string
		in   func(*testing.T, *karpv1.NodePool)
		got  func(*NodePool) any
		want any
	}{
		{"name and metadata", func(t *testing.T, np *karpv1.NodePool) {
			np.Labels, np.Annotations = map[string]string{"l": "1"}, map[string]string{"a": "2"}
		}, func(np *NodePool) any { return np.Metadata }, ObjectMeta{Name: "np", Labels: map[string]string{"l": "1"}, Annotations: map[string]string{"a": "2"}}},
		{"apiVersion and kind without TypeMeta", nil, func(np *NodePool) any { return np.APIVersion + " " + np.Kind }, "karpenter.sh/v1 NodePool"},
		{"template metadata", func(t *testing.T, np *karpv1.NodePool) {
			np.Spec.Template.Labels, np.Spec.Template.Annotations = map[string]string{"team": "a"}, map[string]string{"x": "y"}
		}, func(np *NodePool) any { return np.Spec.Template.Metadata }, ObjectMeta{Labels: map[string]string{"team": "a"}, Annotations: map[string]string{"x": "y"}}},
		{"requirements with minValues", func(t *testing.T, np *karpv1.NodePool) {
			np.Spec.Template.Spec.Requirements = []karpv1.NodeSelectorRequirementWithMinValues{
				{Key: "k", Operator: corev1.NodeSelectorOpIn, Values: []string{"a", "b"}, MinValues: &two},
				{Key: "n", Operator: "Gte", Values: []string{"4"}}}
		}, func(np *NodePool) any { return np.Spec.Template.Spec.Requirements },
			[]Requirement{{Key: "k", Operator: "In", Values: []string{"a", "b"}, MinValues: &two}, {Key: "n", Operator: "Gte", Values: []string{"4"}}}},
		{"taints", func(t *testing.T, np *karpv1.NodePool) {
			np.Spec.Template.Spec.Taints = []corev1.Taint{{Key: "gpu", Value: "true", Effect: corev1.TaintEffectNoSchedule}}
		}, func(np *NodePool) any { return np.Spec.Template.Spec.Taints }, []corev1.Taint{{Key: "gpu", Value: "true", Effect: corev1.TaintEffectNoSchedule}}},
		{"startupTaints", func(t *testing.T, np *karpv1.NodePool) {
			np.Spec.Template.Spec.StartupTaints = []corev1.Taint{{Key: "init", Effect: corev1.TaintEffectNoExecute}}
		}, func(np *NodePool) any { return np.Spec.Template.Spec.StartupTaints }, []corev1.Taint{{Key: "init", Effect: corev1.TaintEffectNoExecute}}},
		{"nodeClassRef", func(t *testing.T, np *karpv1.NodePool) {
			np.Spec.Template.Spec.NodeClassRef = &karpv1.NodeClassReference{Group: "karpenter.k8s.aws", Kind: "EC2NodeClass", Name: "default"}
		}, func(np *NodePool) any { return np.Spec.Template.Spec.NodeClassRef }, &NodeClassReference{Group: "karpenter.k8s.aws", Kind: "EC2NodeClass", Name: "default"}},
		{"expireAfter nil is Never", nil, func(np *NodePool) any { return np.Spec.Template.Spec.ExpireAfter }, Never},
		{"expireAfter in its shortest form", func(t *testing.T, np *karpv1.NodePool) {
			np.Spec.Template.Spec.ExpireAfter = nillableOf(720 * time.Hour)
		},
			func(np *NodePool) any { return np.Spec.Template.Spec.ExpireAfter }, "720h"},
		{"expireAfter as written", func(t *testing.T, np *karpv1.NodePool) {
			np.Spec.Template.Spec.ExpireAfter = karpv1.MustParseNillableDuration("60m")
		}, func(np *NodePool) any { return np.Spec.Template.Spec.ExpireAfter }, "60m"},
		{"terminationGracePeriod", func(t *testing.T, np *karpv1.NodePool) {
			np.Spec.Template.Spec.TerminationGracePeriod = &metav1.Duration{Duration: 90 * time.Minute}
		}, func(np *NodePool) any { return np.Spec.Template.Spec.TerminationGracePeriod }, "1h30m"},
		{"terminationGracePeriod nil", nil, func(np *NodePool) any { return np.Spec.Template.Spec.TerminationGracePeriod }, ""},
		{"consolidateAfter nil is Never", nil, func(np *NodePool) any { return np.Spec.Disruption.ConsolidateAfter }, Never},
		{"consolidateAfter 0s", func(t *testing.T, np *karpv1.NodePool) { np.Spec.Disruption.ConsolidateAfter = nillableOf(0) },
			func(np *NodePool) any { return np.Spec.Disruption.ConsolidateAfter }, "0s"},
		{"consolidationPolicy", func(t *testing.T, np *karpv1.NodePool) {
			np.Spec.Disruption.ConsolidationPolicy = karpv1.ConsolidationPolicyWhenEmpty
		},
			func(np *NodePool) any { return np.Spec.Disruption.ConsolidationPolicy }, "WhenEmpty"},
		{"budgets", func(t *testing.T, np *karpv1.NodePool) {
			np.Spec.Disruption.Budgets = []karpv1.Budget{{Nodes: "10%"}, {Nodes: "0", Schedule: &sched, Duration: &metav1.Duration{Duration: 8 * time.Hour},
				Reasons: []karpv1.DisruptionReason{karpv1.DisruptionReasonDrifted, karpv1.DisruptionReasonEmpty}}}
		}, func(np *NodePool) any { return np.Spec.Disruption.Budgets },
			[]Budget{{Nodes: "10%"}, {Nodes: "0", Schedule: &sched, Duration: "8h", Reasons: []string{"Drifted", "Empty"}}}},
		{"limits", func(t *testing.T, np *karpv1.NodePool) {
			np.Spec.Limits = karpv1.Limits{corev1.ResourceCPU: resource.MustParse("100"), "nodes": resource.MustParse("5")}
		}, func(np *NodePool) any { return np.Spec.Limits }, corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("100"), "nodes": resource.MustParse("5")}},
		{"weight", func(t *testing.T, np *karpv1.NodePool) { np.Spec.Weight = &weight }, func(np *NodePool) any { return np.Spec.Weight }, &weight},
		{"replicas", func(t *testing.T, np *karpv1.NodePool) { np.Spec.Replicas = &replicas }, func(np *NodePool) any { return np.Spec.Replicas }, &replicas},
		{"status conditions", func(t *testing.T, np *karpv1.NodePool) {
			conditions(t, &np.Status.Conditions, `[{"type": "Ready", "status": "False", "reason": "NodeClassNotReady", "message": "class not ready"}]`)
		}, func(np *NodePool) any { return np.Status.Conditions },
			[]Condition{{Type: "Ready", Status: "False", Reason: "NodeClassNotReady", Message: "class not ready"}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			in := karpv1.NodePool{ObjectMeta: metav1.ObjectMeta{Name: "np"}}
			if tc.in != nil {
				tc.in(t, &in)
			}
			got := nodePoolOf(&in)
			assert.Equal(t, tc.want, tc.got(&got))
		})
	}
}

// TestNodeClaimOf: each field nodeplan reads of a karpv1 NodeClaim
// reaches the manifest Load decodes.
func TestNodeClaimOf(t *testing.T) {
	created := metav1.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	in := karpv1.NodeClaim{
		ObjectMeta: metav1.ObjectMeta{Name: "c1", Labels: map[string]string{"l": "1"}, Annotations: map[string]string{"a": "2"}, CreationTimestamp: created},
		Spec: karpv1.NodeClaimSpec{
			Requirements:  []karpv1.NodeSelectorRequirementWithMinValues{{Key: "node.kubernetes.io/instance-type", Operator: "In", Values: []string{"m5.large"}}},
			Taints:        []corev1.Taint{{Key: "t", Effect: corev1.TaintEffectNoSchedule}},
			StartupTaints: []corev1.Taint{{Key: "s", Effect: corev1.TaintEffectNoExecute}},
		},
		Status: karpv1.NodeClaimStatus{NodeName: "n1", ProviderID: "aws:///us-east-1a/i-1", ImageID: "ami-1",
			Allocatable: corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("2")}},
	}
	conditions(t, &in.Status.Conditions, `[{"type": "Launched", "status": "True", "reason": "Launched", "lastTransitionTime": "2026-01-02T03:04:05Z"}]`)
	got := nodeClaimOf(&in)
	assert.Equal(t, in.ObjectMeta, got.Metadata)
	assert.Equal(t, []Requirement{{Key: "node.kubernetes.io/instance-type", Operator: "In", Values: []string{"m5.large"}}}, got.Spec.Requirements)
	assert.Equal(t, in.Spec.Taints, got.Spec.Taints)
	assert.Equal(t, in.Spec.StartupTaints, got.Spec.StartupTaints)
	assert.Equal(t, nodeClaimStatus{NodeName: "n1", ProviderID: "aws:///us-east-1a/i-1", ImageID: "ami-1", Allocatable: in.Status.Allocatable,
		Conditions: []metav1.Condition{metav1.Condition(in.Status.Conditions[0])}}, got.Status)
}

// conditions decodes the JSON of status.conditions into dst, a slice of
// Karpenter's condition type.
func conditions[C any](t *testing.T, dst *[]C, data string) {
	t.Helper()
	require.NoError(t, json.Unmarshal([]byte(data), dst))
}

func TestShortDuration(t *testing.T) {
	for d, want := range map[time.Duration]string{0: "0s", 30 * time.Second: "30s", 10 * time.Minute: "10m", 48 * time.Hour: "48h",
		90 * time.Minute: "1h30m", time.Hour + 30*time.Second: "1h0m30s", 1500 * time.Millisecond: "1.5s", -5 * time.Minute: "-5m"} {
		assert.Equal(t, want, shortDuration(d), "%v", d)
	}
}
