// Package podlists generates the pod lists kube's load benchmarks and
// the loadtime command read: kind List documents of n pending pods, as
// `kubectl get pods -o json` prints them (Rich) or with little more than
// a pod needs (Lean).
package podlists

import (
	"encoding/json"
	"fmt"
)

// Rich is a kind List of n pending pods as kubectl get pods -o json
// prints them: a ReplicaSet owner, labels, two containers with requests,
// limits, ports and env, tolerations, a nodeSelector, preferred pod
// anti-affinity, a zone spread and a Pending status; about 1.7 kB a pod,
// so 100,000 pods are 174 MB of JSON. The same n gives the same bytes.
func Rich(n int) []byte {
	return list(n, func(i int) map[string]any {
		return map[string]any{
			"apiVersion": "v1", "kind": "Pod",
			"metadata": named(i, map[string]any{
				"creationTimestamp": "2025-06-01T10:00:00Z",
				"labels":            map[string]any{"app": "web", "tier": "frontend", "pod-template-hash": "5d8f9c7b6"},
				"annotations":       map[string]any{"prometheus.io/scrape": "true", "prometheus.io/port": "9090"},
				"ownerReferences": []any{map[string]any{"apiVersion": "apps/v1", "kind": "ReplicaSet", "name": "web-5d8f9c7b6",
					"uid": "7a1b2c3d-0000-4000-8000-000000000001", "controller": true, "blockOwnerDeletion": true}},
			}),
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
	})
}

// Lean is a kind List of n pending pods with what a pod needs and little
// else: a ReplicaSet owner, two labels, one container with requests, a
// Pending phase; about 490 bytes a pod, so 100,000 pods are 49 MB (47
// MiB) of JSON, the size of the manifest issue 19 measures. The same n
// gives the same bytes.
func Lean(n int) []byte {
	return list(n, func(i int) map[string]any {
		return map[string]any{
			"apiVersion": "v1", "kind": "Pod",
			"metadata": named(i, map[string]any{
				"labels": map[string]any{"app": "web", "pod-template-hash": "5d8f9c7b6"},
				"ownerReferences": []any{map[string]any{"apiVersion": "apps/v1", "kind": "ReplicaSet", "name": "web-5d8f9c7b6",
					"uid": "7a1b2c3d-0000-4000-8000-000000000001", "controller": true}},
			}),
			"spec": map[string]any{"containers": []any{map[string]any{"name": "web", "image": "nginx:1.27",
				"resources": map[string]any{"requests": map[string]any{"cpu": "500m", "memory": "512Mi"}}}}},
			"status": map[string]any{"phase": "Pending"},
		}
	})
}

// list is the JSON of a kind List of the n pods pod makes.
func list(n int, pod func(i int) map[string]any) []byte {
	items := make([]any, n)
	for i := range items {
		items[i] = pod(i)
	}
	data, err := json.Marshal(map[string]any{"apiVersion": "v1", "kind": "List", "items": items})
	if err != nil {
		panic(err) // maps of strings, numbers and bools always marshal
	}
	return data
}

// named adds the name, namespace and uid of pod i to its metadata.
func named(i int, meta map[string]any) map[string]any {
	meta["name"], meta["namespace"] = fmt.Sprintf("web-5d8f9c7b6-%05d", i), "shop"
	meta["uid"] = fmt.Sprintf("0c3f5e2a-1b2c-4d5e-8f90-%012d", i)
	return meta
}

func container(name, image, cpu, mem, cpuLimit, memLimit string, port int) map[string]any {
	return map[string]any{"name": name, "image": image,
		"ports": []any{map[string]any{"containerPort": port, "protocol": "TCP"}},
		"env":   []any{map[string]any{"name": "LOG_LEVEL", "value": "info"}, map[string]any{"name": "PORT", "value": fmt.Sprint(port)}},
		"resources": map[string]any{"requests": map[string]any{"cpu": cpu, "memory": mem},
			"limits": map[string]any{"cpu": cpuLimit, "memory": memLimit}}}
}
