package kube_test

import (
	"fmt"
	"time"

	"github.com/nodeplan/nodeplan/kube"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	karpv1 "sigs.k8s.io/karpenter/pkg/apis/v1"
)

func container(cpu string) corev1.Container {
	return corev1.Container{Resources: corev1.ResourceRequirements{
		Requests: corev1.ResourceList{corev1.ResourceCPU: resource.MustParse(cpu)}}}
}

// A sidecar (an init container with restartPolicy Always) runs beside the
// app and is added to it; an ordinary init container after it runs with
// the sidecar, before the app starts.
func ExampleEffectiveRequests() {
	always := corev1.ContainerRestartPolicyAlways
	proxy := container("250m")
	proxy.RestartPolicy = &always
	spec := corev1.PodSpec{
		InitContainers: []corev1.Container{proxy, container("2")},
		Containers:     []corev1.Container{container("1")},
	}
	r, err := kube.EffectiveRequests(&spec)
	fmt.Println(r, err)
	// Output: cpu=2250m <nil>
}

func ExampleLoad() {
	c, err := kube.Load(kube.Source{Name: "app.yaml", Data: []byte(`
apiVersion: apps/v1
kind: StatefulSet
metadata: {name: db, namespace: shop}
spec:
  replicas: 2
  template:
    spec:
      containers: [{name: db, resources: {requests: {cpu: "1", memory: 4Gi}}}]
---
apiVersion: v1
kind: ConfigMap
metadata: {name: settings}
`)})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, p := range c.Pods {
		fmt.Println(p.Namespace+"/"+p.Name, p.Requests)
	}
	fmt.Println(c.Warnings)
	// Output:
	// shop/db-0 cpu=1 memory=4Gi
	// shop/db-1 cpu=1 memory=4Gi
	// [skipped 1 object of a kind nodeplan does not read: ConfigMap ×1]
}

// A controller builds the snapshot from its informers' objects. A nil
// NillableDuration is Never, as in Karpenter (the API server gives an
// absent expireAfter and consolidateAfter the CRD's defaults, 720h and
// 0s). An error names the object and field, with no file.
func ExampleFromObjects() {
	replicas := int32(2)
	web := appsv1.Deployment{ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: "shop"}, Spec: appsv1.DeploymentSpec{
		Replicas: &replicas, Template: corev1.PodTemplateSpec{Spec: corev1.PodSpec{Containers: []corev1.Container{container("500m")}}}}}
	expire := 720 * time.Hour
	pool := karpv1.NodePool{ObjectMeta: metav1.ObjectMeta{Name: "general"}}
	pool.Spec.Template.Spec.ExpireAfter = karpv1.NillableDuration{Duration: &expire}
	c, err := kube.FromObjects(kube.Objects{Deployments: []appsv1.Deployment{web}, NodePools: []karpv1.NodePool{pool}})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, p := range c.Pods {
		fmt.Println(p.Namespace+"/"+p.Name, p.Requests)
	}
	np, _ := kube.FromNodePool(&c.NodePools[0])
	fmt.Println(np.Name, np.Disruption.ExpireAfter, np.Disruption.ConsolidateNever)

	pool.Spec.Weight = new(int32(101))
	_, err = kube.FromObjects(kube.Objects{NodePools: []karpv1.NodePool{pool}})
	fmt.Println(err)
	// Output:
	// shop/web-0 cpu=500m
	// shop/web-1 cpu=500m
	// general 720h0m0s true
	// NodePool general: spec.weight: 101 is outside 1..100
}
