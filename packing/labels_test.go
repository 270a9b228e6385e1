package packing_test

import (
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
