package disruption_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"

	"github.com/nodeplan/nodeplan/disruption"
	"github.com/nodeplan/nodeplan/packing"
	"github.com/nodeplan/nodeplan/requirements"
)

func TestPodBlocks(t *testing.T) {
	born := noon.Add(-10 * time.Minute)
	tests := []struct {
		name  string
		value string
		born  time.Time
		want  bool
	}{
		{"no annotation", "", born, false},
		{"true", "true", born, true},
		{"false is ignored", "false", born, false},
		{"invalid is ignored", "soon", born, false},
		{"zero is ignored", "0s", born, false},
		{"negative is ignored", "-5m", born, false},
		{"duration not elapsed", "15m", born, true},
		{"duration elapsed", "5m", born, false},
		{"duration elapsed exactly", "10m", born, false},
		{"no creation time fails safe", "5m", time.Time{}, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := packing.Pod{Namespace: "ns", Name: "p", DoNotDisrupt: tc.value, CreationTime: tc.born}
			got, why := disruption.PodBlocks(p, noon)
			assert.Equal(t, tc.want, got)
			if tc.want {
				assert.Contains(t, why, "pod ns/p")
			} else {
				assert.Empty(t, why)
			}
		})
	}
}

// TestPodBlocksTerminating: a terminating pod never blocks, whatever its
// do-not-disrupt says (Karpenter's IsDisruptable: not active).
func TestPodBlocksTerminating(t *testing.T) {
	for _, value := range []string{"true", "15m"} {
		t.Run(value, func(t *testing.T) {
			p := packing.Pod{Namespace: "ns", Name: "p", DoNotDisrupt: value, CreationTime: noon.Add(-10 * time.Minute)}
			blocked, _ := disruption.PodBlocks(p, noon)
			assert.True(t, blocked, "precondition: the running pod blocks")
			p.Terminating = true
			blocked, why := disruption.PodBlocks(p, noon)
			assert.False(t, blocked)
			assert.Empty(t, why)
		})
	}
}

func TestNodeBlocks(t *testing.T) {
	blocked, why := disruption.NodeBlocks(packing.Node{Name: "n", Annotations: map[string]string{disruption.AnnotationDoNotDisrupt: "true"}})
	assert.True(t, blocked)
	assert.Contains(t, why, "node n")
	blocked, _ = disruption.NodeBlocks(packing.Node{Name: "n", Annotations: map[string]string{disruption.AnnotationDoNotDisrupt: "1h"}})
	assert.False(t, blocked)
	blocked, _ = disruption.NodeBlocks(packing.Node{Name: "n"})
	assert.False(t, blocked)
}

