package packing_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/nodeplan/nodeplan/packing"
)

func TestPodKeyAndIsDaemon(t *testing.T) {
	tests := []struct {
		pod    packing.Pod
		key    string
		daemon bool
	}{
		{packing.Pod{Namespace: "shop", Name: "web-0", Owner: "ReplicaSet/web-5d8f"}, "shop/web-0", false},
		{packing.Pod{Namespace: "kube-system", Name: "agent-x", Owner: "DaemonSet/agent"}, "kube-system/agent-x", true},
		{packing.Pod{Name: "bare"}, "/bare", false},
		{packing.Pod{Namespace: "a", Name: "b", Owner: "Daemonset/agent"}, "a/b", false}, // kinds are case-sensitive
	}
	for _, tc := range tests {
		t.Run(tc.key, func(t *testing.T) {
			assert.Equal(t, tc.key, tc.pod.Key())
			assert.Equal(t, tc.daemon, tc.pod.IsDaemon())
		})
	}
}
