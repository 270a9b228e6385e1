package kube

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"runtime"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
)

// variedPods are n pods whose containers, resource lists and owner
// references vary in number and presence from one pod to the next, as
// the ones a scratch pod is reused for (resetScratch) do.
func variedPods(n int, seed uint64) []corev1.Pod {
	r := rand.New(rand.NewPCG(seed, 1))
	quantities := []string{"100m", "1", "250m", "2"}
	memories := []string{"128Mi", "1Gi", "512Mi"}
	list := func() corev1.ResourceList {
		switch r.IntN(4) {
		case 0:
			return nil
		case 1:
			return corev1.ResourceList{}
		}
		l := corev1.ResourceList{corev1.ResourceCPU: resource.MustParse(quantities[r.IntN(len(quantities))])}
		if r.IntN(2) == 0 {
			l[corev1.ResourceMemory] = resource.MustParse(memories[r.IntN(len(memories))])
		}
		return l
	}
	pods := make([]corev1.Pod, n)
	for i := range pods {
		p := &pods[i]
		p.APIVersion, p.Kind = "v1", "Pod"
		p.Name, p.Namespace = fmt.Sprintf("p-%04d", i), "shop"
		p.Labels = map[string]string{"app": "web"}
		switch r.IntN(4) {
		case 0:
			p.Status.Conditions = []corev1.PodCondition{{Type: corev1.PodReady, Status: corev1.ConditionTrue}}
		case 1:
			p.Status.Conditions = []corev1.PodCondition{{Type: corev1.PodScheduled, Status: corev1.ConditionTrue},
				{Type: corev1.PodReady, Status: corev1.ConditionFalse}}
		case 2:
			p.Status.Conditions = []corev1.PodCondition{{Type: corev1.PodScheduled, Status: corev1.ConditionFalse}}
		}
		for range r.IntN(4) {
			c := corev1.Container{Name: fmt.Sprintf("c%d", len(p.Spec.Containers)), Image: "x"}
			c.Resources.Requests, c.Resources.Limits = list(), list()
			if r.IntN(5) == 0 {
				c.Ports = []corev1.ContainerPort{{ContainerPort: 80, HostPort: int32(8000 + 4*i + len(p.Spec.Containers))}}
			} else if r.IntN(3) == 0 {
				c.Ports = []corev1.ContainerPort{{ContainerPort: 80}}
			}
			for range r.IntN(3) {
				c.Env = append(c.Env, corev1.EnvVar{Name: fmt.Sprint("V", len(c.Env)), Value: "x"})
			}
			p.Spec.Containers = append(p.Spec.Containers, c)
		}
		for k := range r.IntN(3) {
			kind := []string{"ReplicaSet", "Job", "DaemonSet"}[r.IntN(3)]
			ref := metav1.OwnerReference{APIVersion: "apps/v1", Kind: kind, Name: fmt.Sprintf("o%d-%d", k, r.IntN(3)), UID: "u"}
			if r.IntN(3) > 0 { // else no controller field at all
				ref.Controller = new(r.IntN(2) == 0)
			}
			p.OwnerReferences = append(p.OwnerReferences, ref)
		}
	}
	return pods
}

// Load decodes every pod into one reused scratch pod per goroutine
// (resetScratch); what it converts is still what FromObjects converts
// from the same pods, on one goroutine and on two, and the ready pods a
// PodDisruptionBudget counts are the same.
func TestLoadReusesScratch(t *testing.T) {
	pods := variedPods(3*predecodeMin, 11)
	data, err := json.Marshal(corev1.PodList{TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "PodList"}, Items: pods})
	require.NoError(t, err)
	pdb := policyv1.PodDisruptionBudget{TypeMeta: metav1.TypeMeta{APIVersion: "policy/v1", Kind: "PodDisruptionBudget"},
		ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: "shop"},
		Spec:       policyv1.PodDisruptionBudgetSpec{MinAvailable: new(intstr.FromInt32(1)), Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": "web"}}}}
	pdbJSON, err := json.Marshal(pdb)
	require.NoError(t, err)
	want, err := FromObjects(Objects{Pods: pods, PodDisruptionBudgets: []policyv1.PodDisruptionBudget{pdb}})
	require.NoError(t, err)
	require.NotEmpty(t, want.Pods)
	for _, procs := range []int{1, 2} {
		t.Run(fmt.Sprint("GOMAXPROCS=", procs), func(t *testing.T) {
			defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
			got, err := Load(Source{Name: "pods.json", Data: data}, Source{Name: "pdb.json", Data: pdbJSON})
			require.NoError(t, err)
			assert.Equal(t, want.Pods, got.Pods)
			require.Len(t, got.PodDisruptionBudgets, 1)
			assert.Positive(t, want.PodDisruptionBudgets[0].DisruptionsAllowed)
			assert.Equal(t, want.PodDisruptionBudgets[0].DisruptionsAllowed, got.PodDisruptionBudgets[0].DisruptionsAllowed, "from the ready pods")
		})
	}
}