func TestPDBBlocks(t *testing.T) {
	app := func(v string) requirements.Set {
		return requirements.NewSet(requirements.MustNew("app", requirements.In, v))
	}
	web := packing.Pod{Namespace: "ns", Name: "web-1", Labels: map[string]string{"app": "web"}}
	web2 := packing.Pod{Namespace: "ns", Name: "web-2", Labels: map[string]string{"app": "web"}}
	db := packing.Pod{Namespace: "ns", Name: "db-1", Labels: map[string]string{"app": "db"}}
	goingDB := db
	goingDB.Owner, goingDB.Terminating = "StatefulSet/db", true
	mirror := packing.Pod{Namespace: "ns", Name: "etcd-n1", Owner: "Node/n1", Labels: map[string]string{"app": "db"}}
	tests := []struct {
		name string
		pods []packing.Pod
		pdbs []disruption.PDB
		want string
	}{
		{"no pdbs", []packing.Pod{web}, nil, ""},
		{"allows one", []packing.Pod{web}, []disruption.PDB{{Namespace: "ns", Name: "web", Selector: app("web"), DisruptionsAllowed: 1}}, ""},
		{"per pod, not summed", []packing.Pod{web, web2}, []disruption.PDB{{Namespace: "ns", Name: "web", Selector: app("web"), DisruptionsAllowed: 1}}, ""},
		{"allows zero", []packing.Pod{db, web}, []disruption.PDB{{Namespace: "ns", Name: "web", Selector: app("web")}}, "pod ns/web-1 is protected by PodDisruptionBudget ns/web, which allows no disruptions"},
		{"other namespace", []packing.Pod{web}, []disruption.PDB{{Namespace: "other", Name: "web", Selector: app("web")}}, ""},
		{"selector does not match", []packing.Pod{db}, []disruption.PDB{{Namespace: "ns", Name: "web", Selector: app("web")}}, ""},
		{"empty selector matches all", []packing.Pod{db}, []disruption.PDB{{Namespace: "ns", Name: "all"}}, "pod ns/db-1 is protected by PodDisruptionBudget ns/all, which allows no disruptions"},
		{"a terminating pod is not evicted", []packing.Pod{goingDB}, []disruption.PDB{{Namespace: "ns", Name: "db", Selector: app("db")}}, ""},
		{"a mirror pod is not evicted", []packing.Pod{mirror}, []disruption.PDB{{Namespace: "ns", Name: "db", Selector: app("db")}}, ""},
		{"two pdbs", []packing.Pod{web}, []disruption.PDB{
			{Namespace: "ns", Name: "a", Selector: app("web"), DisruptionsAllowed: 5},
			{Namespace: "ns", Name: "b", DisruptionsAllowed: 5},
		}, "pod ns/web-1 is matched by more than one PodDisruptionBudget (ns/a, ns/b)"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			blocked, why := disruption.PDBBlocks(tc.pods, tc.pdbs)
			assert.Equal(t, tc.want != "", blocked)
			assert.Equal(t, tc.want, why)
		})
	}
}

func TestEvictionCostAndOrder(t *testing.T) {
	assert.Equal(t, 0.0, disruption.EvictionCost(nil))
	assert.Equal(t, 2.0, disruption.EvictionCost([]packing.Pod{{}, {}}))
	assert.InDelta(t, 1.5, disruption.PodCost(packing.Pod{DeletionCost: 1 << 26}), 1e-9)
	assert.InDelta(t, 3.0, disruption.PodCost(packing.Pod{Priority: 1 << 26}), 1e-9)
	assert.Equal(t, 10.0, disruption.PodCost(packing.Pod{Priority: 1_000_000_000}))
	assert.Equal(t, -10.0, disruption.PodCost(packing.Pod{Priority: -2147483648}))

	nodes := []packing.Node{
		{Name: "c", Pods: []packing.Pod{{}, {}}},
		{Name: "b", Pods: []packing.Pod{{}}},
		{Name: "a", Pods: []packing.Pod{{}, {}}},
		{Name: "empty"},
		{Name: "vip", Pods: []packing.Pod{{Priority: 1 << 28}}},
	}
	assert.Equal(t, []int{3, 1, 2, 0, 4}, disruption.Order(nodes))
	assert.Equal(t, "c", nodes[0].Name, "input untouched")
}

func TestLifetimeRemaining(t *testing.T) {
	pool := packing.NodePool{Disruption: packing.Disruption{ExpireAfter: 10 * time.Hour}}
	n := packing.Node{CreationTime: noon.Add(-4 * time.Hour)}
	assert.InDelta(t, 0.6, disruption.LifetimeRemaining(n, pool, noon), 1e-9)
	assert.Equal(t, 0.0, disruption.LifetimeRemaining(packing.Node{CreationTime: noon.Add(-20 * time.Hour)}, pool, noon))
	assert.Equal(t, 1.0, disruption.LifetimeRemaining(packing.Node{}, pool, noon))
	assert.InDelta(t, 0.5, disruption.LifetimeRemaining(packing.Node{CreationTime: noon.Add(-360 * time.Hour)}, packing.NodePool{}, noon), 1e-9)
	assert.Equal(t, 1.0, disruption.LifetimeRemaining(n, packing.NodePool{Disruption: packing.Disruption{ExpireNever: true}}, noon))
}
