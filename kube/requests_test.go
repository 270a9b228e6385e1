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
