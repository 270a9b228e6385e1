package kube

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/nodeplan/nodeplan/kube/internal/podlists"
	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/yaml"
)

// podList and leanPodList are podlists' Rich and Lean.
var podList, leanPodList = podlists.Rich, podlists.Lean

// BenchmarkLoadPods loads a generated pod list of 1,000, 5,000 and
// 100,000 pods as kubectl prints them (podList: 1.7 kB a pod, 174 MB of
// JSON at 100,000), and of 5,000 and 100,000 lean pods (leanPodList: 49
// MB, 47 MiB, of JSON at 100,000), as JSON and as YAML.
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
	loopPods(b, n, func() (Cluster, error) { return Load(src) })
}

// loopPods times build, which gives a cluster of n pending pods, and
// reports its allocations and pods a second.
func loopPods(b *testing.B, n int, build func() (Cluster, error)) {
	b.ReportAllocs()
	for b.Loop() {
		c, err := build()
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
// it: no decoding. The admitted rows give every pod spec.priority, as the
// API server's admission does, so a live read's pods have it.
func BenchmarkFromObjects(b *testing.B) {
	for _, admitted := range []bool{false, true} {
		for _, n := range []int{1000, 5000} {
			name := fmt.Sprintf("pods=%d", n)
			if admitted {
				name = "admitted/" + name
			}
			benchmarkFromObjects(b, name, n, admitted)
		}
	}
}

// benchmarkFromObjects runs one row of BenchmarkFromObjects.
func benchmarkFromObjects(b *testing.B, name string, n int, admitted bool) {
	var list corev1.PodList
	if err := json.Unmarshal(podList(n), &list); err != nil {
		b.Fatal(err)
	}
	if admitted {
		for i := range list.Items {
			list.Items[i].Spec.Priority = new(int32(0))
		}
	}
	objs := Objects{Pods: list.Items}
	b.Run(name, func(b *testing.B) {
		loopPods(b, n, func() (Cluster, error) { return FromObjects(objs) })
	})
}
