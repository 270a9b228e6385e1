package drift_test

import (
	"fmt"
	"maps"
	"testing"
	"time"

	"github.com/nodeplan/nodeplan/drift"
)

// benchInput has n nodes over ten NodePools; one in ten has drifted in some
// way (image, hash, requirement) and about one in a hundred has expired.
func benchInput(n int) drift.Input {
	in := input()
	base := in.NodePools[0]
	in.NodePools = nil
	for p := range 10 {
		t := base
		t.NodePool.Name = fmt.Sprintf("pool-%d", p)
		in.NodePools = append(in.NodePools, t)
	}
	for i := range n {
		s := state(fmt.Sprintf("node-%05d", i))
		s.Node.NodePool = fmt.Sprintf("pool-%d", i%10)
		s.Node.Labels = maps.Clone(s.Node.Labels)
		s.Node.Labels["karpenter.sh/nodepool"] = s.Node.NodePool
		s.NodePoolHash = in.NodePools[i%10].Hash()
		s.Node.CreationTime = t0.Add(time.Duration(i%1000) * time.Hour)
		switch i % 10 {
		case 1:
			s.Image = "ami-ancient"
		case 2:
			s.NodePoolHash = "0123456789abcdef"
		case 3:
			s.Node.Labels["kubernetes.io/os"] = "windows"
		}
		in.Nodes = append(in.Nodes, s)
	}
	return in
}

func BenchmarkEvaluate(b *testing.B) {
	for _, n := range []int{100, 10000} {
		in := benchInput(n)
		at := t0.Add(730 * time.Hour)
		b.Run(fmt.Sprintf("nodes=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := drift.Evaluate(inputAt(in, at)); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkHash(b *testing.B) {
	t := template("p")
	b.ReportAllocs()
	for b.Loop() {
		_ = t.Hash()
	}
}

func BenchmarkCommands(b *testing.B) {
	cl := drift.Cluster{Input: benchInput(200)}
	at := t0.Add(2 * time.Hour)
	f, err := drift.Evaluate(inputAt(cl.Input, at))
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, _, err := drift.Commands(f, clusterAt(cl, at)); err != nil {
			b.Fatal(err)
		}
	}
}
