package packing

import (
	"maps"
	"reflect"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nodeplan/nodeplan/instancetypes"
	"github.com/nodeplan/nodeplan/requirements"
)

// TestNodeLabels: nodeLabels reads a node by the rule of labels.go, never
// modifies the node's labels, and returns the node's own map, without
// allocating, exactly when that map already is the answer (only stable
// keys, and a label for every field that stands for one).
func TestNodeLabels(t *testing.T) {
	const betaZone = "failure-domain.beta.kubernetes.io/zone"
	full := func(extra map[string]string) map[string]string {
		l := map[string]string{requirements.LabelHostname: "n", requirements.LabelZone: "a",
			requirements.LabelInstanceType: "m5.large", requirements.LabelNodePool: "p", requirements.LabelCapacityType: "spot"}
		maps.Copy(l, extra)
		return l
	}
	fielded := Node{Name: "n", Zone: "a", InstanceType: "m5.large", NodePool: "p", CapacityType: instancetypes.Spot}
	betaOnly := full(map[string]string{betaZone: "b"})
	delete(betaOnly, requirements.LabelZone)
	with := func(n Node, labels map[string]string) Node { n.Labels = labels; return n }
	tests := []struct {
		name string
		node Node
		want map[string]string
		own  bool // the result is node.Labels itself
	}{
		{"no labels, no fields", Node{}, map[string]string{}, true},
		{"fields only", fielded, full(nil), false},
		{"labels for every field", with(fielded, full(map[string]string{"team": "x"})), full(map[string]string{"team": "x"}), true},
		{"a label wins over its field", with(fielded, full(map[string]string{requirements.LabelZone: "b"})),
			full(map[string]string{requirements.LabelZone: "b"}), true},
		{"one field without its label", with(fielded, map[string]string{requirements.LabelHostname: "n", requirements.LabelZone: "a",
			requirements.LabelInstanceType: "m5.large", requirements.LabelNodePool: "p"}), full(nil), false},
		{"no capacity type without an instance type", Node{Name: "n", CapacityType: instancetypes.Spot,
			Labels: map[string]string{requirements.LabelHostname: "n"}}, map[string]string{requirements.LabelHostname: "n"}, true},
		{"a beta label alone", with(fielded, betaOnly), full(map[string]string{requirements.LabelZone: "b"}), false},
		{"beta and stable labels", with(fielded, full(map[string]string{betaZone: "b"})), full(nil), false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			before := maps.Clone(tc.node.Labels)
			got := nodeLabels(&tc.node)
			assert.True(t, maps.Equal(tc.want, got), "labels = %v; want %v", got, tc.want)
			assert.Equal(t, before, tc.node.Labels, "the node's labels were modified")
			assert.Equal(t, tc.own, sameMap(got, tc.node.Labels), "result is the node's own map")
			if tc.own {
				allocs := testing.AllocsPerRun(100, func() { _ = nodeLabels(&tc.node) })
				assert.Zero(t, allocs, "allocs = %v; want 0", allocs)
			}
		})
	}
}

// TestPassesShareNodeLabels: a node's labels are read once per solve, and
// every pass reads that one map (they do not change between passes).
func TestPassesShareNodeLabels(t *testing.T) {
	p := Problem{NodePools: []NodePool{{Name: "p"}}, Catalog: instancetypes.KarpenterDiverse(), Nodes: []Node{
		{Name: "b", Zone: "a", InstanceType: "m5.large", NodePool: "p", Initialized: true},
		{Name: "a", Zone: "a", NodePool: "p", Initialized: true, Labels: map[string]string{
			requirements.LabelHostname: "a", requirements.LabelZone: "a", requirements.LabelNodePool: "p"}},
	}}
	s := compile(&p, Options{Strategy: Plain})
	first, second := newRun(s, passSpec{seq: seqFFD}, nil, nil), newRun(s, passSpec{cost: true, seq: seqFFD}, nil, nil)
	require.Len(t, first.nodes, 2)
	require.Len(t, second.nodes, 2)
	for i, nd := range first.nodes {
		assert.True(t, sameMap(nd.labels, second.nodes[i].labels), "node %s: each pass has its own labels map", nd.n.Name)
		assert.Equal(t, nodeLabels(nd.n), nd.labels, "node %s", nd.n.Name)
	}
}

// sameMap reports whether a and b are one map (or both nil).
func sameMap(a, b map[string]string) bool {
	return reflect.ValueOf(a).UnsafePointer() == reflect.ValueOf(b).UnsafePointer()
}
