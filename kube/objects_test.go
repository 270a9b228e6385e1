package kube

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	schedulingv1 "k8s.io/api/scheduling/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	karpv1 "sigs.k8s.io/karpenter/pkg/apis/v1"
)

func typedPod(name string, requests corev1.ResourceList) corev1.Pod {
	return corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "shop"},
		Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "c", Resources: corev1.ResourceRequirements{Requests: requests}}}}}
}

func typedPool(name string) karpv1.NodePool {
	return karpv1.NodePool{ObjectMeta: metav1.ObjectMeta{Name: name}}
}

// fromObjectsWithin calls FromObjects and fails the test when it does not
// return within a minute (apimachinery's quantities can take longer).
func fromObjectsWithin(t *testing.T, objs Objects) (Cluster, error) {
	t.Helper()
	type result struct {
		c   Cluster
		err error
	}
	done := make(chan result, 1)
	go func() {
		c, err := FromObjects(objs)
		done <- result{c, err}
	}()
	select {
	case r := <-done:
		return r.c, r.err
	case <-time.After(time.Minute):
		t.Fatal("FromObjects did not return within a minute")
		return Cluster{}, nil
	}
}

// TestFromObjectsErrors: a typed object gets the checks a decoded one
// gets, names included, and the error is an *ObjectError naming kind,
// namespace/name and field, in no *DocumentError.
func TestFromObjectsErrors(t *testing.T) {
	huge := *resource.NewScaledQuantity(1, 1_000_000)
	huge.Format = resource.BinarySI // its String takes a minute
	badLabels := typedPod("web", nil)
	badLabels.Labels = map[string]string{"bad key": "v"}
	node := corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: "n1", Labels: map[string]string{"a/b/c": "v"}}}
	badOp := typedPool("np")
	badOp.Spec.Template.Spec.Requirements = []karpv1.NodeSelectorRequirementWithMinValues{{Key: "k", Operator: "Near", Values: []string{"a"}}}
	badBudget := typedPool("np")
	sched := "@daily"
	badBudget.Spec.Disruption.Budgets = []karpv1.Budget{{Nodes: "1", Schedule: &sched, Duration: &metav1.Duration{Duration: -5 * time.Minute}}}
	claim := karpv1.NodeClaim{ObjectMeta: metav1.ObjectMeta{Name: "c1", Labels: map[string]string{"k": "bad value!"}}}
	volume := EC2NodeClass{Metadata: ObjectMeta{Name: "default"}, Spec: EC2NodeClassSpec{AMISelectorTerms: []SelectorTerm{{Alias: "al2023@latest"}},
		BlockDeviceMappings: []BlockDeviceMapping{{DeviceName: "/dev/xvda", EBS: &EBSVolume{VolumeSize: "1e2147483648"}}}}}
	limits := corev1.LimitRange{ObjectMeta: metav1.ObjectMeta{Name: "lr", Namespace: "shop"}, Spec: corev1.LimitRangeSpec{Limits: []corev1.LimitRangeItem{
		{Type: corev1.LimitTypeContainer, Max: corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("-1")}}}}}
	many := int32(MaxReplicas + 1)
	deploy := appsv1.Deployment{ObjectMeta: metav1.ObjectMeta{Name: "web"}, Spec: appsv1.DeploymentSpec{Replicas: &many}}
	tests := []struct {
		name                   string
		objs                   Objects
		kind, ns, object, path string
		msg                    string
	}{
		{"name", Objects{Pods: []corev1.Pod{typedPod("Web_0", nil)}}, "Pod", "shop", "Web_0", "metadata.name", "is not valid"},
		{"namespace", Objects{Pods: []corev1.Pod{{ObjectMeta: metav1.ObjectMeta{Name: "w", Namespace: "a.b"}}}}, "Pod", "a.b", "w",
			"metadata.namespace", "is not valid"},
		{"duplicate", Objects{Pods: []corev1.Pod{typedPod("web", nil), typedPod("web", nil)}}, "Pod", "shop", "web", "metadata.name",
			"the same Pod is at Pods[0]"},
		{"pod label", Objects{Pods: []corev1.Pod{badLabels}}, "Pod", "shop", "web", `metadata.labels["bad key"]`, "bad key"},
		{"node label", Objects{Nodes: []corev1.Node{node}}, "Node", "", "n1", `metadata.labels["a/b/c"]`, "a/b/c"},
		{"quantity out of range", Objects{Pods: []corev1.Pod{typedPod("web", corev1.ResourceList{corev1.ResourceCPU: *resource.NewScaledQuantity(1, 100)})}},
			"Pod", "shop", "web", "spec.containers[0].resources.requests", "out of range"},
		{"quantity far out of range", Objects{Pods: []corev1.Pod{typedPod("web", corev1.ResourceList{corev1.ResourceMemory: huge})}},
			"Pod", "shop", "web", "spec.containers[0].resources.requests", "out of range"},
		{"tiny quantity", Objects{Pods: []corev1.Pod{typedPod("web", corev1.ResourceList{corev1.ResourceCPU: *resource.NewScaledQuantity(1, -100)})}},
			"Pod", "shop", "web", "spec.containers[0].resources.requests", "out of range"},
		{"negative request", Objects{Pods: []corev1.Pod{typedPod("web", corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("-1")})}},
			"Pod", "shop", "web", "spec.containers[0].resources.requests", "negative"},
		{"requirement operator", Objects{NodePools: []karpv1.NodePool{badOp}}, KindNodePool, "", "np", "spec.template.spec.requirements[0].operator",
			"Near"},
		{"budget duration", Objects{NodePools: []karpv1.NodePool{badBudget}}, KindNodePool, "", "np", "spec.disruption.budgets[0].duration",
			`"-5m" is not a non-negative duration`},
		{"pool name not a label value", Objects{NodePools: []karpv1.NodePool{typedPool(strings.Repeat("p", 64))}}, KindNodePool, "",
			strings.Repeat("p", 64), "metadata.name", "must be a label value"},
		{"claim label", Objects{NodeClaims: []karpv1.NodeClaim{claim}}, KindNodeClaim, "", "c1", "metadata.labels.k", "bad value!"},
		{"volume size exponent", Objects{EC2NodeClasses: []EC2NodeClass{volume}}, KindEC2NodeClass, "", "default",
			"spec.blockDeviceMappings[0].ebs.volumeSize", "exponent"},
		{"limit range quantity", Objects{LimitRanges: []corev1.LimitRange{limits}}, "LimitRange", "shop", "lr", "spec.limits[0].max",
			"negative"},
		{"replicas", Objects{Deployments: []appsv1.Deployment{deploy}}, "Deployment", "default", "web", "spec.replicas", "outside"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := fromObjectsWithin(t, tc.objs)
			require.Error(t, err)
			assert.ErrorIs(t, err, ErrInvalid)
			var de *DocumentError
			assert.False(t, errors.As(err, &de), "no file: %v", err)
			var oe *ObjectError
			require.ErrorAs(t, err, &oe)
			assert.Equal(t, []string{tc.kind, tc.ns, tc.object, tc.path}, []string{oe.Kind, oe.Namespace, oe.Name, oe.Field}, "%v", err)
			assert.Contains(t, err.Error(), tc.msg)
		})
	}
}

