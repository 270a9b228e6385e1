package kube

import (
	"testing"

	"github.com/nodeplan/nodeplan/resources"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
)

func ctr(cpu, mem string) corev1.Container {
	rl := corev1.ResourceList{}
	if cpu != "" {
		rl[corev1.ResourceCPU] = resource.MustParse(cpu)
	}
	if mem != "" {
		rl[corev1.ResourceMemory] = resource.MustParse(mem)
	}
	return corev1.Container{Name: "c", Resources: corev1.ResourceRequirements{Requests: rl}}
}

func sidecar(cpu, mem string) corev1.Container {
	c := ctr(cpu, mem)
	c.RestartPolicy = new(corev1.ContainerRestartPolicyAlways)
	return c
}

func want(cpu, mem string) resources.List {
	return resources.MustParse(map[resources.Name]string{resources.CPU: cpu, resources.Memory: mem})
}

func TestEffectiveRequests(t *testing.T) {
	tests := []struct {
		name string
		spec corev1.PodSpec
		want resources.List
	}{
		{"no containers", corev1.PodSpec{}, resources.List{}},
		{"containers summed", corev1.PodSpec{Containers: []corev1.Container{ctr("1", "1Gi"), ctr("500m", "512Mi")}}, want("1500m", "1536Mi")},
		{"init container larger than containers", corev1.PodSpec{
			InitContainers: []corev1.Container{ctr("3", "1Gi")},
			Containers:     []corev1.Container{ctr("1", "2Gi")}}, want("3", "2Gi")},
		{"largest of several init containers", corev1.PodSpec{
			InitContainers: []corev1.Container{ctr("2", "100Mi"), ctr("1", "4Gi")},
			Containers:     []corev1.Container{ctr("1", "1Gi")}}, want("2", "4Gi")},
		{"sidecar added to containers", corev1.PodSpec{
			InitContainers: []corev1.Container{sidecar("250m", "256Mi")},
			Containers:     []corev1.Container{ctr("1", "1Gi")}}, want("1250m", "1280Mi")},
		{"init after sidecar counts the sidecar", corev1.PodSpec{
			InitContainers: []corev1.Container{sidecar("1", "1Gi"), ctr("2", "1Gi")},
			Containers:     []corev1.Container{ctr("500m", "500Mi")}}, want("3", "2Gi")},
		{"init before sidecar does not", corev1.PodSpec{
			InitContainers: []corev1.Container{ctr("2", "1Gi"), sidecar("1", "1Gi")},
			Containers:     []corev1.Container{ctr("500m", "500Mi")}}, want("2", "1524Mi")},
		{"limit defaults a missing request", corev1.PodSpec{Containers: []corev1.Container{{Name: "c",
			Resources: corev1.ResourceRequirements{Limits: corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("2"),
				corev1.ResourceMemory: resource.MustParse("1Gi")},
				Requests: corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("1")}}}}}, want("1", "1Gi")},
		{"overhead added", corev1.PodSpec{Containers: []corev1.Container{ctr("1", "1Gi")},
			Overhead: corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("250m"), corev1.ResourceMemory: resource.MustParse("120Mi")}},
			want("1250m", "1144Mi")},
		{"pod-level requests replace cpu and memory", corev1.PodSpec{Containers: []corev1.Container{ctr("1", "1Gi")},
			Resources: &corev1.ResourceRequirements{Requests: corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("3")}}},
			want("3", "1Gi")},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := EffectiveRequests(&tc.spec)
			require.NoError(t, err)
			assert.True(t, tc.want.Equal(got), "got %v; want %v", got, tc.want)
		})
	}
}

func TestEffectiveRequestsErrors(t *testing.T) {
	neg := corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("-1")}
	frac := corev1.ResourceList{"nvidia.com/gpu": resource.MustParse("500m")}
	tests := []struct {
		name string
		spec corev1.PodSpec
		msg  string
	}{
		{"negative container request", corev1.PodSpec{Containers: []corev1.Container{{Resources: corev1.ResourceRequirements{Requests: neg}}}},
			"spec.containers[0].resources.requests"},
		{"fractional gpu in init container", corev1.PodSpec{InitContainers: []corev1.Container{{Resources: corev1.ResourceRequirements{Limits: frac}}}},
			"spec.initContainers[0].resources.requests"},
		{"negative overhead", corev1.PodSpec{Overhead: neg}, "spec.overhead"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := EffectiveRequests(&tc.spec)
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.msg)
		})
	}
}

