package buffer_test

import (
	"fmt"
	"testing"

	"github.com/nodeplan/nodeplan/buffer"
	"github.com/nodeplan/nodeplan/packing"
	"github.com/nodeplan/nodeplan/resources"
)

// BenchmarkEvaluate evaluates a percentage buffer with limits and builds
// its pods, for buffers of growing size.
func BenchmarkEvaluate(b *testing.B) {
	for _, n := range []int32{10, 1000} {
		b.Run(fmt.Sprintf("replicas=%d", n), func(b *testing.B) {
			buf := buffer.Buffer{Namespace: "default", Name: "cb", Percentage: 100, HasPercentage: true,
				Scalable: &buffer.ScalableRef{Kind: "Deployment", Name: "d"},
				Limits:   map[resources.Name]int64{resources.CPU: int64(n) * 1000, resources.Memory: 1 << 50}}
			ws := buffer.Workloads{{Kind: buffer.Deployment, Namespace: "default", Name: "d"}: {
				Template: packing.Pod{Requests: resources.List{CPU: 1000, Memory: 1 << 30}}, Replicas: n, HasReplicas: true}}
			b.ReportAllocs()
			for b.Loop() {
				r := buffer.Evaluate(buf, ws)
				if len(r.Pods()) != int(n) {
					b.Fatal("wrong count")
				}
			}
		})
	}
}