// TestFromObjectsDuplicateKinds: the same name in two kinds, or two
// namespaces, is no duplicate; a duplicate wraps ErrDuplicate.
func TestFromObjectsDuplicateKinds(t *testing.T) {
	other := typedPod("web", nil)
	other.Namespace = "other"
	_, err := FromObjects(Objects{Pods: []corev1.Pod{typedPod("web", nil), other},
		Deployments: []appsv1.Deployment{{ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: "shop"}}}})
	require.NoError(t, err)
	_, err = FromObjects(Objects{Pods: []corev1.Pod{typedPod("web", nil), other, typedPod("api", nil), typedPod("web", nil), typedPod("api", nil)}})
	require.ErrorIs(t, err, ErrDuplicate)
	assert.EqualError(t, err, "Pod shop/web: metadata.name: duplicate: the same Pod is at Pods[0]")
	_, err = FromObjects(Objects{NodePools: []karpv1.NodePool{typedPool("a"), typedPool("b"), typedPool("a")}})
	require.ErrorIs(t, err, ErrDuplicate)
	assert.EqualError(t, err, "NodePool a: metadata.name: duplicate: the same NodePool is at NodePools[0]")
}

// TestFromObjectsKeepsObjects: FromObjects modifies nothing of its
// objects, also where a pod's volumes add to its node affinity and a
// global default PriorityClass gives it a priority.
func TestFromObjectsKeepsObjects(t *testing.T) {
	pod := typedPod("db-0", nil)
	pod.Spec.Affinity = &corev1.Affinity{NodeAffinity: &corev1.NodeAffinity{RequiredDuringSchedulingIgnoredDuringExecution: &corev1.NodeSelector{
		NodeSelectorTerms: []corev1.NodeSelectorTerm{{MatchExpressions: []corev1.NodeSelectorRequirement{
			{Key: "kubernetes.io/arch", Operator: corev1.NodeSelectorOpIn, Values: []string{"amd64"}}}}}}}}
	pod.Spec.Volumes = []corev1.Volume{{Name: "data", VolumeSource: corev1.VolumeSource{
		PersistentVolumeClaim: &corev1.PersistentVolumeClaimVolumeSource{ClaimName: "data"}}}}
	set := typedPod("db-1", nil)
	set.Spec.Priority = new(int32(5))
	objs := Objects{Pods: []corev1.Pod{pod, set},
		PersistentVolumeClaims: []corev1.PersistentVolumeClaim{{ObjectMeta: metav1.ObjectMeta{Name: "data", Namespace: "shop"},
			Spec: corev1.PersistentVolumeClaimSpec{VolumeName: "pv-1"}}},
		PersistentVolumes: []corev1.PersistentVolume{{ObjectMeta: metav1.ObjectMeta{Name: "pv-1"}, Spec: corev1.PersistentVolumeSpec{
			NodeAffinity: &corev1.VolumeNodeAffinity{Required: &corev1.NodeSelector{NodeSelectorTerms: []corev1.NodeSelectorTerm{{
				MatchExpressions: []corev1.NodeSelectorRequirement{{Key: "topology.kubernetes.io/zone", Operator: corev1.NodeSelectorOpIn,
					Values: []string{"us-east-1a"}}}}}}}}}},
		NodePools:       []karpv1.NodePool{typedPool("general")},
		PriorityClasses: []schedulingv1.PriorityClass{{ObjectMeta: metav1.ObjectMeta{Name: "normal"}, Value: 100, GlobalDefault: true}}}
	before := Objects{Pods: []corev1.Pod{*objs.Pods[0].DeepCopy(), *objs.Pods[1].DeepCopy()}, PersistentVolumeClaims: []corev1.PersistentVolumeClaim{*objs.PersistentVolumeClaims[0].DeepCopy()},
		PersistentVolumes: []corev1.PersistentVolume{*objs.PersistentVolumes[0].DeepCopy()}, NodePools: []karpv1.NodePool{*objs.NodePools[0].DeepCopy()},
		PriorityClasses: []schedulingv1.PriorityClass{*objs.PriorityClasses[0].DeepCopy()}}
	c, err := FromObjects(objs)
	require.NoError(t, err)
	require.Len(t, c.Pods, 2)
	assert.Equal(t, int32(100), c.Pods[0].Priority, "the default class's priority")
	assert.Equal(t, int32(5), c.Pods[1].Priority, "its own")
	assert.Len(t, c.Pods[0].NodeAffinity.Required, 1, "the volume's zone is required with the pod's arch")
	assert.Equal(t, before, objs)
}
