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
