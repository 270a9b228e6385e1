package main

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestReschedulablePods runs the command on cluster dumps where the pods
// that stay with their node decide the answer: a running DaemonSet pod
// counts once on its node (and only for the DaemonSet of its namespace),
// and terminating and mirror pods neither move nor keep a node from being
// empty (Karpenter's IsReschedulable).
func TestReschedulablePods(t *testing.T) {
	const dir = "../../testdata/reschedulable/"
	tests := []struct {
		name      string
		args      []string
		want, not []string
	}{
		{"a running daemonset pod is counted once", []string{"provision", "-f", dir + "daemonset-double.yaml"},
			[]string{"0 new nodes, 1 pod scheduled, 0 unschedulable", "n1    existing"}, []string{"new       default"}},
		{"a daemonset of the same name in another namespace keeps its room", []string{"provision", "-f", dir + "daemonset-namespaces.yaml"},
			[]string{"1 new node, 1 pod scheduled, 0 unschedulable"}, nil},
		{"consolidation counts a running daemonset pod once", []string{"consolidate", "-f", dir + "daemonset-consolidate.yaml"},
			[]string{"Underutilized  SingleNode  delete    ip-192-168-10-11.ec2.internal  -             0.096000",
				"1 command: delete 1 node, launch 0: saves 0.096000 USD/hour"}, []string{"replace"}},
		{"a node with only a terminating pod is empty", []string{"consolidate", "-f", dir + "terminating.yaml", "--now", "2025-02-01T00:00:00Z"},
			[]string{"Empty   Emptiness  delete    n2          -             0.096000",
				"1 command: delete 1 node, launch 0: saves 0.096000 USD/hour"}, []string{"default/b", "replace"}},
		{"drift deletes the node with only a terminating pod first, moving nothing", []string{"drift", "-f", dir + "terminating.yaml", "--now", "2025-02-01T00:00:00Z"},
			[]string{"1  n2    Expired  true      -         -", "2  default/a  n1    n1-replacement-1"}, []string{"default/b"}},
		{"a node with only a mirror pod is empty", []string{"consolidate", "-f", dir + "mirror.yaml"},
			[]string{"Empty   Emptiness  delete    ip-192-168-10-12.ec2.internal  -             0.096000"}, []string{"default/app-0", "static-proxy"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			require.Equal(t, exitOK, run(tc.args, nil, &stdout, &stderr), "stderr: %s", stderr.String())
			for _, s := range tc.want {
				assert.Contains(t, stdout.String(), s)
			}
			for _, s := range tc.not {
				assert.NotContains(t, stdout.String(), s)
			}
		})
	}
}
