package requirements_test

import (
	"fmt"
	"testing"

	"github.com/nodeplan/nodeplan/requirements"
)

var (
	sinkBool bool
	sinkErr  error
	sinkReq  requirements.Requirement
	sinkSet  requirements.Set
)

func zones(n int) []string {
	zs := make([]string, n)
	for i := range zs {
		zs[i] = fmt.Sprintf("zone-%03d", i)
	}
	return zs
}

// benchSets returns a node-like set and a pod-like set that are compatible.
func benchSets() (node, pod requirements.Set) {
	node = requirements.NewSet(
		requirements.MustNew(requirements.LabelZone, requirements.In, zones(6)...),
		requirements.MustNew(requirements.LabelArch, requirements.In, "amd64", "arm64"),
		requirements.MustNew(requirements.LabelCapacityType, requirements.In, "on-demand", "spot"),
		requirements.MustNew(requirements.LabelInstanceCPU, requirements.Gt, "2"),
		requirements.MustNew("team", requirements.In, "ml"),
	)
	pod = requirements.NewSet(
		requirements.MustNew(requirements.LabelZone, requirements.NotIn, "zone-000"),
		requirements.MustNew(requirements.LabelInstanceCPU, requirements.In, "4", "8", "16"),
		requirements.MustNew(requirements.LabelCapacityType, requirements.In, "spot"),
		requirements.MustNew(requirements.LabelInstanceFamily, requirements.In, "m5"),
	)
	return node, pod
}

func BenchmarkSet(b *testing.B) {
	node, pod := benchSets()
	b.Run("Intersects", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			sinkErr = node.Intersects(pod)
		}
	})
	b.Run("Compatible", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			sinkErr = node.Compatible(pod)
		}
	})
	b.Run("Add", func(b *testing.B) {
		b.ReportAllocs()
		reqs := slicesOf(pod)
		for b.Loop() {
			sinkSet = node.Add(reqs...)
		}
	})
	b.Run("Get", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			sinkReq = node.Get(requirements.LabelCapacityType)
		}
	})
}

func slicesOf(s requirements.Set) []requirements.Requirement {
	var out []requirements.Requirement
	for r := range s.All() {
		out = append(out, r)
	}
	return out
}

func BenchmarkRequirement(b *testing.B) {
	for _, n := range []int{4, 64} {
		in := requirements.MustNew(requirements.LabelZone, requirements.In, zones(n)...)
		notIn := requirements.MustNew(requirements.LabelZone, requirements.NotIn, zones(n/2)...)
		b.Run(fmt.Sprintf("Has/values=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				sinkBool = in.Has("zone-001")
			}
		})
		b.Run(fmt.Sprintf("Intersect/values=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				sinkReq = in.Intersect(notIn)
			}
		})
	}
}
