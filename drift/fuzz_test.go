package drift_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/nodeplan/nodeplan/drift"
)

// FuzzEvaluate feeds arbitrary recorded values and labels to Evaluate and
// Commands: they must not panic, and Evaluate must be deterministic. shape
// decodes into a cluster (see decodeScenario) of forceful and budgeted
// findings, protected pods, PodDisruptionBudgets and spreads, whose command
// sequence must pass VerifyCommands.
func FuzzEvaluate(f *testing.F) {
	f.Add("ami-old", "subnet-a", "sg-1", "linux", int64(3600), "", []byte{})
	f.Add("", "", "", "", int64(0), "nodeplan-v1", []byte{3, 2, 0x30, 0, 0x28, 0x40, 0x08, 0x24, 0, 0x41, 0x07})
	f.Add("ami-x", "subnet-z", "sg-9", "windows", int64(720*3600), "v0", []byte{7, 4, 0x2b, 1, 0x89, 0x34, 0x28, 0x46, 0x05, 0x3c, 0x97, 0x10})
	f.Fuzz(func(t *testing.T, image, subnet, sg, os string, age int64, version string, shape []byte) {
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
		if msg := checkSequence(decodeScenario(shape)); msg != "" {
			t.Fatalf("shape %x: %s", shape, msg)
		}
	})
}
