package kube

import (
	"fmt"
	"os"
	"strings"
	"testing"
)

func BenchmarkLoad(b *testing.B) {
	data, err := os.ReadFile("testdata/cluster.yaml")
	if err != nil {
		b.Fatal(err)
	}
	for _, copies := range []int{1, 10} {
		src := Source{Name: "cluster.yaml", Data: []byte(strings.Repeat(string(data)+"\n---\n", copies))}
		b.Run(fmt.Sprintf("copies=%d", copies), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := Load(src); err != nil && copies == 1 {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkFromPod(b *testing.B) {
	p := decodePod(&testing.T{}, fullPod)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := FromPod(p); err != nil {
			b.Fatal(err)
		}
	}
}
