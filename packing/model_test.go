package packing_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/nodeplan/nodeplan/instancetypes"
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

func TestPoolCatalog(t *testing.T) {
	shared, own := buildCatalog(t, defaultTypes()), buildCatalog(t, fakeIts(2))
	p := packing.Problem{Catalog: shared, NodePools: []packing.NodePool{{Name: "a"}, {Name: "b", Catalog: own}, {Name: "a", Catalog: own}}}
	tests := []struct {
		name string
		got  *instancetypes.Catalog
		want *instancetypes.Catalog
	}{
		{"a pool without a catalog uses the problem's", p.PoolCatalog(&p.NodePools[0]), shared},
		{"a pool with its own uses it", p.PoolCatalog(&p.NodePools[1]), own},
		{"no pool", p.PoolCatalog(nil), shared},
		{"by name", p.CatalogOf("b"), own},
		{"by name, the first pool of the name", p.CatalogOf("a"), shared},
		{"an unknown name", p.CatalogOf("c"), shared},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) { assert.Same(t, tc.want, tc.got) })
	}
}

func TestDaemonSetOwns(t *testing.T) {
	ds := packing.DaemonSet{Namespace: "kube-system", Name: "logs"}
	tests := []struct {
		name string
		pod  packing.Pod
		want bool
	}{
		{"its pod", packing.Pod{Namespace: "kube-system", Name: "logs-x", Owner: "DaemonSet/logs"}, true},
		{"a daemonset of the same name in another namespace", packing.Pod{Namespace: "monitoring", Name: "logs-x", Owner: "DaemonSet/logs"}, false},
		{"another daemonset", packing.Pod{Namespace: "kube-system", Name: "proxy-x", Owner: "DaemonSet/logs-2"}, false},
		{"a name that ends like it", packing.Pod{Namespace: "kube-system", Name: "x", Owner: "DaemonSet/my-logs"}, false},
		{"another kind of the same name", packing.Pod{Namespace: "kube-system", Name: "logs-x", Owner: "ReplicaSet/logs"}, false},
		{"the namespaced name as the owner", packing.Pod{Namespace: "kube-system", Name: "logs-x", Owner: "DaemonSet/kube-system/logs"}, false},
		{"no owner", packing.Pod{Namespace: "kube-system", Name: "logs"}, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, ds.Owns(&tc.pod))
		})
	}
	assert.True(t, (&packing.DaemonSet{Name: "logs"}).Owns(&packing.Pod{Owner: "DaemonSet/logs"}), "the zero namespace owns the zero namespace's pods")
	assert.Equal(t, "kube-system/logs", ds.Key())
	assert.Equal(t, "logs", (&packing.DaemonSet{Name: "logs"}).Key())
}

func TestPodReschedulable(t *testing.T) {
	tests := []struct {
		name string
		pod  packing.Pod
		want bool
	}{
		{"a Deployment's pod", packing.Pod{Owner: "ReplicaSet/web-5d8f"}, true},
		{"a bare pod", packing.Pod{}, true},
		{"a daemonset pod stays", packing.Pod{Owner: "DaemonSet/logs"}, false},
		{"a mirror pod stays", packing.Pod{Owner: "Node/n1"}, false},
		{"a terminating pod stays", packing.Pod{Owner: "ReplicaSet/web-5d8f", Terminating: true}, false},
		{"a terminating bare pod stays", packing.Pod{Terminating: true}, false},
		{"a terminating StatefulSet pod moves", packing.Pod{Owner: "StatefulSet/db", Terminating: true}, true},
		{"a StatefulSet pod moves", packing.Pod{Owner: "StatefulSet/db"}, true},
		{"a terminating daemonset pod stays", packing.Pod{Owner: "DaemonSet/logs", Terminating: true}, false},
		{"kinds are case-sensitive", packing.Pod{Owner: "node/n1"}, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, tc.pod.Reschedulable())
			assert.Equal(t, tc.pod.Owner == "Node/n1", tc.pod.IsMirror())
		})
	}
}
