package packing_test

import (
	"maps"
	"testing"

	"github.com/nodeplan/nodeplan/instancetypes"
	"github.com/nodeplan/nodeplan/internal/problemgen"
	"github.com/nodeplan/nodeplan/packing"
	"github.com/nodeplan/nodeplan/requirements"
)

// TestNodeLabelAgreesWithEffectiveLabels: Label(key) is EffectiveLabels()
// looked up under the key's stable name, for every key of every node of
// generated problems and a table of hand-made nodes, and allocates nothing.
func TestNodeLabelAgreesWithEffectiveLabels(t *testing.T) {
	nodes := []packing.Node{
		{Name: "n", Zone: "a", InstanceType: "m.large", NodePool: "p"},
		{Name: "n", Labels: map[string]string{"failure-domain.beta.kubernetes.io/zone": "b"}, Zone: "a"},
		{Name: "n", Labels: map[string]string{"failure-domain.beta.kubernetes.io/zone": "b", requirements.LabelZone: "c"}},
		{Name: "n", Labels: map[string]string{"beta.kubernetes.io/instance-type": "x"}, InstanceType: "y", CapacityType: instancetypes.Spot},
		{Name: "n", CapacityType: instancetypes.Spot},
	}
	for seed := range uint64(200) {
		nodes = append(nodes, problemgen.Generate(seed, problemgen.Size{}).Nodes...)
	}
	keys := []string{requirements.LabelZone, "failure-domain.beta.kubernetes.io/zone", requirements.LabelInstanceType,
		"beta.kubernetes.io/instance-type", requirements.LabelHostname, requirements.LabelNodePool,
		requirements.LabelCapacityType, requirements.LabelArch, "rack", "absent"}
	for i := range nodes {
		n := &nodes[i]
		all := n.EffectiveLabels()
		for k := range n.Labels {
			keys = append(keys, k)
		}
		for _, k := range keys {
			want, wantOK := all[requirements.Normalize(k)]
			got, ok := n.Label(k)
			if got != want || ok != wantOK {
				t.Fatalf("node %+v: Label(%q) = %q, %v; EffectiveLabels has %q, %v", *n, k, got, ok, want, wantOK)
			}
		}
	}
	n := &nodes[1]
	if allocs := testing.AllocsPerRun(100, func() { n.Label(requirements.LabelZone) }); allocs != 0 {
		t.Errorf("allocs = %v; want 0", allocs)
	}
}

// TestNodePoolEffectiveLabels: a pool's labels under their stable keys,
// the stable label winning over its beta alias, plus its name under
// karpenter.sh/nodepool; the pool is not modified.
func TestNodePoolEffectiveLabels(t *testing.T) {
	beta := "failure-domain.beta.kubernetes.io/zone"
	tests := []struct {
		name   string
		labels map[string]string
		want   map[string]string
	}{
		{"no labels", nil, map[string]string{requirements.LabelNodePool: "p"}},
		{"a custom label", map[string]string{"team": "a"}, map[string]string{"team": "a", requirements.LabelNodePool: "p"}},
		{"a beta label", map[string]string{beta: "z1"}, map[string]string{requirements.LabelZone: "z1", requirements.LabelNodePool: "p"}},
		{"stable wins over beta", map[string]string{beta: "z1", requirements.LabelZone: "z2"},
			map[string]string{requirements.LabelZone: "z2", requirements.LabelNodePool: "p"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			np := packing.NodePool{Name: "p", Labels: tc.labels}
			got := np.EffectiveLabels()
			if !maps.Equal(got, tc.want) {
				t.Errorf("EffectiveLabels() = %v; want %v", got, tc.want)
			}
			if len(tc.labels) > 0 && len(np.Labels) != len(tc.labels) {
				t.Errorf("the pool's labels changed to %v", np.Labels)
			}
		})
	}
}

// TestNodeClaimHasLabel: HasLabel looks a key up as it is, without
// reading a beta key as its stable one.
func TestNodeClaimHasLabel(t *testing.T) {
	c := packing.NodeClaim{Labels: []requirements.Label{{Key: "failure-domain.beta.kubernetes.io/zone", Value: "a"}, {Key: "team", Value: "x"}}}
	for key, want := range map[string]bool{"team": true, "failure-domain.beta.kubernetes.io/zone": true, requirements.LabelZone: false, "absent": false} {
		if got := c.HasLabel(key); got != want {
			t.Errorf("HasLabel(%q) = %v; want %v", key, got, want)
		}
	}
	if allocs := testing.AllocsPerRun(100, func() { c.HasLabel("team") }); allocs != 0 {
		t.Errorf("allocs = %v; want 0", allocs)
	}
}
