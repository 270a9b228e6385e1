package kube_test

import (
	"fmt"

	"github.com/nodeplan/nodeplan/kube"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
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
