package drift_test

import (
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/nodeplan/nodeplan/drift"
)

// FuzzEvaluate feeds arbitrary recorded values and labels to Evaluate and
// Commands: they must not panic, Evaluate must be deterministic, and
// Commands must return an ErrInvalid error exactly when Cluster.Validate
// rejects the cluster (a label value Kubernetes does not allow), and then
// nothing else. shape
// decodes into a cluster (see decodeScenario) of forceful and budgeted
// findings, protected pods, PodDisruptionBudgets and spreads, whose command
// sequence must pass VerifyCommands.
func FuzzEvaluate(f *testing.F) {
	f.Add("ami-old", "subnet-a", "sg-1", "linux", int64(3600), "", []byte{})
	f.Add("", "", "", "", int64(0), "nodeplan-v1", []byte{3, 2, 0x30, 0, 0x28, 0x40, 0x08, 0x24, 0, 0x41, 0x07})
	f.Add("ami-x", "subnet-z", "sg-9", "windows", int64(720*3600), "v0", []byte{7, 4, 0x2b, 1, 0x89, 0x34, 0x28, 0x46, 0x05, 0x3c, 0x97, 0x10})
	// Eventual disruption: a drifted node in a pool with a
	// terminationGracePeriod, whose pod has do-not-disrupt, then whose pod
	// is under a PodDisruptionBudget allowing 0.
	f.Add("ami-old", "subnet-a", "sg-1", "linux", int64(3600), "", []byte{1, 4, 0x04, 0x44, 0x00, 0x08, 0x00, 0x00, 0x00})
	f.Add("ami-old", "subnet-a", "sg-1", "linux", int64(3600), "", []byte{1, 4, 0x14, 0x00, 0x44, 0x00, 0x01, 0x00, 0x00, 0x00})
	f.Fuzz(func(t *testing.T, image, subnet, sg, os string, age int64, version string, shape []byte) {
		s := state("n1", pod("p", "100m"))
		s.Image, s.Subnet, s.SecurityGroups = image, subnet, []string{sg}
		s.Node.Labels["kubernetes.io/os"] = os
		s.NodePoolHashVersion = version
		in := input(s, state("spare"))
		at := t0.Add(time.Duration(age%(1<<40)) * time.Second)
		a, b := evaluate(t, in, at), evaluate(t, in, at)
		if fmt.Sprint(a) != fmt.Sprint(b) {
			t.Fatalf("not deterministic: %v vs %v", a, b)
		}
		cl := drift.Cluster{Input: in}
		cmds, blocked, err := drift.Commands(a, clusterAt(cl, at))
		if (err != nil) != (cl.Validate() != nil) || (err != nil && (!errors.Is(err, drift.ErrInvalid) || cmds != nil || blocked != nil)) {
			t.Fatalf("Commands on a cluster Validate says %v: %v, %v, %v", cl.Validate(), err, cmds, blocked)
		}
		if msg := checkSequence(decodeScenario(shape)); msg != "" {
			t.Fatalf("shape %x: %s", shape, msg)
		}
	})
}
