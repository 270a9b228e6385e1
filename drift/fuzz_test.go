package drift_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/nodeplan/nodeplan/drift"
)

// FuzzEvaluate feeds arbitrary recorded values and labels to Evaluate and
// Commands: they must not panic, and Evaluate must be deterministic.
func FuzzEvaluate(f *testing.F) {
	f.Add("ami-old", "subnet-a", "sg-1", "linux", int64(3600), "")
	f.Add("", "", "", "", int64(0), "nodeplan-v1")
	f.Add("ami-x", "subnet-z", "sg-9", "windows", int64(720*3600), "v0")
	f.Fuzz(func(t *testing.T, image, subnet, sg, os string, age int64, version string) {
		s := state("n1", pod("p", "100m"))
		s.Image, s.Subnet, s.SecurityGroups = image, subnet, []string{sg}
		s.Node.Labels["kubernetes.io/os"] = os
		s.NodePoolHashVersion = version
		in := input(s, state("spare"))
		at := t0.Add(time.Duration(age%(1<<40)) * time.Second)
		a, b := drift.Evaluate(in, at), drift.Evaluate(in, at)
		if fmt.Sprint(a) != fmt.Sprint(b) {
			t.Fatalf("not deterministic: %v vs %v", a, b)
		}
		drift.Commands(a, drift.Cluster{Input: in}, at)
	})
}