// TestFromPodResize checks that a pod's requests are raised to what its
// container statuses say the kubelet holds after an in-place resize, as
// Karpenter's resources.Ceiling counts them.
func TestFromPodResize(t *testing.T) {
	rl := func(cpu, mem string) corev1.ResourceList { return ctr(cpu, mem).Resources.Requests }
	status := func(name string, actual, allocated corev1.ResourceList) corev1.ContainerStatus {
		return corev1.ContainerStatus{Name: name, AllocatedResources: allocated, Resources: &corev1.ResourceRequirements{Requests: actual}}
	}
	named := func(c corev1.Container, name string) corev1.Container { c.Name = name; return c }
	infeasible := []corev1.PodCondition{{Type: corev1.PodResizePending, Status: corev1.ConditionTrue, Reason: corev1.PodReasonInfeasible}}
	deferred := []corev1.PodCondition{{Type: corev1.PodResizePending, Status: corev1.ConditionTrue, Reason: corev1.PodReasonDeferred}}
	tests := []struct {
		name   string
		spec   corev1.PodSpec
		status corev1.PodStatus
		want   resources.List
	}{
		{"no status: the spec", corev1.PodSpec{Containers: []corev1.Container{ctr("1", "1Gi")}}, corev1.PodStatus{}, want("1", "1Gi")},
		{"resized down, not yet actuated: the status", corev1.PodSpec{Containers: []corev1.Container{ctr("500m", "512Mi")}},
			corev1.PodStatus{ContainerStatuses: []corev1.ContainerStatus{status("c", rl("2", "1Gi"), rl("2", "1Gi"))}}, want("2", "1Gi")},
		{"resized up, allocated but not actuated: allocated", corev1.PodSpec{Containers: []corev1.Container{ctr("1", "1Gi")}},
			corev1.PodStatus{ContainerStatuses: []corev1.ContainerStatus{status("c", rl("1", "1Gi"), rl("3", "1Gi"))}}, want("3", "1Gi")},
		{"largest of each resource", corev1.PodSpec{Containers: []corev1.Container{ctr("1", "4Gi")}},
			corev1.PodStatus{ContainerStatuses: []corev1.ContainerStatus{status("c", rl("2", "1Gi"), rl("", "2Gi"))}}, want("2", "4Gi")},
		{"allocatedResources without resources is not read", corev1.PodSpec{Containers: []corev1.Container{ctr("1", "1Gi")}},
			corev1.PodStatus{ContainerStatuses: []corev1.ContainerStatus{{Name: "c", AllocatedResources: rl("4", "4Gi")}}}, want("1", "1Gi")},
		{"matched by name", corev1.PodSpec{Containers: []corev1.Container{named(ctr("1", "1Gi"), "a"), named(ctr("1", "1Gi"), "b")}},
			corev1.PodStatus{ContainerStatuses: []corev1.ContainerStatus{status("b", rl("3", "1Gi"), nil)}}, want("4", "2Gi")},
		{"infeasible resize: the status, not the spec", corev1.PodSpec{Containers: []corev1.Container{ctr("4", "1Gi")}},
			corev1.PodStatus{Conditions: infeasible, ContainerStatuses: []corev1.ContainerStatus{status("c", rl("1", "1Gi"), rl("1", "1Gi"))}},
			want("1", "1Gi")},
		{"deferred resize: the spec counts", corev1.PodSpec{Containers: []corev1.Container{ctr("4", "1Gi")}},
			corev1.PodStatus{Conditions: deferred, ContainerStatuses: []corev1.ContainerStatus{status("c", rl("1", "1Gi"), rl("1", "1Gi"))}},
			want("4", "1Gi")},
		{"sidecar resized", corev1.PodSpec{InitContainers: []corev1.Container{named(sidecar("100m", "100Mi"), "s")},
			Containers: []corev1.Container{ctr("1", "1Gi")}},
			corev1.PodStatus{InitContainerStatuses: []corev1.ContainerStatus{status("s", rl("1", "100Mi"), nil)}}, want("2", "1124Mi")},
		{"ordinary init container not resized", corev1.PodSpec{InitContainers: []corev1.Container{named(ctr("100m", "100Mi"), "i")},
			Containers: []corev1.Container{ctr("1", "1Gi")}},
			corev1.PodStatus{InitContainerStatuses: []corev1.ContainerStatus{status("i", rl("8", "100Mi"), nil)}}, want("1", "1Gi")},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := FromPod(&corev1.Pod{Spec: tc.spec, Status: tc.status})
			require.NoError(t, err)
			assert.True(t, tc.want.Equal(got.Requests), "got %v; want %v", got.Requests, tc.want)
		})
	}
	t.Run("bad status quantity names the field", func(t *testing.T) {
		p := corev1.Pod{Spec: corev1.PodSpec{Containers: []corev1.Container{ctr("1", "1Gi")}},
			Status: corev1.PodStatus{ContainerStatuses: []corev1.ContainerStatus{status("c", nil, rl("-1", ""))}}}
		_, err := FromPod(&p)
		require.Error(t, err)
		assert.Contains(t, err.Error(), "status.containerStatuses[0].allocatedResources")
	})
}
