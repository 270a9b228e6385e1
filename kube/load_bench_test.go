package kube

import (
	"encoding/json"
	"fmt"
	"testing"

	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/yaml"
)

// podList is a kind List of n pending pods as kubectl get pods -o json
// prints them: a ReplicaSet owner, labels, two containers with requests,
// limits, ports and env, tolerations, a nodeSelector, preferred pod
// anti-affinity, a zone spread and a Pending status. The same n gives the
// same bytes.
func podList(n int) []byte {
	items := make([]any, n)
	for i := range items {
		items[i] = map[string]any{
			"apiVersion": "v1", "kind": "Pod",
			"metadata": map[string]any{
				"name": fmt.Sprintf("web-5d8f9c7b6-%05d", i), "namespace": "shop",
				"uid":               fmt.Sprintf("0c3f5e2a-1b2c-4d5e-8f90-%012d", i),
				"creationTimestamp": "2025-06-01T10:00:00Z",
				"labels":            map[string]any{"app": "web", "tier": "frontend", "pod-template-hash": "5d8f9c7b6"},
				"annotations":       map[string]any{"prometheus.io/scrape": "true", "prometheus.io/port": "9090"},
				"ownerReferences": []any{map[string]any{"apiVersion": "apps/v1", "kind": "ReplicaSet", "name": "web-5d8f9c7b6",
					"uid": "7a1b2c3d-0000-4000-8000-000000000001", "controller": true, "blockOwnerDeletion": true}},
			},
			"spec": map[string]any{
				"containers": []any{
					container("web", "nginx:1.27", "500m", "512Mi", "1", "1Gi", 8080),
					container("sidecar", "envoyproxy/envoy:v1.31", "100m", "128Mi", "200m", "256Mi", 9090),
				},
				"nodeSelector":                  map[string]any{"kubernetes.io/os": "linux"},
				"tolerations":                   []any{map[string]any{"key": "dedicated", "operator": "Equal", "value": "web", "effect": "NoSchedule"}},
				"terminationGracePeriodSeconds": 30,
				"affinity": map[string]any{"podAntiAffinity": map[string]any{"preferredDuringSchedulingIgnoredDuringExecution": []any{
					map[string]any{"weight": 100, "podAffinityTerm": map[string]any{"topologyKey": "kubernetes.io/hostname",
						"labelSelector": map[string]any{"matchLabels": map[string]any{"app": "web"}}}}}}},
				"topologySpreadConstraints": []any{map[string]any{"maxSkew": 1, "topologyKey": "topology.kubernetes.io/zone",
					"whenUnsatisfiable": "ScheduleAnyway", "labelSelector": map[string]any{"matchLabels": map[string]any{"app": "web"}}}},
			},
			"status": map[string]any{"phase": "Pending", "qosClass": "Burstable",
				"conditions": []any{map[string]any{"type": "PodScheduled", "status": "False", "reason": "Unschedulable"}}},
		}
	}
	data, err := json.Marshal(map[string]any{"apiVersion": "v1", "kind": "List", "items": items})
	if err != nil {
		panic(err)
	}
	return data
}

func container(name, image, cpu, mem, cpuLimit, memLimit string, port int) map[string]any {
	return map[string]any{"name": name, "image": image,
		"ports": []any{map[string]any{"containerPort": port, "protocol": "TCP"}},
		"env":   []any{map[string]any{"name": "LOG_LEVEL", "value": "info"}, map[string]any{"name": "PORT", "value": fmt.Sprint(port)}},
		"resources": map[string]any{"requests": map[string]any{"cpu": cpu, "memory": mem},
			"limits": map[string]any{"cpu": cpuLimit, "memory": memLimit}}}
}

// leanPodList is a kind List of n pending pods with what a pod needs
// and little else: a ReplicaSet owner, two labels, one container with
// requests, a Pending phase; about 470 bytes a pod, so 100,000 pods are
// 47 MB of JSON, the manifest issue 19 measures. The same n gives the
// same bytes.
func leanPodList(n int) []byte {
	items := make([]any, n)
	for i := range items {
		items[i] = map[string]any{
			"apiVersion": "v1", "kind": "Pod",
			"metadata": map[string]any{
				"name": fmt.Sprintf("web-5d8f9c7b6-%05d", i), "namespace": "shop",
				"uid":    fmt.Sprintf("0c3f5e2a-1b2c-4d5e-8f90-%012d", i),
				"labels": map[string]any{"app": "web", "pod-template-hash": "5d8f9c7b6"},
				"ownerReferences": []any{map[string]any{"apiVersion": "apps/v1", "kind": "ReplicaSet", "name": "web-5d8f9c7b6",
					"uid": "7a1b2c3d-0000-4000-8000-000000000001", "controller": true}},
			},
			"spec": map[string]any{"containers": []any{map[string]any{"name": "web", "image": "nginx:1.27",
				"resources": map[string]any{"requests": map[string]any{"cpu": "500m", "memory": "512Mi"}}}}},
			"status": map[string]any{"phase": "Pending"},
		}
	}
	data, err := json.Marshal(map[string]any{"apiVersion": "v1", "kind": "List", "items": items})
	if err != nil {
		panic(err)
	}
	return data
}

// BenchmarkLoadPods loads a generated pod list of 1,000, 5,000 and
// 100,000 pods as kubectl prints them (podList: 1.7 kB a pod, 174 MB of
// JSON at 100,000), and of 5,000 and 100,000 lean pods (leanPodList: 47
// MB of JSON at 100,000), as JSON and as YAML.
func BenchmarkLoadPods(b *testing.B) {
	for _, format := range []string{"json", "yaml"} {
		for _, n := range []int{1000, 5000, 100_000} {
			b.Run(fmt.Sprintf("format=%s/pods=%d", format, n), func(b *testing.B) {
				benchmarkLoad(b, format, n, podList)
			})
		}
		for _, n := range []int{5000, 100_000} {
			b.Run(fmt.Sprintf("lean/format=%s/pods=%d", format, n), func(b *testing.B) {
				benchmarkLoad(b, format, n, leanPodList)
			})
		}
	}
}

// benchmarkLoad loads the list of n pods list builds, in the format.
func benchmarkLoad(b *testing.B, format string, n int, list func(int) []byte) {
	data := list(n) // here, so that a run of other sizes does not build it
	if format == "yaml" {
		var err error
		if data, err = yaml.JSONToYAML(data); err != nil {
			b.Fatal(err)
		}
	}
	src := Source{Name: "pods." + format, Data: data}
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		c, err := Load(src)
		if err != nil {
			b.Fatal(err)
		}
		if len(c.Pods) != n {
			b.Fatalf("%d pods, want %d", len(c.Pods), n)
		}
	}
	b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "pods/s")
}

// BenchmarkFromObjects builds the snapshot of BenchmarkLoadPods' pod lists
// from typed pods, as a controller with informers (or a live read) calls
// it: no decoding.
func BenchmarkFromObjects(b *testing.B) {
	for _, n := range []int{1000, 5000} {
		var list corev1.PodList
		if err := json.Unmarshal(podList(n), &list); err != nil {
			b.Fatal(err)
		}
		objs := Objects{Pods: list.Items}
		b.Run(fmt.Sprintf("pods=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				c, err := FromObjects(objs)
				if err != nil {
					b.Fatal(err)
				}
				if len(c.Pods) != n {
					b.Fatalf("%d pods, want %d", len(c.Pods), n)
				}
			}
			b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "pods/s")
		})
	}
}
